import { z } from 'zod';
import { defineTool } from '../../contract/tool.js';

/** How long task.run waits for the script when the agent does not say. */
export const TASK_TIMEOUT_DEFAULT_MS = 300_000;
export const TASK_TIMEOUT_MAX_MS = 1_800_000;
/** What a task's terminal is titled: the person finds its output there. */
export const taskTerminalTitle = (name: string) => `Task: ${name}`;

const ScriptName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s'"\\`$;&|<>()]+$/, 'a script name as package.json has it (no spaces or shell characters)');

export const TaskProblem = z.object({
  path: z.string().describe('Workspace-relative where the file is in the workspace'),
  line: z.number().int(),
  column: z.number().int().optional(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  source: z.enum(['tsc', 'eslint', 'compiler']).describe('Which matcher read it'),
  code: z.string().optional().describe('The error code or rule (TS2322, no-unused-vars)'),
});

export const taskList = defineTool({
  name: 'openspace.task.list',
  title: 'Tasks: List',
  description: "The workspace's tasks: the scripts of its package.json, with the command each runs.",
  input: z.strictObject({}),
  output: z.object({ tasks: z.array(z.object({ name: z.string(), command: z.string() })) }),
  budget: 'simple',
  effect: 'read-only',
});

export const taskRun = defineTool({
  name: 'openspace.task.run',
  title: 'Tasks: Run',
  description:
    'Run a package.json script (npm run <name>) in its own terminal, "Task: <name>", where the person can watch, and answer when it ends: ' +
    'exitCode, durationMs, the last output lines, and the problems found in them (tsc, ESLint, file:line:col compiler lines) with file:line. ' +
    'Runs in the agent sandbox like terminal.run, with its confirmations. At timeoutMs it is stopped (Ctrl-C) and timedOut says so. ' +
    'For tests, prefer openspace.test.run.',
  input: z.strictObject({
    name: ScriptName.describe('The script, as task.list names it'),
    timeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(TASK_TIMEOUT_MAX_MS)
      .optional()
      .describe(`The limit (default ${TASK_TIMEOUT_DEFAULT_MS / 1000} s)`),
  }),
  output: z.object({
    name: z.string(),
    command: z.string(),
    terminalId: z.string(),
    exitCode: z.number().int().optional().describe('Absent when it was stopped at the time limit'),
    durationMs: z.number(),
    timedOut: z.boolean(),
    problems: z.array(TaskProblem),
    output: z.array(z.string()).describe('Its last output lines, escape sequences removed, secrets redacted'),
    truncated: z.boolean().describe('Earlier lines are not in output (read them with terminal.read_output)'),
    created: z.literal(true).optional().describe("Set when the task's terminal was opened for this run"),
    cancelled: z.literal(true).optional().describe('Set when openspace.task.cancel (or the client cancelling this call) stopped it'),
  }),
  budget: 'complex',
  effect: 'destructive',
  waitsUpTo: (args) => (args.timeoutMs ?? TASK_TIMEOUT_DEFAULT_MS) + 15_000,
  session: { creates: (r) => (r.created ? [{ kind: 'terminal', id: r.terminalId }] : []) },
});

export const taskCancel = defineTool({
  name: 'openspace.task.cancel',
  title: 'Tasks: Cancel',
  description:
    'Stop a running task as a person would (Ctrl-C in its terminal) and answer once it ended; its openspace.task.run then answers with cancelled: true. cancelled is false when the task is not running.',
  input: z.strictObject({ name: ScriptName.describe('The task, as task.list names it') }),
  output: z.object({ name: z.string(), cancelled: z.boolean() }),
  budget: 'complex',
  effect: 'destructive',
  session: {},
});

export default [taskList, taskRun, taskCancel] as const;
