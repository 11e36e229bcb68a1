/**
 * The debug adapters OpenSpace starts, by language: the program that speaks the Debug Adapter
 * Protocol on stdio and the launch request it takes. Python: debugpy (Debian's python3-debugpy);
 * C, C++, Rust: LLDB's DAP server (lldb-dap, or lldb-vscode before LLVM 18). Node only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ToolError } from '../../contract/index.js';
import type { DebugLanguageName } from './port.js';

export interface Adapter {
  /** The adapter's command line. */
  argv: string[];
  /** adapterID for initialize. */
  id: string;
  /** The launch request's arguments for a program (absolute paths). */
  launch(program: string, args: string[], cwd: string, stopOnEntry: boolean): Record<string, unknown>;
}

const found = new Map<string, string | undefined>();

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The first Python that has debugpy: Debian's (/usr/bin/python3) before another python3 on PATH. */
function debugpyPython(): string | undefined {
  if (!found.has('python')) {
    const candidates = [...new Set(['/usr/bin/python3', onPath('python3')].filter((p): p is string => !!p && existsSync(p)))];
    found.set(
      'python',
      candidates.find((python) => {
        try {
          execFileSync(python, ['-c', 'import debugpy'], { stdio: 'ignore', timeout: 10_000 });
          return true;
        } catch {
          return false;
        }
      }),
    );
  }
  return found.get('python');
}

function lldbDap(): string | undefined {
  if (!found.has('lldb')) {
    const names = [
      'lldb-dap',
      ...[20, 19, 18].map((v) => `lldb-dap-${v}`),
      'lldb-vscode',
      ...[17, 16, 15, 14].map((v) => `lldb-vscode-${v}`),
    ];
    found.set(
      'lldb',
      names.map(onPath).find((p) => p !== undefined),
    );
  }
  return found.get('lldb');
}

/** The adapter for a language, or NO_DEBUGGER saying what to install. */
export function adapterFor(language: DebugLanguageName): Adapter {
  if (language === 'python') {
    const python = debugpyPython();
    if (!python)
      throw new ToolError(
        'NO_DEBUGGER',
        'No Python here has debugpy: install it (Debian: apt-get install python3-debugpy; else pip install debugpy).',
      );
    return {
      argv: [python, '-m', 'debugpy.adapter'],
      id: 'debugpy',
      launch: (program, args, cwd, stopOnEntry) => ({
        type: 'python',
        request: 'launch',
        program,
        args,
        cwd,
        stopOnEntry,
        python: [python],
        console: 'internalConsole',
        redirectOutput: true,
        justMyCode: true,
      }),
    };
  }
  if (language === 'c') {
    const lldb = lldbDap();
    if (!lldb)
      throw new ToolError('NO_DEBUGGER', 'No LLDB DAP server here (lldb-dap or lldb-vscode): install LLDB (Debian: apt-get install lldb).');
    return {
      argv: [lldb],
      id: 'lldb',
      launch: (program, args, cwd, stopOnEntry) => ({ type: 'lldb', request: 'launch', program, args, cwd, stopOnEntry }),
    };
  }
  throw new ToolError('NO_DEBUGGER', 'Debugging JavaScript on Node is not available yet; Python (debugpy) and C (LLDB) are.');
}
