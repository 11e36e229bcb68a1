/** The TypeScript/JavaScript language server OpenSpace ships: typescript-language-server over the project's own TypeScript, else ours. */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LanguageServer, LanguageServerConfig } from './language-server.js';

// Node's require, for finding installed packages' files: the module's own where it is CommonJS
// (Theia's backend bundle), else one made from the module's URL.
const resolve: NodeJS.RequireResolve = typeof require === 'function' ? require.resolve : createRequire(import.meta.url).resolve;

/** tsserver's own diagnostic shape (1-based line and offset). */
interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
  source?: string;
  reportsUnnecessary?: unknown;
  reportsDeprecated?: unknown;
}

const SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, message: 3, suggestion: 4 };

function toLsp(d: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: SEVERITY[d.category] ?? 1,
    message: d.text,
    source: d.source ?? 'typescript',
    ...(d.code !== undefined ? { code: d.code } : {}),
    ...(d.reportsUnnecessary ? { tags: [1 as const] } : d.reportsDeprecated ? { tags: [2 as const] } : {}),
  };
}

/**
 * What the server would push for a file, asked of tsserver at once: the server itself waits
 * 300–800 ms after a change before it asks, which would put every answer after a write over a
 * second. The same three kinds it pushes: syntax, semantic and suggestion diagnostics.
 */
async function tsserverDiagnostics(server: LanguageServer, file: string): Promise<Diagnostic[]> {
  const kinds = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'];
  const answers = await Promise.all(
    kinds.map((kind) =>
      server.request<{ body?: TsDiagnostic[] } | undefined>('workspace/executeCommand', {
        command: 'typescript.tsserverRequest',
        arguments: [kind, { file }],
      }),
    ),
  );
  return answers.flatMap((answer) => (answer?.body ?? []).map(toLsp));
}

export function typescriptServer(): LanguageServerConfig {
  // The TypeScript installed beside the server (OpenSpace's own), not whichever an app nearby has.
  const serverPackage = resolve('typescript-language-server/package.json');
  return {
    name: 'typescript',
    command: [process.execPath, resolve('typescript-language-server/lib/cli.mjs'), '--stdio'],
    extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
    languageIds: {
      '.ts': 'typescript',
      '.mts': 'typescript',
      '.cts': 'typescript',
      '.tsx': 'typescriptreact',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
      '.jsx': 'javascriptreact',
    },
    initializationOptions: {
      hostInfo: 'OpenSpace',
      // A project's own TypeScript when it has one (node_modules/typescript), else the one OpenSpace ships.
      tsserver: { fallbackPath: dirname(createRequire(serverPackage).resolve('typescript/lib/tsserver.js')), useSyntaxServer: 'never' },
      // No network here, and no downloads behind a person's back.
      disableAutomaticTypingAcquisition: true,
    },
    pullDiagnostics: tsserverDiagnostics,
  };
}
