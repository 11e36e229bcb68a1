import type { DebugProtocol } from '@vscode/debugprotocol';
import type { z } from 'zod';
import type { Disposable } from '../../contract/port.js';
import type { Breakpoint, DebugLanguage } from './tools.js';

export type BreakpointInfo = z.output<typeof Breakpoint>;
export type DebugLanguageName = z.output<typeof DebugLanguage>;

/**
 * A program to debug, or the command line that runs it (src/families/debug/command-line.ts reads
 * it); paths workspace-relative, already checked by the path guard.
 */
export interface DebugLaunch {
  /** Default: from the program or the command. */
  language?: DebugLanguageName;
  program?: string;
  command?: string;
  /** The program's arguments (a command carries its own). */
  args: string[];
  cwd: string;
  stopOnEntry: boolean;
}

/** What a debugger launches: an absolute program (or, for Python, a module), its arguments, and the interpreter's options. */
export interface LaunchTarget {
  language: DebugLanguageName;
  /** Absolute; '' when `module` says what Python runs. */
  program: string;
  /** Python's `-m` module. */
  module?: string;
  args: string[];
  /** The interpreter's own options before the program (python3 -X dev …, node --enable-source-maps …). */
  runtimeArgs: string[];
}

/** A running program to debug (debug.attach): its process ID, or the port its debugger listens on at 127.0.0.1. */
export interface DebugAttach {
  /** Default: from the process's program, or from what answers on the port. */
  language?: DebugLanguageName;
  pid?: number;
  port?: number;
}

export interface BreakpointSpec {
  /** Workspace-relative. */
  path: string;
  line: number;
  condition?: string;
  hitCount?: number;
  logMessage?: string;
}

/**
 * What a session's program is doing, from its adapter's events (src/families/debug/state.ts keeps
 * it): running, stopped where and why, exited with what code, and what it printed.
 */
export interface DebugProgramState {
  readonly status: 'starting' | 'running' | 'stopped' | 'exited';
  readonly stopped: DebugProtocol.StoppedEvent['body'] | undefined;
  readonly exitCode: number | undefined;
  /** An event the adapter sent. */
  event(name: string, body: unknown): void;
  /** A continue or step is about to be sent (its stop may come before its answer). */
  resumed(): void;
  /** The adapter went away. */
  ended(): void;
  /** Resolves once the output printed before a stop has come (it can come after the stop); at once unless stopped. */
  outputArrived(): Promise<void>;
  /** What the program printed since the last call, the end of it kept. */
  takeOutput(): { text: string; truncated: boolean };
  /** Told of every change of status. */
  onChange(listener: () => void): () => void;
  /** Resolves once the program is stopped or has exited (at once if it is), after `ms`, or when `signal` aborts. */
  settle(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * One debug session: a debug adapter (debugpy, LLDB's) speaking the Debug Adapter Protocol, with the
 * program it runs. The IDE feeds `state` every event the adapter sends, from before the launch.
 */
export interface DebugSessionHandle {
  readonly id: string;
  /** What it debugs, for the person: the program's workspace path. */
  readonly name: string;
  readonly state: DebugProgramState;
  /** A DAP request; answers the response's body, or throws the adapter's message. */
  request<R extends DebugProtocol.Response>(command: string, args?: object): Promise<R['body']>;
  /** End the program and the adapter (an attached program: let go of it). */
  stop(): Promise<void>;
}

/**
 * The IDE's debugger: its sessions and its breakpoints (in Theia, the gutter's and the Breakpoints
 * view's). The simulated IDE runs the adapters itself (src/families/debug/service.ts); Theia through
 * its debug views.
 */
export interface DebugPort {
  /** Whether programs run in the agent sandbox; when not, an agent's start waits for the person's yes. */
  sandboxed(): Promise<boolean>;
  /** The workspace root as the adapters see it (absolute), to show workspace paths. */
  readonly root: string;
  /** Starts the adapter and launches the program; resolves once it runs (the breakpoints set). */
  start(launch: DebugLaunch): Promise<DebugSessionHandle>;
  /** Attaches a debugger to a running program, outside the sandbox; stopping the session leaves the program running. */
  attach(target: DebugAttach): Promise<DebugSessionHandle>;
  session(id: string): DebugSessionHandle | undefined;
  sessions(): readonly DebugSessionHandle[];
  breakpoints(): readonly BreakpointInfo[];
  /** Sets it in every session, answered as the first session verified it. */
  setBreakpoint(spec: BreakpointSpec): Promise<BreakpointInfo>;
  removeBreakpoints(ids: readonly string[]): Promise<void>;
  /** Told when a session starts, stops, runs or ends (the live state shows them). */
  onChanged(listener: () => void): Disposable;
}
