import * as nodeFs from 'node:fs';
import { ConnectionHandler, RpcConnectionHandler, type RpcProxy } from '@theia/core/lib/common/messaging';
import { BackendApplicationContribution, EarlyExpressMiddleware } from '@theia/core/lib/node/backend-application';
import { ContainerModule, inject, injectable } from '@theia/core/shared/inversify';
import { PreferenceContribution } from '@theia/core/lib/common/preferences/preference-schema';
import { OpenSpacePreferenceDefaults } from '../common/preferences.js';
import { WorkspaceServer } from '@theia/workspace/lib/common/workspace-protocol';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { serializableContext, ToolError } from '../../../../src/contract/index.js';
import { Hub } from '../../../../src/hub/hub.js';
import { createHubRouter } from '../../../../src/hub/router.js';
import { WorkspaceFiles } from '../../../../src/store/workspace-files.js';
import { BRIDGE_PATH, FILES_PATH, type BridgeBackend, type BridgeFrontend, type FilesBackend, type FilesMethod, type FilesOutcome } from '../common/protocol.js';

/** The hub, one per backend, shared by the HTTP router and the bridge connections. */
@injectable()
export class OpenSpaceHub {
  readonly hub = new Hub({ ideName: 'Theia OpenSpace IDE' });
}

/**
 * Mounts the hub (/mcp, /openspace/*) on Theia's own Express app, so it shares Theia's port. It goes
 * in ahead of Theia's own middleware: a JSON body parser with a 100 kB limit that @theia/filesystem
 * adds to every path would otherwise refuse larger tool calls (a file.write of a big file).
 */
@injectable()
export class HubContribution implements BackendApplicationContribution {
  @inject(OpenSpaceHub) protected readonly openspace!: OpenSpaceHub;
  @inject(EarlyExpressMiddleware) protected readonly early!: EarlyExpressMiddleware;

  initialize(): void {
    this.early.handlers.push(createHubRouter(this.openspace.hub));
  }
}

let windows = 0;

/** One per window connection: offers the window's CommandBridge to the hub until the connection closes. */
function bridgeFor(hub: Hub, frontend: RpcProxy<BridgeFrontend>): BridgeBackend {
  const id = `theia-window-${++windows}`;
  hub.bridges.offer(id, { execute: (commandId, args, context) => frontend.execute(commandId, args, serializableContext(context)) });
  frontend.onDidCloseConnection(() => hub.bridges.withdraw(id));
  return { bridgeId: async () => id };
}

const FILE_METHODS = new Set<FilesMethod>(['resolve', 'stat', 'readText', 'writeText', 'list', 'search']);

/** The workspace's files for the frontend, behind the path guard and the file policy, on the Node side. */
@injectable()
export class FilesBackendImpl implements FilesBackend {
  @inject(WorkspaceServer) protected readonly workspaceServer!: WorkspaceServer;
  private readonly workspaces = new Map<string, Promise<WorkspaceFiles>>();

  async call(root: string, method: FilesMethod, args: unknown[]): Promise<FilesOutcome> {
    try {
      if (!FILE_METHODS.has(method)) throw new ToolError('INVALID_ARGUMENT', `Unknown file method ${method}.`);
      const files = await this.workspace(root);
      const fn = files[method] as (...a: unknown[]) => Promise<unknown>;
      return { ok: true, value: await fn.apply(files, args) };
    } catch (err) {
      if (err instanceof ToolError) return { ok: false, code: err.code, message: err.message, details: err.details };
      return { ok: false, code: 'INTERNAL', message: `Internal error: ${err instanceof Error ? err.message : String(err)}`, details: {} };
    }
  }

  /** Only the workspace Theia opened may be served, whatever a frontend asks for. */
  private async workspace(root: string): Promise<WorkspaceFiles> {
    const opened = await this.workspaceServer.getMostRecentlyUsedWorkspace();
    const openedPath = opened ? FileUri.fsPath(opened) : undefined;
    if (!openedPath || nodeFs.realpathSync(openedPath) !== nodeFs.realpathSync(root)) {
      throw new ToolError('PATH_OUTSIDE_WORKSPACE', `${root} is not the workspace this IDE opened.`);
    }
    let files = this.workspaces.get(root);
    if (!files) {
      files = WorkspaceFiles.create({ fs: nodeFs, root, kind: 'disk' });
      this.workspaces.set(root, files);
    }
    return files;
  }
}

export default new ContainerModule((bind) => {
  bind(OpenSpacePreferenceDefaults).toSelf().inSingletonScope();
  bind(PreferenceContribution).toService(OpenSpacePreferenceDefaults);
  bind(OpenSpaceHub).toSelf().inSingletonScope();
  bind(HubContribution).toSelf().inSingletonScope();
  bind(BackendApplicationContribution).toService(HubContribution);
  bind(ConnectionHandler)
    .toDynamicValue(
      (ctx) =>
        new RpcConnectionHandler<BridgeFrontend>(BRIDGE_PATH, (frontend) => bridgeFor(ctx.container.get(OpenSpaceHub).hub, frontend)),
    )
    .inSingletonScope();
  bind(FilesBackendImpl).toSelf().inSingletonScope();
  bind(ConnectionHandler)
    .toDynamicValue((ctx) => new RpcConnectionHandler(FILES_PATH, () => ctx.container.get(FilesBackendImpl)))
    .inSingletonScope();
});
