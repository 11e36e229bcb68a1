/**
 * A debug adapter for JavaScript and TypeScript on Node that runs inside OpenSpace's own process: the
 * client speaks the Debug Adapter Protocol to it, and it speaks the Chrome DevTools Protocol to the
 * program (`node --inspect-brk`) through the relay (./relay.ts), which runs beside the program in the
 * agent sandbox. TypeScript runs through tsx or as tsc's output; either way source maps turn V8's
 * generated places into the .ts files and lines the client knows.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants } from 'node:os';
import {
  BreakpointEvent,
  ContinuedEvent,
  DebugSession,
  Event,
  ExitedEvent,
  InitializedEvent,
  OutputEvent,
  TerminatedEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { Breakpoints } from './breakpoints.js';
import { CdpConnection, type CallFrame, type PausedEvent, type ScriptParsedEvent } from './cdp.js';
import { StopInspector } from './inspect.js';
import { SourceMaps } from './sourcemaps.js';
import { thrownMessage } from './values.js';
import { inspectorAt, inspectorOfProcess } from './attach.js';

export interface NodeDebugOptions {
  /**
   * Starts the relay with `argv` after its file: node options, the program, its arguments. The caller
   * runs `node --experimental-websocket <relay file> …argv` (wrapped in the sandbox where there is one).
   */
  startRelay(argv: string[], cwd: string): ChildProcess | Promise<ChildProcess>;
}

/** A running program to attach to: its inspector's port on 127.0.0.1, or its process ID. */
export interface NodeAttachArguments extends DebugProtocol.AttachRequestArguments {
  port?: number;
  pid?: number;
}

export interface NodeLaunchArguments extends DebugProtocol.LaunchRequestArguments {
  program: string;
  args?: string[];
  cwd: string;
  stopOnEntry?: boolean;
  runtimeArgs?: string[];
}

const THREAD_ID = 1;
/** How long the relay may take to reach the program's inspector. */
const READY_TIMEOUT_MS = 15_000;
const TYPESCRIPT = /\.[cm]?tsx?$/;
/** Node's own modules: steps pass through them and never stop inside. */
const BLACKBOXED = ['^node:'];
/**
 * A breakpoint at the top of every script outside node_modules, set while TypeScript breakpoints wait
 * for their code or the entry stop is due. CommonJS modules run at once after V8 parses them, and V8's
 * instrumentation pause does not fire for them (Node compiles them as functions), so this stop is the
 * one chance to place a module's breakpoints before its code runs.
 */
const LOAD_GUARD = { urlRegex: '^file://(?!.*/node_modules/)', lineNumber: 0, columnNumber: 0 };

type Resume = 'continue' | 'next' | 'stepIn' | 'stepOut' | 'pause';
const CDP_RESUME: Record<Resume, string> = {
  continue: 'Debugger.resume',
  next: 'Debugger.stepOver',
  stepIn: 'Debugger.stepInto',
  stepOut: 'Debugger.stepOut',
  pause: 'Debugger.pause',
};

interface ExceptionStop {
  id: string;
  description: string;
  breakMode: DebugProtocol.ExceptionBreakMode;
  stack: string | undefined;
}

/** tsx's loader for a TypeScript program, from the program's directory upward. */
export function findTsx(program: string): string | undefined {
  try {
    return createRequire(program).resolve('tsx');
  } catch {
    return undefined;
  }
}

export class NodeDebugSession extends DebugSession {
  private cdp: CdpConnection | undefined;
  private readonly maps = new SourceMaps();
  private readonly breakpoints = new Breakpoints(
    () => this.cdp,
    this.maps,
    (breakpoint) => this.sendEvent(new BreakpointEvent('changed', breakpoint)),
  );
  private program = '';
  private stopOnEntry = false;
  private entryReported = false;
  private guardId: string | undefined;
  /** Every load guard set: a guard lifted while V8 was already stopping on it still names that stop. */
  private readonly guardIds = new Set<string>();
  /** CDP events are handled one after another: a pause may wait on scripts parsed before it. */
  private events: Promise<void> = Promise.resolve();
  private paused: PausedEvent | undefined;
  private exception: ExceptionStop | undefined;
  /** The step or pause asked for, to name the stop it ends in. */
  private resuming: Resume | undefined;
  private readonly inspector = new StopInspector(() => this.connection(), this.maps);
  private ended = false;
  /** Attached to a program running on its own (debug.attach): letting go leaves it running. */
  private attached = false;

  constructor(private readonly options: NodeDebugOptions) {
    // Lines and columns here are 1-based; the base class converts for a client that counts from 0.
    super(true);
    this.setDebuggerPathFormat('path');
  }

  /** Runs in OpenSpace's process: the base class would end it with process.exit. */
  override shutdown(): void {
    this.cdp?.close();
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsSetVariable: true,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      exceptionBreakpointFilters: [
        { filter: 'uncaught', label: 'Uncaught Exceptions', default: true },
        { filter: 'all', label: 'All Exceptions', default: false },
      ],
    };
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: NodeLaunchArguments): void {
    void this.answer(response, async () => {
      if (!isAbsolute(args.program ?? '')) throw new Error(`The program must be an absolute path, not "${args.program}".`);
      if (!existsSync(args.program)) throw new Error(`There is no program at ${args.program}.`);
      this.program = args.program;
      this.stopOnEntry = args.stopOnEntry === true;
      const nodeOptions = [...(args.runtimeArgs ?? [])];
      if (TYPESCRIPT.test(args.program)) {
        const tsx = findTsx(args.program);
        if (!tsx)
          throw new Error(
            `${basename(args.program)} is TypeScript and no tsx is installed beside it: compile it, or add tsx (npm install --save-dev tsx).`,
          );
        nodeOptions.push('--import', pathToFileURL(tsx).href);
      }
      await this.connect(await this.options.startRelay([...nodeOptions, args.program, ...(args.args ?? [])], args.cwd));
      await this.cdp!.send('Debugger.setInstrumentationBreakpoint', { instrumentation: 'beforeScriptWithSourceMapExecution' });
      this.sendEvent(new InitializedEvent());
      return undefined;
    });
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse, args: NodeAttachArguments): void {
    void this.answer(response, async () => {
      this.attached = true;
      const url =
        args.pid !== undefined ? await inspectorOfProcess(args.pid) : args.port !== undefined ? await inspectorAt(args.port) : undefined;
      if (!url)
        throw new Error(args.port !== undefined ? `No Node inspector answers on 127.0.0.1:${args.port}.` : 'Attach needs a port or a pid.');
      await this.connect(await this.options.startRelay(['--attach', url], process.cwd()));
      this.sendEvent(new InitializedEvent());
      return undefined;
    });
  }

  /** Speak to the program's inspector through the relay, and turn on what the adapter follows. */
  private async connect(relay: ChildProcess): Promise<void> {
    this.cdp = new CdpConnection(relay, {
      event: (method, params) => this.queue(() => this.cdpEvent(method, params)),
      output: (category, text) => this.sendEvent(new OutputEvent(text, category)),
      exit: (code, signal) => this.queue(async () => this.exited(code, signal)),
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`The program's inspector did not answer within ${READY_TIMEOUT_MS / 1000} s.`)),
        READY_TIMEOUT_MS,
      );
    });
    await Promise.race([this.cdp.ready, timeout]).finally(() => clearTimeout(timer));
    await this.cdp.send('Runtime.enable');
    await this.cdp.send('Debugger.enable');
    await this.cdp.send('Debugger.setBlackboxPatterns', { patterns: BLACKBOXED });
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    void this.answer(response, async () => {
      await this.updateGuard();
      await this.connection().send('Runtime.runIfWaitingForDebugger');
      return undefined;
    });
  }

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    void this.answer(response, async () => {
      const path = args.source.path;
      if (!path) throw new Error('Breakpoints need a source path.');
      const requested = (args.breakpoints ?? []).map((b) => ({ ...b, line: this.convertClientLineToDebugger(b.line) }));
      const placed = await this.breakpoints.set(path, requested);
      if (this.cdp) await this.updateGuard();
      return { breakpoints: placed.map((b) => ({ ...b, line: this.convertDebuggerLineToClient(b.line!) })) };
    });
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    void this.answer(response, async () => {
      const state = args.filters.includes('all') ? 'all' : args.filters.includes('uncaught') ? 'uncaught' : 'none';
      await this.connection().send('Debugger.setPauseOnExceptions', { state });
      return undefined;
    });
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [{ id: THREAD_ID, name: 'main' }] };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    void this.answer(response, async () => (await this.resume('continue'), { allThreadsContinued: true }));
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    void this.answer(response, () => this.resume('next'));
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    void this.answer(response, () => this.resume('stepIn'));
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    void this.answer(response, () => this.resume('stepOut'));
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    void this.answer(response, () => this.resume('pause'));
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const callFrames = this.paused?.callFrames ?? [];
    const start = args.startFrame ?? 0;
    const frames = this.inspector.stackFrames(callFrames.slice(start, args.levels ? start + args.levels : undefined));
    response.body = {
      totalFrames: callFrames.length,
      stackFrames: frames.map((frame) => ({
        ...frame,
        line: this.convertDebuggerLineToClient(frame.line),
        column: this.convertDebuggerColumnToClient(frame.column),
      })),
    };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    response.body = { scopes: this.inspector.scopes(args.frameId) };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    void this.answer(response, async () => ({ variables: await this.inspector.variables(args.variablesReference) }));
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    void this.answer(response, async () => {
      const shown = await this.inspector.evaluate(args.expression, args.frameId, args.context === 'hover');
      return { result: shown.value, type: shown.type, variablesReference: shown.variablesReference };
    });
  }

  protected override setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): void {
    void this.answer(response, async () => {
      const top = this.paused?.callFrames[0];
      const shown = await this.inspector.setVariable(args.variablesReference, args.name, args.value, top);
      return { value: shown.value, type: shown.type, variablesReference: shown.variablesReference };
    });
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    void this.answer(response, async () => {
      if (!this.exception) throw new Error('The program is not stopped on an exception.');
      const { id, description, breakMode, stack } = this.exception;
      return { exceptionId: id, description, breakMode, details: { message: description, typeName: id, stackTrace: stack } };
    });
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    void this.answer(response, () => this.letGo());
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    void this.answer(response, () => this.letGo());
  }

  /** A launched program ends with the session; an attached one goes on, its breakpoints gone and not paused. */
  private async letGo(): Promise<void> {
    const cdp = this.cdp;
    if (this.attached && cdp?.alive) await cdp.send('Debugger.disable').catch(() => {});
    cdp?.close();
  }

  private connection(): CdpConnection {
    if (!this.cdp?.alive) throw new Error('The program is not running.');
    return this.cdp;
  }

  /** Answers a request with what `work` returns, or with its error's message. */
  private async answer<R extends DebugProtocol.Response>(response: R, work: () => Promise<R['body'] | undefined | void>): Promise<void> {
    try {
      const body = await work();
      if (body) response.body = body;
    } catch (error) {
      response.success = false;
      response.message = error instanceof Error ? error.message : String(error);
    }
    this.sendResponse(response);
  }

  private queue(work: () => Promise<void>): void {
    this.events = this.events.then(work).catch((error: unknown) => {
      if (!this.cdp?.alive) return;
      this.sendEvent(new OutputEvent(`Node debugger: ${error instanceof Error ? error.message : String(error)}\n`, 'console'));
    });
  }

  private async cdpEvent(method: string, params: unknown): Promise<void> {
    if (method === 'Debugger.scriptParsed') {
      const script = this.maps.add(params as ScriptParsedEvent);
      await this.breakpoints.placeIn(script);
      await this.updateGuard();
    } else if (method === 'Debugger.breakpointResolved') {
      const { breakpointId, location } = params as { breakpointId: string; location: CallFrame['location'] };
      this.breakpoints.resolved(breakpointId, location);
    } else if (method === 'Debugger.paused') await this.pausedAt(params as PausedEvent);
    else if (method === 'Debugger.resumed') this.forgetStop();
  }

  /** Sets the load guard while it is needed, and lifts it after. */
  private async updateGuard(): Promise<void> {
    const cdp = this.cdp;
    if (!cdp?.alive) return;
    const needed = this.breakpoints.waiting || (this.stopOnEntry && !this.entryReported);
    if (needed && !this.guardId) {
      this.guardId = 'pending';
      const { breakpointId } = await cdp.send<{ breakpointId: string }>('Debugger.setBreakpointByUrl', LOAD_GUARD);
      this.guardId = breakpointId;
      this.guardIds.add(breakpointId);
    } else if (!needed && this.guardId && this.guardId !== 'pending') {
      const id = this.guardId;
      this.guardId = undefined;
      await cdp.send('Debugger.removeBreakpoint', { breakpointId: id }).catch(() => {});
    }
  }

  private async pausedAt(event: PausedEvent): Promise<void> {
    const cdp = this.connection();
    const hitIds = (event.hitBreakpoints ?? []).filter((id) => !this.guardIds.has(id));
    const top = event.callFrames[0];
    const inProgram = top !== undefined && this.maps.script(top.location.scriptId)?.path === this.program;
    const loadStop =
      event.reason === 'instrumentation' ||
      event.reason === 'Break on start' ||
      (hitIds.length === 0 && (event.hitBreakpoints ?? []).length > 0);
    if (loadStop && this.stopOnEntry && !this.entryReported && inProgram) {
      this.entryReported = true;
      await this.updateGuard();
      return this.stopped(event, 'entry');
    }
    if (loadStop) {
      // A module's first line on the way into a step over or out: go on out of it, as the step meant.
      if (this.resuming === 'next' || this.resuming === 'stepOut') await cdp.send('Debugger.stepOut');
      else if (this.resuming === 'stepIn') return this.stopped(event, 'step');
      else await cdp.send('Debugger.resume');
      return;
    }
    const hits = hitIds.map((id) => this.breakpoints.find(id)).filter((b) => b !== undefined);
    const exception = event.reason === 'exception' || event.reason === 'promiseRejection';
    const stopsForHit = !exception && hits.map((b) => this.breakpoints.hit(b)).some(Boolean);
    if (!exception && hits.length > 0 && !stopsForHit && !this.resuming) {
      await cdp.send('Debugger.resume');
      return;
    }
    if (exception && event.data) {
      const thrown = event.data;
      const description = await thrownMessage(cdp, thrown);
      this.exception = {
        id: thrown.type === 'object' ? (thrown.className ?? 'Object') : thrown.type,
        description,
        breakMode: thrown.uncaught ? 'unhandled' : 'always',
        stack: thrown.subtype === 'error' ? thrown.description : undefined,
      };
      return this.stopped(event, 'exception', description);
    }
    if (stopsForHit) return this.stopped(event, 'breakpoint');
    if (this.resuming === 'pause' || !this.resuming) return this.stopped(event, this.resuming ? 'pause' : 'breakpoint');
    return this.stopped(event, 'step');
  }

  private stopped(event: PausedEvent, reason: string, description?: string): void {
    this.forgetStop();
    if (reason !== 'exception') this.exception = undefined;
    this.paused = event;
    this.resuming = undefined;
    const hitBreakpointIds = (event.hitBreakpoints ?? []).map((id) => this.breakpoints.find(id)?.id).filter((id) => id !== undefined);
    this.sendEvent(
      new Event('stopped', {
        reason,
        threadId: THREAD_ID,
        allThreadsStopped: true,
        ...(description !== undefined && { description, text: description }),
        ...(hitBreakpointIds.length > 0 && { hitBreakpointIds }),
      }),
    );
  }

  private forgetStop(): void {
    this.paused = undefined;
    this.inspector.reset();
  }

  private async resume(kind: Resume): Promise<void> {
    const cdp = this.connection();
    if (kind !== 'pause') {
      if (!this.paused) throw new Error('The program is not stopped.');
      this.forgetStop();
      this.exception = undefined;
      this.sendEvent(new ContinuedEvent(THREAD_ID, true));
    }
    this.resuming = kind === 'continue' ? undefined : kind;
    // A program that ends on resuming (after an uncaught exception) may never answer it.
    await cdp.send(CDP_RESUME[kind]).catch((error: unknown) => {
      if (cdp.alive) throw error;
    });
  }

  private exited(code: number | null | undefined, signal: string | null | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.forgetStop();
    if (code !== undefined || signal !== undefined) {
      const signalNumber = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
      this.sendEvent(new ExitedEvent(code ?? (signalNumber ? 128 + signalNumber : 1)));
    }
    this.sendEvent(new TerminatedEvent());
  }
}
