/**
 * The IDE's debugger where OpenSpace runs the debug adapters itself (the simulated IDE): each session
 * a debug adapter (src/families/debug/adapters.ts) — a process in the agent sandbox, or Node's, in
 * this process, starting its program there — spoken to with the Debug Adapter Protocol
 * (@vscode/debugadapter-testsupport's ProtocolClient), and the breakpoints kept here and sent to
 * every session. Node only.
 */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { isAbsolute, join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { DebugSession } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ProtocolClient } from '@vscode/debugadapter-testsupport/lib/protocolClient.js';
import { ToolError } from '../../contract/index.js';
import { attachTarget } from './tools.js';
import type { Disposable } from '../../contract/port.js';
import { EXCHANGE_DIRECTORY_INSIDE } from '../../security/sandbox.js';
import { launchTarget } from './command-line.js';
import { adapterFor, attachLanguage, commandRunner, debuggerHooks, type Adapter, type DebugSandbox } from './adapters.js';
import type { BreakpointInfo, BreakpointSpec, DebugAttach, DebugLaunch, DebugPort, DebugSessionHandle } from './port.js';
import { DebugSessionState } from './state.js';

export type { DebugSandbox } from './adapters.js';

/** How long one request may take before the session counts as hung. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Ended sessions kept for their exit code, oldest forgotten first. */
const KEPT_ENDED = 20;
/** The events a session's state follows (ProtocolClient emits each by its name). */
const EVENTS = ['initialized', 'stopped', 'continued', 'exited', 'terminated', 'output', 'breakpoint'] as const;

class Client extends ProtocolClient {
  constructor(process: AdapterProcess) {
    super();
    this.connect(process.stdout!, process.stdin!);
  }
}

/** What a session speaks to: an adapter's process, or an adapter in this process made to look like one. */
type AdapterProcess = Pick<ChildProcess, 'stdin' | 'stdout' | 'stderr' | 'exitCode' | 'signalCode' | 'pid' | 'kill'> &
  Pick<EventEmitter, 'on' | 'once'>;

/** An adapter running in this process, behind a process's stdio; killing it ends it and what it started. */
class InProcess extends EventEmitter {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = null;
  readonly pid = undefined;
  exitCode: number | null = null;
  readonly signalCode = null;

  constructor(private readonly session: DebugSession) {
    super();
    session.setRunAsServer(true);
    session.start(this.stdin, this.stdout);
  }

  kill(): boolean {
    if (this.exitCode !== null) return false;
    this.exitCode = 0;
    this.session.dispose();
    this.stdin.end();
    this.emit('exit', 0, null);
    return true;
  }
}

/** An adapter already serving on a loopback port (debugpy inside a program started with --listen), behind a process's stdio. */
class ServedAdapter extends EventEmitter {
  readonly stdin: Socket;
  readonly stdout: Socket;
  readonly stderr = null;
  readonly pid = undefined;
  exitCode: number | null = null;
  readonly signalCode = null;

  constructor(port: number) {
    super();
    const socket = connect(port, '127.0.0.1');
    this.stdin = this.stdout = socket;
    socket.on('error', (error) => this.emit('error', error));
    socket.on('close', () => {
      this.exitCode = 0;
      this.emit('exit', 0, null);
    });
  }

  kill(): boolean {
    this.stdin.destroy();
    return true;
  }
}

interface Kept extends BreakpointInfo {
  /** Per session: the adapter's ID for it, to follow its `breakpoint` events. */
  adapterIds: Map<string, number>;
}

class AdapterSession implements DebugSessionHandle {
  readonly state = new DebugSessionState();
  private readonly closed: Promise<never>;
  private stderr = '';

  constructor(
    readonly id: string,
    readonly name: string,
    private readonly process: AdapterProcess,
    readonly client: Client,
    private readonly onStop: () => void,
    /** Attached to a program running on its own: stopping lets go of it. */
    private readonly attached = false,
  ) {
    process.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)));
    this.closed = new Promise<never>((_, reject) => {
      process.on('exit', () => {
        this.state.ended();
        reject(new ToolError('DEBUG_FAILED', `The debugger of ${id} ended${this.stderr ? `: ${this.stderr.trim()}` : ''}.`));
      });
      process.on('error', (error) => reject(new ToolError('NO_DEBUGGER', `The debugger would not start: ${error.message}`)));
    });
    this.closed.catch(() => {});
    for (const name of EVENTS) client.on(name, (event: DebugProtocol.Event) => this.state.event(name, event.body));
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async request<R extends DebugProtocol.Response>(command: string, args?: object): Promise<R['body']> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ToolError('DEBUG_FAILED', `The debugger did not answer ${command} within ${REQUEST_TIMEOUT_MS / 1000} s.`)),
        REQUEST_TIMEOUT_MS,
      );
    });
    try {
      const response = (await Promise.race([this.client.send(command, args), this.closed, timeout])) as R;
      return response.body;
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    if (this.alive) {
      const gone = new Promise((resolve) => this.process.once('exit', resolve));
      await Promise.race([this.request('disconnect', { terminateDebuggee: !this.attached }).catch(() => {}), gone, delay(2000)]);
      if (this.alive) killGroup(this.process, 'SIGTERM');
      if (!(await Promise.race([gone.then(() => true), delay(2000).then(() => false)]))) killGroup(this.process, 'SIGKILL');
    }
    this.state.ended();
    this.onStop();
  }
}

/** A kept breakpoint as the tools show it. */
function info(kept: Kept): BreakpointInfo {
  const { adapterIds, ...shown } = kept;
  void adapterIds;
  return shown;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function killGroup(child: AdapterProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

export class AdapterDebugger implements DebugPort {
  private readonly live = new Map<string, AdapterSession>();
  private readonly listeners = new Set<() => void>();
  private readonly kept = new Map<string, Kept>();
  private sessionCount = 0;
  private breakpointCount = 0;

  constructor(
    /** Where programs run: the workspace root (absolute) and the agent sandbox, undefined when there is none. */
    private readonly place: () => { root: string; sandbox: DebugSandbox | undefined },
  ) {}

  get root(): string {
    return this.place().root;
  }

  async sandboxed(): Promise<boolean> {
    return this.place().sandbox !== undefined;
  }

  async start(launch: DebugLaunch): Promise<DebugSessionHandle> {
    const target = await launchTarget(launch, this.root);
    const adapter = adapterFor(target.language);
    const cwd = this.absolute(launch.cwd);
    const { sandbox } = this.place();
    return this.open(adapter, launch.command ?? launch.program ?? '', { sandbox, cwd }, (hooks) => [
      'launch',
      adapter.launch(target, cwd, launch.stopOnEntry, hooks),
    ]);
  }

  async attach(target: DebugAttach): Promise<DebugSessionHandle> {
    const { target: running, name } = attachTarget(target);
    const adapter = adapterFor(await attachLanguage(running, target.language));
    const request = adapter.attach(running);
    // The program runs outside the sandbox, so its debugger must too (the person said yes to that).
    const server = adapter.attachServer?.(running);
    return this.open(adapter, name, { sandbox: undefined, cwd: this.root, attached: true, server }, () => ['attach', request]);
  }

  /** Start an adapter (in the sandbox, where there is one), launch or attach with it, and send it the breakpoints. */
  private async open(
    adapter: Adapter,
    name: string,
    where: { sandbox: DebugSandbox | undefined; cwd: string; attached?: boolean; server?: number },
    request: (hooks: string) => [command: 'launch' | 'attach', args: Record<string, unknown>],
  ): Promise<DebugSessionHandle> {
    const { sandbox, cwd } = where;
    const hooks = debuggerHooks();
    const run = commandRunner(sandbox, hooks.dir);
    const inside = sandbox ? EXCHANGE_DIRECTORY_INSIDE : hooks.dir;
    let child: AdapterProcess;
    try {
      child =
        where.server !== undefined
          ? new ServedAdapter(where.server)
          : 'argv' in adapter
            ? await run(adapter.argv, cwd)
            : new InProcess(adapter.create(run, { host: hooks.dir, inside }));
    } catch (error) {
      hooks.remove();
      throw error;
    }
    child.on('exit', () => hooks.remove());
    const id = `debug-${++this.sessionCount}`;
    const session = new AdapterSession(
      id,
      name,
      child,
      new Client(child),
      () => {
        this.live.delete(id);
        this.notify();
      },
      where.attached,
    );
    session.state.onChange(() => this.notify());
    session.client.on('breakpoint', (event: DebugProtocol.BreakpointEvent) => this.changed(id, event.body.breakpoint));
    this.live.set(id, session);
    this.forgetOld();
    const [command, args] = request(inside);
    try {
      const capabilities = await session.request<DebugProtocol.InitializeResponse>('initialize', {
        clientID: 'openspace',
        clientName: 'OpenSpace',
        adapterID: adapter.id,
        pathFormat: 'path',
        linesStartAt1: true,
        columnsStartAt1: true,
        supportsVariableType: true,
      });
      const initialized = new Promise<void>((resolve) => session.client.once('initialized', () => resolve()));
      const launched = session.request(command, args);
      launched.catch(() => {});
      await Promise.race([initialized, launched]);
      for (const path of new Set([...this.kept.values()].map((b) => b.path))) await this.send(session, path);
      // As Theia and VS Code do: the adapter's default exception filters (debugpy: uncaught and user-unhandled).
      const filters = capabilities?.exceptionBreakpointFilters?.filter((f) => f.default).map((f) => f.filter) ?? [];
      if (capabilities?.exceptionBreakpointFilters) await session.request('setExceptionBreakpoints', { filters });
      await session.request('configurationDone', {});
      await launched;
      // Running now, unless it already stopped (debugpy answers an attach after the first stop).
      if (session.state.status === 'starting') session.state.resumed();
    } catch (error) {
      await session.stop();
      if (error instanceof ToolError) throw error;
      const what = command === 'attach' ? `attach to ${name}` : `start ${name}`;
      throw new ToolError('DEBUG_FAILED', `The debugger could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return session;
  }

  session(id: string): DebugSessionHandle | undefined {
    return this.live.get(id);
  }

  onChanged(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  sessions(): readonly DebugSessionHandle[] {
    return [...this.live.values()];
  }

  breakpoints(): readonly BreakpointInfo[] {
    return [...this.kept.values()].map(info);
  }

  async setBreakpoint(spec: BreakpointSpec): Promise<BreakpointInfo> {
    const id = `bp-${++this.breakpointCount}`;
    const kept: Kept = { ...spec, id, requestedLine: spec.line, verified: false, adapterIds: new Map() };
    this.kept.set(id, kept);
    for (const session of this.running()) await this.send(session, spec.path);
    return info(kept);
  }

  async removeBreakpoints(ids: readonly string[]): Promise<void> {
    const paths = new Set(ids.map((id) => this.kept.get(id)?.path).filter((p) => p !== undefined));
    for (const id of ids) this.kept.delete(id);
    for (const path of paths) for (const session of this.running()) await this.send(session, path);
  }

  /** Stop every session (the IDE is closing). */
  async dispose(): Promise<void> {
    await Promise.all([...this.live.values()].map((s) => s.stop()));
    this.live.clear();
  }

  private running(): AdapterSession[] {
    return [...this.live.values()].filter((s) => s.alive && s.state.status !== 'exited');
  }

  /** Send one file's breakpoints to a session, and note how it placed them. */
  private async send(session: AdapterSession, path: string): Promise<void> {
    const inFile = [...this.kept.values()].filter((b) => b.path === path);
    const body = await session
      .request<DebugProtocol.SetBreakpointsResponse>('setBreakpoints', {
        source: { path: this.absolute(path), name: path.split('/').pop() },
        breakpoints: inFile.map((b) => ({
          line: b.requestedLine,
          ...(b.condition && { condition: b.condition }),
          ...(b.hitCount !== undefined && { hitCondition: String(b.hitCount) }),
          ...(b.logMessage && { logMessage: b.logMessage }),
        })),
      })
      .catch(() => undefined);
    for (const [i, b] of inFile.entries()) {
      const placed = body?.breakpoints[i];
      if (!placed) continue;
      if (placed.id !== undefined) b.adapterIds.set(session.id, placed.id);
      this.placeBreakpoint(b, placed);
    }
  }

  private changed(sessionId: string, placed: DebugProtocol.Breakpoint): void {
    for (const b of this.kept.values())
      if (placed.id !== undefined && b.adapterIds.get(sessionId) === placed.id) this.placeBreakpoint(b, placed);
  }

  private placeBreakpoint(b: Kept, placed: DebugProtocol.Breakpoint): void {
    b.verified = placed.verified;
    if (placed.line !== undefined) b.line = placed.line;
    if (placed.message) b.message = placed.message;
    else delete b.message;
  }

  private absolute(path: string): string {
    return isAbsolute(path) ? path : join(this.root, path);
  }

  private forgetOld(): void {
    const ended = [...this.live.values()].filter((s) => !s.alive || s.state.status === 'exited');
    for (const s of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED))) this.live.delete(s.id);
  }
}
