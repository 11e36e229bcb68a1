import { inject, injectable } from '@theia/core/shared/inversify';
import URI from '@theia/core/lib/common/uri';
import { BreakpointManager } from '@theia/debug/lib/browser/breakpoint/breakpoint-manager';
import { SourceBreakpoint } from '@theia/debug/lib/browser/breakpoint/breakpoint-marker';
import { DebugSessionManager } from '@theia/debug/lib/browser/debug-session-manager';
import type { DebugSession } from '@theia/debug/lib/browser/debug-session';
import type { DebugSourceBreakpoint } from '@theia/debug/lib/browser/model/debug-source-breakpoint';
import type { DebugProtocol } from '@vscode/debugprotocol';
import {
  DebugSessionState,
  ToolError,
  type BreakpointInfo,
  type BreakpointSpec,
  type DebugAttach,
  type ErrorCode,
  type DebugLanguageName,
  type DebugLaunch,
  type LaunchTarget,
  attachRefusal,
  attachTarget,
  type DebugPort,
  type DebugSessionHandle,
  type Disposable,
} from '../../../../../src/browser.js';
import { OPENSPACE_DEBUG_TYPES, type OpenSpaceDebugConfiguration } from '../../common/debug-types.js';
import { ContentIds } from '../content-ids.js';
import { TheiaSandbox } from '../theia-sandbox.js';

/** The events a session's state follows. */
const EVENTS = ['stopped', 'continued', 'exited', 'terminated', 'output'] as const;
/** The requests that run a stopped program (those Theia tells of with its own "continued" once answered). */
const RESUMING = new Set(['continue', 'next', 'stepIn', 'stepOut', 'stepBack', 'reverseContinue', 'restartFrame', 'goto']);
/** How long a debugger may take to launch or attach. */
const START_WAIT_MS = 20_000;
/** How long a breakpoint set while sessions run waits for them to place it. */
const PLACED_WAIT_MS = 2000;

class TheiaDebugSession implements DebugSessionHandle {
  readonly state = new DebugSessionState();
  session: DebugSession | undefined;

  constructor(
    readonly id: string,
    readonly name: string,
    private readonly manager: DebugSessionManager,
    private readonly onStop: () => void,
    /** Attached to a program running on its own: stopping lets go of it. */
    private readonly attached = false,
  ) {}

  /**
   * Follow Theia's session from its creation, before its launch. A step or continue, the agent's or
   * the person's (F10 in the editor), runs the program from the moment it is sent: Theia's own
   * "continued" for it comes only once the debugger answered (seq -1), and an agent's debug.wait
   * in between would answer the stop the program already left.
   */
  attach(session: DebugSession): void {
    this.session = session;
    for (const name of EVENTS)
      session.on(name, (event: DebugProtocol.Event) => {
        if (name !== 'continued' || event.seq !== -1) this.state.event(name, event.body);
      });
    session.onDispose(() => this.state.ended());
    const send = session.sendRequest.bind(session);
    session.sendRequest = (async (command: string, args?: object, timeout?: number) => {
      const left = RESUMING.has(command) && this.state.status === 'stopped' ? this.state.stopped : undefined;
      if (left) this.state.resumed();
      try {
        return await send(command as never, args as never, timeout);
      } catch (error) {
        if (left && this.state.status === 'running') this.state.event('stopped', left); // it did not move
        throw error;
      }
    }) as typeof session.sendRequest;
  }

  async request<R extends DebugProtocol.Response>(command: string, args?: object): Promise<R['body']> {
    if (!this.session || this.state.status === 'exited') throw new ToolError('DEBUG_NOT_STOPPED', `The program of ${this.id} has exited.`);
    const response = await this.session.sendRequest(command as never, args as never);
    return (response as R).body;
  }

  async stop(): Promise<void> {
    const session = this.session;
    if (session && this.state.status !== 'exited') {
      if (this.attached) {
        // Theia's own stop would terminate the program (debugpy's terminate, LLDB's terminateDebuggee): let go of it instead.
        const gone = new Promise<void>((resolve) => session.onDispose(() => resolve()));
        await session.sendRequest('disconnect', { terminateDebuggee: false }).catch(() => undefined);
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 2000))]);
        this.manager.terminateSession(session).catch(() => undefined);
      } else await this.manager.terminateSession(session);
    }
    this.state.ended();
    this.onStop();
  }
}

/**
 * The debug family's port in Theia: an agent's sessions are Theia's own debug sessions (started by
 * the DebugSessionManager with the debug types of theia-app/openspace/src/node/debug-adapters.ts),
 * so the person sees them in the Debug view, the editor and the Debug Console and can step them; its
 * breakpoints are the BreakpointManager's, in the gutter beside the person's.
 */
@injectable()
export class TheiaDebugPort implements DebugPort {
  @inject(DebugSessionManager) protected readonly manager!: DebugSessionManager;
  @inject(BreakpointManager) protected readonly breakpointManager!: BreakpointManager;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(TheiaSandbox) protected readonly sandbox!: TheiaSandbox;
  private readonly live = new Map<string, TheiaDebugSession>();
  private readonly listeners = new Set<() => void>();
  private count = 0;

  sandboxed(): Promise<boolean> {
    return this.sandbox.enabled();
  }

  get root(): string {
    return this.ids.rootPath;
  }

  /** Which debugger a running program takes, once something is there; the backend knows (BridgeContribution sets this). */
  attachLanguage: (
    target: { pid?: number; port?: number },
    language?: DebugLanguageName,
  ) => Promise<{ language: DebugLanguageName } | { code: ErrorCode; message: string }> = async () => ({
    code: 'BRIDGE_UNAVAILABLE',
    message: 'The window is not connected to its backend yet; retry in a moment.',
  });

  /** What a launch runs, read beside the files (BridgeContribution sets this). */
  launchTarget: (launch: DebugLaunch, root: string) => Promise<LaunchTarget | { code: ErrorCode; message: string }> = async () => ({
    code: 'BRIDGE_UNAVAILABLE',
    message: 'The window is not connected to its backend yet; retry in a moment.',
  });

  async start(launch: DebugLaunch): Promise<DebugSessionHandle> {
    const target = await this.launchTarget(launch, this.root);
    if ('code' in target) throw new ToolError(target.code, target.message);
    const name = launch.command ?? launch.program ?? '';
    const sandboxed = await this.sandboxed();
    return this.open(name, (id) => ({
      type: OPENSPACE_DEBUG_TYPES[target.language].type,
      request: 'launch',
      name: `${name} (agent)`,
      program: target.program,
      ...(target.module !== undefined && { module: target.module }),
      args: target.args,
      runtimeArgs: target.runtimeArgs,
      cwd: this.ids.uriOf(launch.cwd).path.fsPath(),
      stopOnEntry: launch.stopOnEntry,
      openspaceSession: id,
      ...(sandboxed && { openspaceSandbox: this.sandbox.current() }),
    }));
  }

  async attach(target: DebugAttach): Promise<DebugSessionHandle> {
    const { target: running, name } = attachTarget(target);
    const found = await this.attachLanguage(running, target.language);
    if ('code' in found) throw new ToolError(found.code, found.message);
    const { language } = found;
    const refusal = attachRefusal(language, running);
    if (refusal) throw new ToolError('INVALID_ARGUMENT', refusal, { field: target.pid === undefined ? 'port' : 'pid' });
    // No sandbox: the program runs outside it, so its debugger must too (the person said yes to that).
    return this.open(
      name,
      (id) => ({
        type: OPENSPACE_DEBUG_TYPES[language].type,
        request: 'attach',
        name: `${name} (agent)`,
        ...running,
        program: '',
        cwd: this.root,
        openspaceSession: id,
      }),
      true,
    );
  }

  /** Start a Theia debug session of this configuration, followed from its creation. */
  private async open(name: string, configure: (id: string) => OpenSpaceDebugConfiguration, attached = false): Promise<DebugSessionHandle> {
    const id = `debug-${++this.count}`;
    const handle = new TheiaDebugSession(
      id,
      name,
      this.manager,
      () => {
        this.live.delete(id);
        this.notify();
      },
      attached,
    );
    handle.state.onChange(() => this.notify());
    const configuration = configure(id);
    const created = this.manager.onDidCreateDebugSession((session) => {
      if ((session.configuration as OpenSpaceDebugConfiguration).openspaceSession === id) handle.attach(session);
    });
    try {
      const session = await this.manager.start({
        name: configuration.name,
        configuration,
        workspaceFolderUri: this.ids.rootUri?.toString(),
      });
      if (!session || typeof session === 'boolean') throw new ToolError('DEBUG_FAILED', `Theia could not start the debugger for ${name}.`);
    } finally {
      created.dispose();
    }
    if (!handle.session) throw new ToolError('DEBUG_FAILED', `Theia started no debug session for ${name}.`);
    // Theia launches or attaches after answering; a refusal ends the session (and shows why in a notification).
    const session = handle.session;
    const started = await new Promise<boolean | undefined>((resolve) => {
      const done = (outcome: boolean | undefined) => (ok.dispose(), gone.dispose(), clearTimeout(timer), resolve(outcome));
      const ok = this.manager.onDidStartDebugSession((s) => s === session && done(true));
      const gone = session.onDispose(() => done(false));
      const timer = setTimeout(() => done(undefined), START_WAIT_MS);
    });
    if (started === undefined) {
      await handle.stop();
      throw new ToolError('DEBUG_FAILED', `The debugger did not start ${name} within ${START_WAIT_MS / 1000} s.`);
    }
    if (!started) {
      const how = attached ? 'attach to' : 'start';
      throw new ToolError('DEBUG_FAILED', `The debugger could not ${how} ${name}: Theia's notification and Debug Console say why.`);
    }
    this.live.set(id, handle);
    this.notify();
    handle.session.onDispose(() => {
      // An exited session stays for its exit code until debug.stop; a session Theia dropped without an exit goes.
      if (handle.state.exitCode === undefined && this.live.delete(id)) this.notify();
    });
    if (handle.state.status === 'starting') handle.state.resumed();
    return handle;
  }

  onChanged(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  session(id: string): DebugSessionHandle | undefined {
    return this.live.get(id);
  }

  sessions(): readonly DebugSessionHandle[] {
    return [...this.live.values()];
  }

  breakpoints(): readonly BreakpointInfo[] {
    return this.breakpointManager.getBreakpoints().map((b) => this.info(b));
  }

  async setBreakpoint(spec: BreakpointSpec): Promise<BreakpointInfo> {
    const uri = this.ids.uriOf(spec.path);
    const added = this.breakpointManager.addBreakpoint(
      SourceBreakpoint.create(uri, {
        line: spec.line,
        ...(spec.condition && { condition: spec.condition }),
        ...(spec.hitCount !== undefined && { hitCondition: String(spec.hitCount) }),
        ...(spec.logMessage && { logMessage: spec.logMessage }),
      }),
    );
    if (this.manager.sessions.length > 0) await this.placed(added);
    return this.info(added);
  }

  async removeBreakpoints(ids: readonly string[]): Promise<void> {
    const uris = new Map(
      this.breakpointManager
        .getBreakpoints()
        .filter((b) => ids.includes(b.id))
        .map((b) => [b.uri.toString(), b.uri]),
    );
    this.breakpointManager.removeBreakpointsById([...ids]);
    // Theia tells its sessions after a step of its own; a continue right after must not meet the old ones.
    for (const uri of uris.values()) await this.resend(uri);
  }

  /** Send the file's breakpoints, as the BreakpointManager has them now, to every running session. */
  private async resend(uri: URI): Promise<void> {
    const breakpoints = this.breakpointManager
      .getBreakpoints(uri)
      .filter((b) => b.enabled)
      .map((b) => b.origin.raw);
    const source = { path: uri.path.fsPath(), name: uri.path.base };
    await Promise.all(
      this.manager.sessions.map((session) => session.sendRequest('setBreakpoints', { source, breakpoints }).catch(() => undefined)),
    );
  }

  /** Until a running session placed the breakpoint (verified or not), at most PLACED_WAIT_MS. */
  private placed(breakpoint: DebugSourceBreakpoint): Promise<void> {
    if (breakpoint.installed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
      const timer = setTimeout(done, PLACED_WAIT_MS);
      const listener = this.breakpointManager.onDidChangeBreakpoints(() => breakpoint.installed && done());
    });
  }

  private info(b: DebugSourceBreakpoint): BreakpointInfo {
    const raw = b.origin.raw;
    const hitCount = Number(raw.hitCondition);
    return {
      id: b.id,
      path: this.ids.pathOf(new URI(b.uri.toString())),
      line: b.line,
      requestedLine: raw.line,
      ...(raw.condition && { condition: raw.condition }),
      ...(Number.isInteger(hitCount) && hitCount > 0 && { hitCount }),
      ...(raw.logMessage && { logMessage: raw.logMessage }),
      verified: b.installed && b.verified,
      ...(b.installed && !b.verified && b.message && { message: b.message }),
    };
  }
}
