import * as nodeFs from 'node:fs';
import { ConnectionHandler, RpcConnectionHandler, type RpcProxy } from '@theia/core/lib/common/messaging';
import { BackendApplicationContribution, EarlyExpressMiddleware } from '@theia/core/lib/node/backend-application';
import { ContainerModule, inject, injectable } from '@theia/core/shared/inversify';
import { PreferenceContribution } from '@theia/core/lib/common/preferences/preference-schema';
import { OpenSpacePreferenceDefaults } from '../common/preferences.js';
import { WorkspaceServer } from '@theia/workspace/lib/common/workspace-protocol';
import { NODE_COMMANDS, PaneStateSnapshot, attachTarget, serializableContext, ToolError, type ErrorCode } from '../../../../src/browser.js';
import {
  generateToken,
  writeLockFile,
  Hub,
  AUDIT_LOG_FILE,
  NdjsonAuditLog,
  createHubRouter,
  WorkspaceFiles,
  agentLaunch,
  type AgentLaunch,
  GitRepository,
  testsSummary,
  attachLanguage,
  launchTarget,
} from '../../../../src/node.js';
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { join } from 'node:path';
import {
  AGENT_PANE_PATH,
  BRIDGE_PATH,
  CODE_PATH,
  type AgentPaneBackend,
  FILES_PATH,
  type BridgeBackend,
  type BridgeFrontend,
  type FilePolicySettings,
  type FilesBackend,
  type FilesMethod,
  type FilesOutcome,
  SANDBOX_PATH,
} from '../common/protocol.js';
import { CallFilePolicy } from './call-file-policy.js';
import { BesideFiles, type BackendParts } from './beside-files.js';
import { CodeBackendImpl } from './code-backend.js';
import { SandboxBackendImpl } from './sandbox-backend.js';
import { TestsBackend } from './tests-backend.js';
import { debugAdapterContribution } from './debug-adapters.js';
import { DebugAdapterContribution } from '@theia/debug/lib/common/debug-model';
import { CHAT_PATH, type ChatClient } from '../common/chat-protocol.js';
import { ChatService, chatBackendFor } from './chat/chat-backend.js';
import { openedWorkspace } from './opened-workspace.js';
import { stopWithStarter } from './lost-output.js';

/**
 * The hub, one per backend, shared by the HTTP router and the bridge connections. Its audit log is
 * the opened workspace's .openspace/audit.ndjson. OPENSPACE_MAX_CALLS_PER_TURN changes the per-turn
 * limit (0: none).
 */
@injectable()
export class OpenSpaceHub {
  @inject(WorkspaceServer) protected readonly workspaceServer!: WorkspaceServer;
  private audit: Promise<NdjsonAuditLog | undefined> | undefined;
  readonly hub = new Hub({
    ideName: 'Theia OpenSpace IDE',
    maxCallsPerTurn: process.env.OPENSPACE_MAX_CALLS_PER_TURN ? Number(process.env.OPENSPACE_MAX_CALLS_PER_TURN) : undefined,
    audit: { record: (entry) => void this.auditLog().then((log) => log?.record(entry)) },
  });

  private auditLog(): Promise<NdjsonAuditLog | undefined> {
    const audit = (this.audit ??= openedWorkspace(this.workspaceServer).then((root) =>
      root ? new NdjsonAuditLog(nodeFs.promises, join(root, AUDIT_LOG_FILE)) : undefined,
    ));
    return audit;
  }
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
  @inject(WorkspaceServer) protected readonly workspaceServer!: WorkspaceServer;
  /**
   * The access token agents must send: OPENSPACE_TOKEN when set (as configs `openspace init` wrote
   * expect; 32 characters at least), else a new one; none with OPENSPACE_NO_AUTH=1.
   * OPENSPACE_SESSION_IDLE_MS: idle session lifetime.
   */
  readonly token = process.env.OPENSPACE_NO_AUTH === '1' ? undefined : (tokenFromEnv() ?? generateToken());
  /** The hub's MCP endpoint, once the server listens. */
  mcpUrl: string | undefined;
  private removeLock: (() => void) | undefined;

  initialize(): void {
    const idle = process.env.OPENSPACE_SESSION_IDLE_MS;
    this.early.handlers.push(createHubRouter(this.openspace.hub, { token: this.token, sessionIdleMs: idle ? Number(idle) : undefined }));
  }

  /** Announce the hub in ~/.openspace/ide/<port>.lock (URL and token, owner-readable only). */
  async onStart(server: HttpServer | HttpsServer): Promise<void> {
    // As the standalone hub's (src/hub/server.ts): an agent's MCP client keeps its connection
    // between calls a model's thinking apart; with Node's 5 s, a call sent as the server closes an
    // idle connection fails with "fetch failed" (seen under load, when the client's own 4 s came late).
    server.keepAliveTimeout = 60_000;
    // Theia calls onStart right after server.listen(), which may not have bound the port yet.
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') return;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
    const root = await openedWorkspace(this.workspaceServer);
    this.mcpUrl = `${url}/mcp`;
    this.removeLock = await writeLockFile(address.port, {
      pid: process.pid,
      ideName: 'Theia OpenSpace IDE',
      url,
      mcpUrl: `${url}/mcp`,
      authToken: this.token,
      workspaceFolders: root ? [root] : [],
      startedAt: new Date().toISOString(),
    });
  }

  onStop(): void {
    this.removeLock?.();
  }
}

function tokenFromEnv(): string | undefined {
  const token = process.env.OPENSPACE_TOKEN;
  if (!token) return undefined;
  if (token.length < 32) throw new Error('OPENSPACE_TOKEN must be at least 32 characters long.');
  return token;
}

/** Where the agent pane's CLI is, and the hub's URL and token for it (src/init/agent-launch.ts). */
@injectable()
export class AgentPaneBackendImpl implements AgentPaneBackend {
  @inject(HubContribution) protected readonly hubContribution!: HubContribution;

  async launch(command: string, args: string[]): Promise<AgentLaunch> {
    const { mcpUrl, token } = this.hubContribution;
    if (!mcpUrl) return { ok: false, message: 'The OpenSpace hub is not listening yet; try again in a moment.' };
    return agentLaunch(command, args, { mcpUrl, token });
  }
}

let windows = 0;
let windowCalls = 0;

/**
 * One per window connection: offers the window's CommandBridge to the hub until the connection
 * closes. The commands of the families that run beside the files run here (BesideFiles); the rest
 * in the window.
 */
function bridgeFor(hub: Hub, frontend: RpcProxy<BridgeFrontend>, parts: BackendParts): BridgeBackend {
  const id = `theia-window-${++windows}`;
  const besideFiles = new BesideFiles(frontend, parts);
  hub.bridges.offer(id, {
    execute: (commandId, args, context) => {
      if (NODE_COMMANDS.has(commandId)) return besideFiles.run(commandId, args, context);
      const signal = context?.signal;
      if (!signal) return frontend.execute(commandId, args, serializableContext(context));
      // The signal stays here; the window is told when it aborts.
      const callId = ++windowCalls;
      const cancelled = () => void frontend.notifyCancelled(callId).catch(() => undefined);
      signal.addEventListener('abort', cancelled, { once: true });
      return frontend
        .execute(commandId, args, serializableContext(context), callId)
        .finally(() => signal.removeEventListener('abort', cancelled));
    },
  });
  const stopSessions = hub.onSessionsChanged((sessions) => void frontend.sessionsChanged(sessions).catch(() => undefined));
  frontend.onDidCloseConnection(() => {
    hub.bridges.withdraw(id);
    stopSessions();
  });
  return {
    register: async () => void hub.bridges.register(id),
    sessions: async () => hub.connectedSessions(),
    publishState: async (snapshot) => {
      const parsed = PaneStateSnapshot.safeParse(snapshot);
      if (parsed.success) hub.state.update(parsed.data);
    },
    publishView: async (view) => besideFiles.publish(view),
    run: (commandId, args, context) => besideFiles.run(commandId, args, context),
    gitOriginals: (wanted) => besideFiles.personsOriginals(wanted),
    gitStageText: (path, text) => besideFiles.personsGit(path).then(({ git, path }) => git.stageText(path, text)),
    debugAttachLanguage: (target, language) =>
      answerOrError(attachLanguage(attachTarget(target).target, language).then((language) => ({ language }))),
    debugLaunchTarget: (launch, root) => answerOrError(launchTarget(launch, root)),
  };
}

/** A debug question's answer, or its ToolError's code and message (an error's class does not cross to the window). */
function answerOrError<T>(answer: Promise<T>): Promise<T | { code: ErrorCode; message: string }> {
  return answer.catch((error: unknown) =>
    error instanceof ToolError
      ? { code: error.code, message: error.message }
      : { code: 'DEBUG_FAILED' as const, message: error instanceof Error ? error.message : String(error) },
  );
}

const FILE_METHODS = new Set<FilesMethod>(['resolve', 'stat', 'readText', 'writeText', 'patch', 'snapshots', 'restore', 'list', 'search']);

/** The workspace's files for the frontend, behind the path guard and the file policy, on the Node side. */
@injectable()
export class FilesBackendImpl implements FilesBackend {
  @inject(WorkspaceServer) protected readonly workspaceServer!: WorkspaceServer;
  private readonly workspaces = new Map<string, Promise<WorkspaceFiles>>();
  readonly policies = new CallFilePolicy();

  async call(root: string, method: FilesMethod, args: unknown[], settings?: FilePolicySettings): Promise<FilesOutcome> {
    try {
      if (!FILE_METHODS.has(method)) throw new ToolError('INVALID_ARGUMENT', `Unknown file method ${method}.`);
      const policy = this.policies.compile(settings);
      const files = await this.workspaceFor(root);
      const fn = files[method] as (...a: unknown[]) => Promise<unknown>;
      return { ok: true, value: await this.policies.run(policy, () => fn.apply(files, args)) };
    } catch (err) {
      if (err instanceof ToolError) return { ok: false, code: err.code, message: err.message, details: err.details };
      return { ok: false, code: 'INTERNAL', message: `Internal error: ${err instanceof Error ? err.message : String(err)}`, details: {} };
    }
  }

  /** Only the workspace Theia opened may be served, whatever a frontend asks for. */
  async workspaceFor(root: string): Promise<WorkspaceFiles> {
    const openedPath = await openedWorkspace(this.workspaceServer);
    if (!openedPath || nodeFs.realpathSync(openedPath) !== nodeFs.realpathSync(root)) {
      throw new ToolError('PATH_OUTSIDE_WORKSPACE', `${root} is not the workspace this IDE opened.`);
    }
    let files = this.workspaces.get(root);
    if (!files) {
      // The store's write lines go to the workspace's audit log too (appended whole, beside the hub's call lines).
      const audit = new NdjsonAuditLog(nodeFs.promises, join(root, AUDIT_LOG_FILE));
      files = WorkspaceFiles.create({ fs: nodeFs, root, kind: 'disk', policy: this.policies.current, audit });
      this.workspaces.set(root, files);
    }
    return files;
  }
}

export default new ContainerModule((bind) => {
  // Stopped as SIGTERM stops it (Theia's graceful shutdown: the chat's agents and the sandboxes end too).
  bind(BackendApplicationContribution).toConstantValue({ initialize: () => stopWithStarter(() => process.kill(process.pid, 'SIGTERM')) });
  bind(OpenSpacePreferenceDefaults).toSelf().inSingletonScope();
  bind(PreferenceContribution).toService(OpenSpacePreferenceDefaults);
  bind(OpenSpaceHub).toSelf().inSingletonScope();
  bind(HubContribution).toSelf().inSingletonScope();
  bind(BackendApplicationContribution).toService(HubContribution);
  bind(ConnectionHandler)
    .toDynamicValue(
      (ctx) =>
        new RpcConnectionHandler<BridgeFrontend>(BRIDGE_PATH, (frontend) => {
          const files = ctx.container.get(FilesBackendImpl);
          const code = ctx.container.get(CodeBackendImpl);
          const tests = ctx.container.get(TestsBackend);
          return bridgeFor(ctx.container.get(OpenSpaceHub).hub, frontend, {
            files: (root) => files.workspaceFor(root),
            code: (root, buffers) => code.portFor(root, buffers),
            policies: files.policies,
            git: (root) => new GitRepository(root, files.policies.current),
            tests: (root, sandbox, runners) => tests.portFor(root, sandbox, runners),
          });
        }),
    )
    .inSingletonScope();
  bind(FilesBackendImpl).toSelf().inSingletonScope();
  bind(ConnectionHandler)
    .toDynamicValue((ctx) => new RpcConnectionHandler(FILES_PATH, () => ctx.container.get(FilesBackendImpl)))
    .inSingletonScope();
  bind(CodeBackendImpl)
    .toDynamicValue((ctx) => new CodeBackendImpl((root) => ctx.container.get(FilesBackendImpl).workspaceFor(root)))
    .inSingletonScope();
  bind(BackendApplicationContribution).toService(CodeBackendImpl);
  bind(ConnectionHandler)
    .toDynamicValue((ctx) => new RpcConnectionHandler(CODE_PATH, () => ctx.container.get(CodeBackendImpl)))
    .inSingletonScope();
  bind(SandboxBackendImpl).toSelf().inSingletonScope();
  // The debug family's adapters as Theia debug types.
  for (const language of ['python', 'c', 'node'] as const)
    bind(DebugAdapterContribution)
      .toDynamicValue((ctx) => debugAdapterContribution(language, ctx.container.get(SandboxBackendImpl)))
      .inSingletonScope();
  bind(TestsBackend)
    .toDynamicValue(
      (ctx) =>
        new TestsBackend(ctx.container.get(SandboxBackendImpl), (run) =>
          ctx.container.get(OpenSpaceHub).hub.state.testsRan(testsSummary(run)),
        ),
    )
    .inSingletonScope();
  bind(ConnectionHandler)
    .toDynamicValue((ctx) => new RpcConnectionHandler(SANDBOX_PATH, () => ctx.container.get(SandboxBackendImpl)))
    .inSingletonScope();
  bind(ChatService)
    .toDynamicValue((ctx) => {
      const hub = ctx.container.get(HubContribution);
      const workspaceServer = ctx.container.get<WorkspaceServer>(WorkspaceServer);
      return new ChatService({
        workspace: () => openedWorkspace(workspaceServer),
        hub: () => ({ mcpUrl: hub.mcpUrl, token: hub.token }),
        endSessions: (label) => ctx.container.get(OpenSpaceHub).hub.endLabelledSessions(label),
      });
    })
    .inSingletonScope();
  bind(BackendApplicationContribution).toDynamicValue((ctx) => ({ onStop: () => ctx.container.get(ChatService).dispose() }));
  bind(ConnectionHandler)
    .toDynamicValue(
      (ctx) => new RpcConnectionHandler<ChatClient>(CHAT_PATH, (client) => chatBackendFor(ctx.container.get(ChatService), client)),
    )
    .inSingletonScope();
  bind(AgentPaneBackendImpl).toSelf().inSingletonScope();
  bind(ConnectionHandler)
    .toDynamicValue((ctx) => new RpcConnectionHandler(AGENT_PANE_PATH, () => ctx.container.get(AgentPaneBackendImpl)))
    .inSingletonScope();
});
