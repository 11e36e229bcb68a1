import { z } from 'zod';
import { Line, WorkspacePath } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

/** How long a control tool waits for the program to stop when the agent does not say. */
export const DEFAULT_DEBUG_WAIT_MS = 10_000;
export const MAX_DEBUG_WAIT_MS = 300_000;
/** The most frames, variables and characters of a value one answer shows. */
export const MAX_FRAMES = 50;
export const MAX_VARIABLES = 100;
export const MAX_VALUE_CHARS = 500;
/** The most output one answer carries (the end of it is kept). */
export const MAX_OUTPUT_CHARS = 8000;

export const DebugLanguage = z
  .enum(['python', 'c', 'node'])
  .describe('python (debugpy), c (C, C++ or Rust through LLDB), node (JavaScript on Node)');

const SessionId = z.string().min(1).max(100).describe('The debug session, as openspace.debug.start answered it');
const Wait = z
  .number()
  .int()
  .min(0)
  .max(MAX_DEBUG_WAIT_MS)
  .optional()
  .describe(`How long to wait for the program to stop or exit (default ${DEFAULT_DEBUG_WAIT_MS / 1000} s; 0: do not wait)`);

export const Frame = z.object({
  id: z.number().int().describe('Pass as frameId to variables and evaluate'),
  name: z.string().describe('The function'),
  path: z.string().optional().describe('Workspace-relative when inside the workspace, else absolute'),
  line: z.number().int(),
  column: z.number().int().optional(),
});

export const Variable = z.object({
  name: z.string(),
  value: z.string().describe(`As the debugger shows it (at most ${MAX_VALUE_CHARS} characters, secrets redacted)`),
  type: z.string().optional(),
  expandable: z.boolean().describe('Has children: read them with openspace.debug.variables and its name in path'),
});

/** Where a program is, as every control tool and debug.wait answer it. */
export const DebugState = z.object({
  sessionId: z.string(),
  status: z
    .enum(['stopped', 'running', 'exited'])
    .describe('stopped: paused at a breakpoint, a step, an exception or a pause; running: it did not stop within the wait'),
  stop: z
    .object({
      reason: z.string().describe('breakpoint, step, exception, pause, entry, goto …'),
      description: z.string().optional().describe('The exception or what the debugger said'),
      threadId: z.number().int(),
      frames: z.array(Frame).describe('The top of the stack, innermost first'),
      locals: z.array(Variable).describe("The top frame's local variables"),
    })
    .optional(),
  exitCode: z.number().int().optional(),
  output: z.string().describe('What the program printed since the previous answer about this session (sanitized, secrets redacted)'),
  outputTruncated: z.boolean().optional().describe(`More was printed; the last ${MAX_OUTPUT_CHARS} characters are shown`),
});

export const Breakpoint = z.object({
  id: z.string(),
  path: z.string(),
  line: z.number().int().describe('The line the debugger put it on (it may move a breakpoint to the next line with code)'),
  requestedLine: z.number().int(),
  condition: z.string().optional(),
  hitCount: z.number().int().optional(),
  logMessage: z.string().optional(),
  verified: z.boolean().describe('A running debugger accepted it; false before any session, or where no code is'),
  message: z.string().optional().describe('Why it is not verified, when the debugger says'),
});

export const debugStart = defineTool({
  name: 'openspace.debug.start',
  title: 'Debug: Start',
  description:
    "Run a program under a debugger (Python through debugpy, JavaScript and TypeScript through Node's inspector, C/C++/Rust through LLDB), " +
    'in the agent sandbox like a terminal command: a program file, or the command line that runs it (`pytest tests/test_cart.py -k total`, ' +
    '`python3 -m app`, `node --enable-source-maps dist/main.js`, `npx tsx src/cli.ts`, `./build/app in.txt`). ' +
    "Breakpoints set before (openspace.debug.breakpoint.set) apply. Answers the program's state once it stops (a breakpoint, or its first line " +
    'with stopOnEntry), exits, or waitMs passes. Several sessions may run at once; each has its own sessionId.',
  input: z.strictObject({
    program: WorkspacePath.optional().describe('The script (.py, .js, .ts) or executable to debug; or pass command'),
    command: z
      .string()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Instead of program: one command line, as typed in a terminal but run without a shell (no pipes, redirections or $VARS)'),
    args: z.array(z.string().max(10_000)).max(100).optional().describe("The program's arguments (a command carries its own)"),
    cwd: WorkspacePath.optional().describe('Default: the workspace root'),
    language: DebugLanguage.optional().describe('Default: from the program (.py: python; .js, .ts: node; an executable: c) or the command'),
    stopOnEntry: z.boolean().optional(),
    waitMs: Wait,
  }),
  output: DebugState,
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => (args.waitMs ?? DEFAULT_DEBUG_WAIT_MS) + 15_000,
  session: { creates: (r) => [{ kind: 'debug', id: r.sessionId }] },
});

/** A running program to attach to: its process ID, or the port its debugger listens on at 127.0.0.1. */
export type AttachTarget = { pid: number; port?: undefined } | { port: number; pid?: undefined };

/** The target an attach names (its pid when it names one), and how the person sees it. */
export function attachTarget(input: { pid?: number; port?: number }): { target: AttachTarget; name: string } {
  return input.pid !== undefined
    ? { target: { pid: input.pid }, name: `process ${input.pid}` }
    : { target: { port: input.port! }, name: `127.0.0.1:${input.port}` };
}

/** Why a debugger cannot attach to a target that way (debugpy listens on a port; LLDB attaches to a process), or undefined. */
export function attachRefusal(language: z.output<typeof DebugLanguage>, target: { pid?: number; port?: number }): string | undefined {
  if (language === 'python' && target.port === undefined)
    return 'debugpy attaches by port: start the program with `python3 -m debugpy --listen 127.0.0.1:<port> <program>`, then attach with that port.';
  if (language === 'c' && target.pid === undefined) return 'LLDB attaches to a process by its pid, not by a port.';
  return undefined;
}

export const debugAttach = defineTool({
  name: 'openspace.debug.attach',
  title: 'Debug: Attach',
  description:
    'Attach the debugger to a program already running on this machine: a Node process by pid (its inspector is turned on if it is off) ' +
    'or by the port of its inspector (node --inspect), a Python one by the port debugpy listens on (python3 -m debugpy --listen 127.0.0.1:PORT), ' +
    'a C/C++ one by pid (LLDB). The program runs outside the sandbox, so the person is asked first. Breakpoints apply as in a started session; ' +
    'answers at once with the program running (waitMs to wait for a stop). debug.stop lets go of it and leaves it running.',
  input: z.strictObject({
    pid: z.number().int().min(1).optional().describe('The process to attach to'),
    port: z.number().int().min(1).max(65_535).optional().describe('The port its debugger listens on, at 127.0.0.1'),
    language: DebugLanguage.optional().describe(
      "Default: from the process's program (pid), or node when a Node inspector answers on the port, else python",
    ),
    waitMs: Wait.describe('How long to wait for the program to stop (default 0: answer at once)'),
  }),
  output: DebugState,
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => (args.waitMs ?? 0) + 15_000,
  session: { creates: (r) => [{ kind: 'debug', id: r.sessionId }] },
});

export const debugStop = defineTool({
  name: 'openspace.debug.stop',
  title: 'Debug: Stop',
  description: 'End a debug session and the program it runs (an attached program is let go of, and goes on running).',
  input: z.strictObject({ sessionId: SessionId }),
  output: z.object({ sessionId: z.string(), exitCode: z.number().int().optional() }),
  budget: 'complex',
  effect: 'write',
  idempotent: true,
  session: { releases: (r) => [{ kind: 'debug', id: r.sessionId }] },
});

export const debugBreakpointSet = defineTool({
  name: 'openspace.debug.breakpoint.set',
  title: 'Debug: Set Breakpoint',
  description:
    'Set a breakpoint at a line of a workspace file, for every debug session now and later. condition: stop only when this expression is true; ' +
    'hitCount: stop from that hit on; logMessage: print it (with {expression} parts) instead of stopping. Answers where the debugger put it.',
  input: z.strictObject({
    path: WorkspacePath,
    line: Line,
    condition: z.string().min(1).max(1000).optional(),
    hitCount: z.number().int().min(1).optional(),
    logMessage: z.string().min(1).max(1000).optional(),
  }),
  output: Breakpoint,
  budget: 'simple',
  effect: 'write',
  session: { creates: (r) => [{ kind: 'breakpoint', id: r.id }] },
});

export const debugBreakpointRemove = defineTool({
  name: 'openspace.debug.breakpoint.remove',
  title: 'Debug: Remove Breakpoint',
  description: 'Remove a breakpoint by its ID, or every breakpoint at path (and line).',
  input: z.strictObject({
    id: z.string().min(1).max(100).optional(),
    path: WorkspacePath.optional(),
    line: Line.optional(),
  }),
  output: z.object({ removed: z.array(z.string()) }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: { releases: (r) => r.removed.map((id) => ({ kind: 'breakpoint' as const, id })) },
});

export const debugBreakpointList = defineTool({
  name: 'openspace.debug.breakpoint.list',
  title: 'Debug: List Breakpoints',
  description: "The IDE's breakpoints (the person's too), with whether a debugger verified each and the line it chose.",
  input: z.strictObject({ path: WorkspacePath.optional() }),
  output: z.object({ breakpoints: z.array(Breakpoint) }),
  budget: 'simple',
  effect: 'read-only',
});

export const debugContinue = defineTool({
  name: 'openspace.debug.continue',
  title: 'Debug: Continue',
  description: 'Let a stopped program run on; answers its state when it stops again, exits, or waitMs passes.',
  input: z.strictObject({ sessionId: SessionId, waitMs: Wait }),
  output: DebugState,
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => (args.waitMs ?? DEFAULT_DEBUG_WAIT_MS) + 5000,
  session: {},
});
export const debugPause = defineTool({
  name: 'openspace.debug.pause',
  title: 'Debug: Pause',
  description: 'Stop a running program where it is; answers its state (the stack and locals where it paused).',
  input: z.strictObject({ sessionId: SessionId }),
  output: DebugState,
  budget: 'complex',
  effect: 'write',
  session: {},
});
export const debugStep = defineTool({
  name: 'openspace.debug.step',
  title: 'Debug: Step',
  description:
    'Step a stopped program: over (the next line), into (the call on this line), out (back to the caller). Answers where it stopped.',
  input: z.strictObject({ sessionId: SessionId, kind: z.enum(['over', 'into', 'out']).default('over'), waitMs: Wait }),
  output: DebugState,
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => (args.waitMs ?? DEFAULT_DEBUG_WAIT_MS) + 5000,
  session: {},
});
export const debugRunTo = defineTool({
  name: 'openspace.debug.run_to',
  title: 'Debug: Run to Line',
  description: 'Let a stopped program run until it reaches path:line (or an earlier breakpoint); answers where it stopped.',
  input: z.strictObject({ sessionId: SessionId, path: WorkspacePath, line: Line, waitMs: Wait }),
  output: DebugState,
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => (args.waitMs ?? DEFAULT_DEBUG_WAIT_MS) + 5000,
  session: {},
});

export const debugWait = defineTool({
  name: 'openspace.debug.wait',
  title: 'Debug: Wait',
  description:
    "A program's state: at once when it is stopped or has exited, else once it stops or exits, or 'running' after waitMs. " +
    "A stop answers the reason, the top frames, the top frame's locals and what it printed since the last answer.",
  input: z.strictObject({ sessionId: SessionId, waitMs: Wait }),
  output: DebugState,
  budget: 'complex',
  effect: 'read-only',
  waitsUpTo: (args) => (args.waitMs ?? DEFAULT_DEBUG_WAIT_MS) + 5000,
});

export const debugStack = defineTool({
  name: 'openspace.debug.stack',
  title: 'Debug: Call Stack',
  description: "A stopped program's call stack, innermost first (default: the thread that stopped).",
  input: z.strictObject({ sessionId: SessionId, threadId: z.number().int().optional() }),
  output: z.object({ threadId: z.number().int(), frames: z.array(Frame), more: z.boolean().optional() }),
  budget: 'complex',
  effect: 'read-only',
});

export const debugVariables = defineTool({
  name: 'openspace.debug.variables',
  title: 'Debug: Variables',
  description:
    "A stopped frame's variables (default: the top frame's locals), or a value's children by path: names from the previous answers " +
    'joined by dots or brackets ("cart[1].qty", "self.items"). Bounded; expandable says which have children.',
  input: z.strictObject({
    sessionId: SessionId,
    frameId: z.number().int().optional(),
    path: z.string().min(1).max(1000).optional(),
    scope: z.string().min(1).max(100).optional().describe('The scope to read (Locals, Globals, Registers …); default: the first'),
  }),
  output: z.object({ scopes: z.array(z.string()), variables: z.array(Variable), more: z.boolean().optional() }),
  budget: 'complex',
  effect: 'read-only',
});

export const debugEvaluate = defineTool({
  name: 'openspace.debug.evaluate',
  title: 'Debug: Evaluate',
  description:
    "Evaluate an expression in a stopped frame (default: the top frame) of the program's language. It may change the program's state.",
  input: z.strictObject({ sessionId: SessionId, expression: z.string().min(1).max(10_000), frameId: z.number().int().optional() }),
  output: z.object({ value: z.string(), type: z.string().optional(), expandable: z.boolean() }),
  budget: 'complex',
  effect: 'write',
  session: {},
});

export const debugSetVariable = defineTool({
  name: 'openspace.debug.set_variable',
  title: 'Debug: Set Variable',
  description:
    'Give a variable of a stopped frame (by path, as debug.variables takes it) a new value, written as an expression of the language.',
  input: z.strictObject({
    sessionId: SessionId,
    path: z.string().min(1).max(1000),
    value: z.string().min(1).max(10_000),
    frameId: z.number().int().optional(),
  }),
  output: z.object({ value: z.string(), type: z.string().optional() }),
  budget: 'complex',
  effect: 'write',
  session: {},
});

export default [
  debugStart,
  debugAttach,
  debugStop,
  debugBreakpointSet,
  debugBreakpointRemove,
  debugBreakpointList,
  debugContinue,
  debugPause,
  debugStep,
  debugRunTo,
  debugWait,
  debugStack,
  debugVariables,
  debugEvaluate,
  debugSetVariable,
] as const;
