/**
 * The debug tools, written once over the IDE's debugger (DebugPort): every answer about where a
 * program is comes from the Debug Adapter Protocol requests an IDE's own debug views send too
 * (threads, stackTrace, scopes, variables), bounded and redacted like terminal output.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { z } from 'zod';
import { ToolError, type CallContext } from '../../contract/index.js';
import { defineCommand } from '../../commands/command.js';
import { confirmOutsideSandbox } from '../../commands/outside-sandbox.js';
import { redact } from '../../security/redact.js';
import { TerminalSanitizer } from '../../security/sanitize.js';
import type { IdePort } from '../index.js';
import type { DebugSessionHandle } from './port.js';
import {
  DEFAULT_DEBUG_WAIT_MS,
  MAX_FRAMES,
  MAX_VALUE_CHARS,
  MAX_VARIABLES,
  debugBreakpointList,
  debugBreakpointRemove,
  debugBreakpointSet,
  debugContinue,
  debugEvaluate,
  debugPause,
  debugRunTo,
  debugSetVariable,
  debugStack,
  debugStart,
  debugAttach,
  attachRefusal,
  debugStep,
  debugStop,
  debugVariables,
  debugWait,
  type DebugState,
  type Frame,
  type Variable,
} from './tools.js';

type State = z.output<typeof DebugState>;
type FrameInfo = z.output<typeof Frame>;
type VariableInfo = z.output<typeof Variable>;

/** Frames and locals a stop answers with; the rest is one debug.stack or debug.variables away. */
const SNAPSHOT_FRAMES = 5;

function session(ide: IdePort, id: string): DebugSessionHandle {
  const found = ide.debug.session(id);
  if (!found) {
    const live = ide.debug.sessions().map((s) => s.id);
    throw new ToolError(
      'DEBUG_SESSION_NOT_FOUND',
      `No debug session ${JSON.stringify(id)}${live.length ? `; running: ${live.join(', ')}` : '; none is running'}.`,
    );
  }
  return found;
}

function stoppedThread(handle: DebugSessionHandle): number {
  const { status, stopped } = handle.state;
  if (status === 'exited') throw new ToolError('DEBUG_NOT_STOPPED', `The program of ${handle.id} has exited.`);
  if (status !== 'stopped' || stopped?.threadId === undefined)
    throw new ToolError(
      'DEBUG_NOT_STOPPED',
      `The program of ${handle.id} is running: wait for it to stop (openspace.debug.wait) or pause it (openspace.debug.pause).`,
    );
  return stopped.threadId;
}

/** A debugger's text as an agent may read it: escape sequences removed, secrets redacted, bounded. */
function clean(text: string, max = MAX_VALUE_CHARS): string {
  const plain = redact(new TerminalSanitizer().write(text)).text;
  return plain.length > max ? `${plain.slice(0, max)}…` : plain;
}

function relative(ide: IdePort, path: string | undefined): string | undefined {
  if (!path) return undefined;
  const root = ide.debug.root.replace(/\/$/, '');
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

async function frames(ide: IdePort, handle: DebugSessionHandle, threadId: number, levels: number) {
  const body = await handle.request<DebugProtocol.StackTraceResponse>('stackTrace', { threadId, startFrame: 0, levels });
  const list: FrameInfo[] = body.stackFrames.map((f) => ({
    id: f.id,
    name: clean(f.name, 200),
    ...(f.source?.path && { path: relative(ide, f.source.path) }),
    line: f.line,
    ...(f.column > 0 && { column: f.column }),
  }));
  return { frames: list, total: body.totalFrames };
}

function variable(v: DebugProtocol.Variable): VariableInfo {
  return { name: v.name, value: clean(v.value), ...(v.type && { type: v.type }), expandable: v.variablesReference > 0 };
}

async function children(handle: DebugSessionHandle, reference: number): Promise<DebugProtocol.Variable[]> {
  const body = await handle.request<DebugProtocol.VariablesResponse>('variables', { variablesReference: reference });
  return body.variables;
}

async function scopes(handle: DebugSessionHandle, frameId: number): Promise<DebugProtocol.Scope[]> {
  return (await handle.request<DebugProtocol.ScopesResponse>('scopes', { frameId })).scopes;
}

async function topFrame(handle: DebugSessionHandle): Promise<number> {
  const threadId = stoppedThread(handle);
  const body = await handle.request<DebugProtocol.StackTraceResponse>('stackTrace', { threadId, startFrame: 0, levels: 1 });
  const top = body.stackFrames[0];
  if (!top) throw new ToolError('DEBUG_NOT_STOPPED', `The stopped thread of ${handle.id} has no frames.`);
  return top.id;
}

/** The program's state as the tools answer it: where it stopped with the top frames and locals, or that it runs or exited. */
async function snapshot(ide: IdePort, handle: DebugSessionHandle): Promise<State> {
  const { status, stopped, exitCode } = handle.state;
  const state: State = { sessionId: handle.id, status: status === 'starting' ? 'running' : status, output: '' };
  if (status === 'stopped' && stopped?.threadId !== undefined) {
    const top = await frames(ide, handle, stopped.threadId, SNAPSHOT_FRAMES);
    const first = top.frames[0];
    const locals = first ? await frameLocals(handle, first.id) : [];
    const description = stopped.reason === 'exception' ? await exception(handle, stopped.threadId) : undefined;
    state.stop = {
      reason: stopped.reason,
      ...((description ?? stopped.text ?? stopped.description) && {
        description: clean(description ?? stopped.text ?? stopped.description ?? ''),
      }),
      threadId: stopped.threadId,
      frames: top.frames,
      locals,
    };
  }
  if (status === 'exited' && exitCode !== undefined) state.exitCode = exitCode;
  await handle.state.outputArrived();
  const printed = handle.state.takeOutput();
  state.output = clean(printed.text, Number.MAX_SAFE_INTEGER);
  if (printed.truncated) state.outputTruncated = true;
  return state;
}

/** "TypeError: can't multiply sequence by non-int of type 'float'", where the adapter tells (exceptionInfo). */
async function exception(handle: DebugSessionHandle, threadId: number): Promise<string | undefined> {
  try {
    const info = await handle.request<DebugProtocol.ExceptionInfoResponse>('exceptionInfo', { threadId });
    return info.description ? `${info.exceptionId}: ${info.description}` : info.exceptionId;
  } catch {
    return undefined;
  }
}

async function frameLocals(handle: DebugSessionHandle, frameId: number): Promise<VariableInfo[]> {
  const first = (await scopes(handle, frameId))[0];
  if (!first) return [];
  return (await children(handle, first.variablesReference)).slice(0, MAX_VARIABLES).map(variable);
}

/** "cart[1].qty" → ["cart", "1", "qty"]; "self.items" → ["self", "items"]. */
export function pathSegments(path: string): string[] {
  const segments: string[] = [];
  for (const match of path.matchAll(/\[\s*(?:"([^"]*)"|'([^']*)'|([^\]]*?))\s*\]|([^.[\]]+)/g))
    segments.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
  return segments.filter((s) => s !== '');
}

/** The child named `segment`: as written, or as debuggers name elements ("[1]" for 1). */
function child(list: DebugProtocol.Variable[], segment: string): DebugProtocol.Variable | undefined {
  return list.find((v) => v.name === segment) ?? list.find((v) => v.name === `[${segment}]` || v.name === `'${segment}'`);
}

/** Walk a path from a frame's scopes (`scope`, or each in turn): the variable it names and the container that holds it. */
async function walk(handle: DebugSessionHandle, all: DebugProtocol.Scope[], path: string, scope?: string) {
  const [first, ...rest] = pathSegments(path);
  if (first === undefined) throw new ToolError('INVALID_ARGUMENT', `The path ${JSON.stringify(path)} names nothing.`, { field: 'path' });
  let parent = 0;
  let found: DebugProtocol.Variable | undefined;
  for (const s of scope ? all.filter((s) => s.name.toLowerCase() === scope.toLowerCase()) : all) {
    found = child(await children(handle, s.variablesReference), first);
    if (found) {
      parent = s.variablesReference;
      break;
    }
  }
  for (const segment of rest) {
    if (!found?.variablesReference) {
      found = undefined;
      break;
    }
    parent = found.variablesReference;
    found = child(await children(handle, parent), segment);
  }
  if (!found) throw new ToolError('VARIABLE_NOT_FOUND', `No variable at ${JSON.stringify(path)}; openspace.debug.variables lists them.`);
  return { variable: found, parent };
}

/** Resume the program (continue or a step) and answer where it stops next. */
async function resume(ide: IdePort, handle: DebugSessionHandle, command: string, waitMs: number | undefined, context?: CallContext) {
  const threadId = stoppedThread(handle);
  const stop = handle.state.stopped;
  handle.state.resumed();
  try {
    await handle.request(command, { threadId });
  } catch (error) {
    handle.state.event('stopped', stop); // it did not move
    throw new ToolError('DEBUG_FAILED', `The debugger refused ${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await handle.state.settle(waitMs ?? DEFAULT_DEBUG_WAIT_MS, context?.signal);
  return snapshot(ide, handle);
}

export const debugStartCommand = defineCommand(debugStart, async (ide, args, context) => {
  if ((args.program === undefined) === (args.command === undefined))
    throw new ToolError('INVALID_ARGUMENT', 'Pass program or command (one of them): the file to debug, or the command line that runs it.', {
      field: 'program',
    });
  if (args.command !== undefined && args.args !== undefined)
    throw new ToolError('INVALID_ARGUMENT', 'A command carries its own arguments: put them in the command line, not in args.', {
      field: 'args',
    });
  const program = args.program === undefined ? undefined : await ide.workspace.resolve(args.program);
  if (program !== undefined) await ide.workspace.stat(program); // FILE_NOT_FOUND before anything starts
  const cwd = args.cwd === undefined ? '' : await ide.workspace.resolve(args.cwd);
  await confirmOutsideSandbox(ide.security, await ide.debug.sandboxed(), context, {
    title: 'Debug a program outside a sandbox?',
    message: `The agent wants to run ${program ?? `\`${args.command}\``} under the debugger. There is no sandbox here (bubblewrap is missing or turned off), so it runs with your rights.`,
    accept: 'Run',
  });
  const handle = await ide.debug.start({
    language: args.language,
    program,
    command: args.command,
    args: args.args ?? [],
    cwd,
    stopOnEntry: args.stopOnEntry ?? false,
  });
  await handle.state.settle(args.waitMs ?? DEFAULT_DEBUG_WAIT_MS, context?.signal);
  return snapshot(ide, handle);
});

export const debugAttachCommand = defineCommand(debugAttach, async (ide, args, context) => {
  if ((args.pid === undefined) === (args.port === undefined))
    throw new ToolError('INVALID_ARGUMENT', 'Pass pid or port (one of them): the process, or the port its debugger listens on.', {
      field: 'pid',
    });
  const refusal = args.language && attachRefusal(args.language, args);
  if (refusal) throw new ToolError('INVALID_ARGUMENT', refusal, { field: 'language' });
  const what = args.pid !== undefined ? `process ${args.pid}` : `the program listening on 127.0.0.1:${args.port}`;
  // Always asked: whatever the sandbox, the program runs outside it, and a debugger runs code in it.
  await confirmOutsideSandbox(ide.security, false, context, {
    title: 'Attach the debugger to a running program?',
    message: `The agent wants to attach the debugger to ${what}. It runs outside the sandbox: the agent could read its memory and run code in it, with its rights.`,
    accept: 'Attach',
  });
  const handle = await ide.debug.attach({ language: args.language, pid: args.pid, port: args.port });
  await handle.state.settle(args.waitMs ?? 0, context?.signal);
  return snapshot(ide, handle);
});

export const debugStopCommand = defineCommand(debugStop, async (ide, args) => {
  const handle = session(ide, args.sessionId);
  await handle.stop();
  return { sessionId: handle.id, ...(handle.state.exitCode !== undefined && { exitCode: handle.state.exitCode }) };
});

export const debugBreakpointSetCommand = defineCommand(debugBreakpointSet, async (ide, args) => {
  const path = await ide.workspace.resolve(args.path);
  return ide.debug.setBreakpoint({ ...args, path });
});

export const debugBreakpointRemoveCommand = defineCommand(debugBreakpointRemove, async (ide, args) => {
  if (args.id === undefined && args.path === undefined)
    throw new ToolError('INVALID_ARGUMENT', 'Pass id, or path (and line): which breakpoints to remove.', { field: 'id' });
  const path = args.path === undefined ? undefined : await ide.workspace.resolve(args.path);
  const ids = ide.debug
    .breakpoints()
    .filter(
      (b) =>
        (args.id === undefined || b.id === args.id) &&
        (path === undefined || b.path === path) &&
        (args.line === undefined || b.line === args.line || b.requestedLine === args.line),
    )
    .map((b) => b.id);
  if (ids.length === 0 && args.id !== undefined)
    throw new ToolError('BREAKPOINT_NOT_FOUND', `No breakpoint ${JSON.stringify(args.id)}; openspace.debug.breakpoint.list lists them.`);
  await ide.debug.removeBreakpoints(ids);
  return { removed: ids };
});

export const debugBreakpointListCommand = defineCommand(debugBreakpointList, async (ide, args) => {
  const path = args.path === undefined ? undefined : await ide.workspace.resolve(args.path);
  return { breakpoints: ide.debug.breakpoints().filter((b) => path === undefined || b.path === path) };
});

export const debugContinueCommand = defineCommand(debugContinue, (ide, args, context) =>
  resume(ide, session(ide, args.sessionId), 'continue', args.waitMs, context),
);

const STEP_COMMANDS = { over: 'next', into: 'stepIn', out: 'stepOut' } as const;

export const debugStepCommand = defineCommand(debugStep, (ide, args, context) =>
  resume(ide, session(ide, args.sessionId), STEP_COMMANDS[args.kind], args.waitMs, context),
);

export const debugPauseCommand = defineCommand(debugPause, async (ide, args, context) => {
  const handle = session(ide, args.sessionId);
  if (handle.state.status === 'running') {
    const threads = await handle.request<DebugProtocol.ThreadsResponse>('threads');
    await handle.request('pause', { threadId: threads.threads[0]?.id ?? 0 });
    await handle.state.settle(DEFAULT_DEBUG_WAIT_MS, context?.signal);
  }
  return snapshot(ide, handle);
});

export const debugRunToCommand = defineCommand(debugRunTo, async (ide, args, context) => {
  const handle = session(ide, args.sessionId);
  stoppedThread(handle);
  const path = await ide.workspace.resolve(args.path);
  const already = ide.debug.breakpoints().some((b) => b.path === path && (b.line === args.line || b.requestedLine === args.line));
  const temporary = already ? undefined : await ide.debug.setBreakpoint({ path, line: args.line });
  try {
    return await resume(ide, handle, 'continue', args.waitMs, context);
  } finally {
    if (temporary) await ide.debug.removeBreakpoints([temporary.id]);
  }
});

export const debugWaitCommand = defineCommand(debugWait, async (ide, args, context) => {
  const handle = session(ide, args.sessionId);
  await handle.state.settle(args.waitMs ?? DEFAULT_DEBUG_WAIT_MS, context?.signal);
  return snapshot(ide, handle);
});

export const debugStackCommand = defineCommand(debugStack, async (ide, args) => {
  const handle = session(ide, args.sessionId);
  const threadId = args.threadId ?? stoppedThread(handle);
  if (args.threadId !== undefined) stoppedThread(handle); // any thread's stack needs the program stopped
  const { frames: list, total } = await frames(ide, handle, threadId, MAX_FRAMES);
  return { threadId, frames: list, ...(total !== undefined && total > list.length && { more: true }) };
});

export const debugVariablesCommand = defineCommand(debugVariables, async (ide, args) => {
  const handle = session(ide, args.sessionId);
  const frameId = args.frameId ?? (await topFrame(handle));
  const all = await scopes(handle, frameId);
  let list: DebugProtocol.Variable[];
  if (args.path !== undefined) {
    const { variable: found } = await walk(handle, all, args.path, args.scope);
    list = found.variablesReference > 0 ? await children(handle, found.variablesReference) : [found];
  } else {
    const scope = args.scope ? all.find((s) => s.name.toLowerCase() === args.scope!.toLowerCase()) : all[0];
    if (!scope)
      throw new ToolError(
        'VARIABLE_NOT_FOUND',
        `No scope ${JSON.stringify(args.scope)} in frame ${frameId}; there are: ${all.map((s) => s.name).join(', ')}.`,
      );
    list = await children(handle, scope.variablesReference);
  }
  return {
    scopes: all.map((s) => s.name),
    variables: list.slice(0, MAX_VARIABLES).map(variable),
    ...(list.length > MAX_VARIABLES && { more: true }),
  };
});

export const debugEvaluateCommand = defineCommand(debugEvaluate, async (ide, args) => {
  const handle = session(ide, args.sessionId);
  const frameId = args.frameId ?? (await topFrame(handle));
  try {
    const body = await handle.request<DebugProtocol.EvaluateResponse>('evaluate', {
      expression: args.expression,
      frameId,
      context: 'repl',
    });
    return { value: clean(body.result), ...(body.type && { type: body.type }), expandable: body.variablesReference > 0 };
  } catch (error) {
    throw new ToolError('DEBUG_FAILED', `The expression failed: ${clean(error instanceof Error ? error.message : String(error))}`);
  }
});

export const debugSetVariableCommand = defineCommand(debugSetVariable, async (ide, args) => {
  const handle = session(ide, args.sessionId);
  const frameId = args.frameId ?? (await topFrame(handle));
  const { variable: found, parent } = await walk(handle, await scopes(handle, frameId), args.path);
  try {
    const body = await handle.request<DebugProtocol.SetVariableResponse>('setVariable', {
      variablesReference: parent,
      name: found.name,
      value: args.value,
    });
    return { value: clean(body.value), ...(body.type && { type: body.type }) };
  } catch (error) {
    throw new ToolError('DEBUG_FAILED', `The debugger refused the value: ${clean(error instanceof Error ? error.message : String(error))}`);
  }
});

export default [
  debugStartCommand,
  debugAttachCommand,
  debugStopCommand,
  debugBreakpointSetCommand,
  debugBreakpointRemoveCommand,
  debugBreakpointListCommand,
  debugContinueCommand,
  debugPauseCommand,
  debugStepCommand,
  debugRunToCommand,
  debugWaitCommand,
  debugStackCommand,
  debugVariablesCommand,
  debugEvaluateCommand,
  debugSetVariableCommand,
];
