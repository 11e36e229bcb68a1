import { realpathSync } from 'node:fs';
import type { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { ToolError } from '../../../../src/browser.js';
import { LspCodePort, configuredServers, READY_WAIT_ENV, typescriptServer } from '../../../../src/node.js';
import type { WorkspaceFiles } from '../../../../src/node.js';
import type { CodeBackend, CodeMethod, CodeOutcome } from '../common/protocol.js';

const CODE_METHODS = new Set<CodeMethod>([
  'fileEndings',
  'languages',
  'diagnostics',
  'workspaceSymbols',
  'documentSymbols',
  'definition',
  'references',
  'hover',
  'completion',
]);

/**
 * Code intelligence for the window's agent tools: the same language servers and the same LSP
 * client as the simulated IDE's, run here beside the workspace's files, seeing the window's
 * unsaved editor buffers, which come with every call.
 */
export class CodeBackendImpl implements CodeBackend, BackendApplicationContribution {
  /** `workspaceFor`: the workspace's files, as the file tools see them (only the workspace Theia opened). */
  constructor(private readonly workspaceFor: (root: string) => Promise<WorkspaceFiles>) {}
  private readonly ports = new Map<string, Promise<LspCodePort>>();
  /** TypeScript's server, and those `npm run theia -- --language-server …` adds. */
  private readonly servers = [typescriptServer(), ...configuredServers()];
  /** The editor buffers as of the latest call, per workspace root: the window's, or those of a command run here (undefined: as on disk). */
  private readonly buffers = new Map<string, Record<string, string | undefined>>();

  async call(root: string, method: CodeMethod, args: unknown[], buffers: Record<string, string>): Promise<CodeOutcome> {
    let port: LspCodePort | undefined;
    try {
      if (!CODE_METHODS.has(method)) throw new ToolError('INVALID_ARGUMENT', `Unknown code method ${method}.`);
      port = await this.port(root);
      this.buffers.set(root, buffers);
      const fn = port[method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn.apply(port, args);
      return { ok: true, value, notice: port.takeNotice(), problems: port.problemCounts() };
    } catch (err) {
      const problems = port?.problemCounts() ?? { errors: 0, warnings: 0, files: 0 };
      if (err instanceof ToolError) return { ok: false, code: err.code, message: err.message, details: err.details, problems };
      return {
        ok: false,
        code: 'INTERNAL',
        message: `Internal error: ${err instanceof Error ? err.message : String(err)}`,
        details: {},
        problems,
      };
    }
  }

  /** The servers of a workspace for a command run here, seeing these buffers. */
  async portFor(root: string, buffers: Record<string, string | undefined>): Promise<LspCodePort> {
    const port = await this.port(root);
    this.buffers.set(root, buffers);
    return port;
  }

  async filesChanged(root: string, paths: string[]): Promise<void> {
    // Only a workspace whose servers run has documents to read again.
    const port = this.ports.get(root);
    if (port) (await port).filesChanged(paths);
  }

  private port(root: string): Promise<LspCodePort> {
    let port = this.ports.get(root);
    if (!port) {
      port = this.workspaceFor(root).then(
        (workspace) =>
          new LspCodePort({
            serverRoot: realpathSync(root),
            workspace,
            buffers: { text: (path) => this.buffers.get(root)?.[path], paths: () => Object.keys(this.buffers.get(root) ?? {}) },
            servers: this.servers,
            readyWaitMs: Number(process.env[READY_WAIT_ENV]) || undefined,
          }),
      );
      this.ports.set(root, port);
    }
    return port;
  }

  async onStop(): Promise<void> {
    await Promise.all([...this.ports.values()].map(async (port) => (await port).dispose()));
  }
}
