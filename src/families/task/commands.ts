import { ToolError } from '../../contract/index.js';
import { defineCommand } from '../../commands/command.js';
import { statePart } from '../../commands/ide-state.js';
import type { IdePort } from '../index.js';
import { openTerminal } from '../terminal/commands.js';
import { terminalRunCommand } from '../terminal/run.js';
import { terminalScreens } from '../terminal/output.js';
import { parseProblems } from './problems.js';
import { TASK_TIMEOUT_DEFAULT_MS, taskCancel, taskList, taskRun, taskTerminalTitle } from './tools.js';

/** The scripts of the workspace's package.json (none without one). */
async function scripts(ide: IdePort): Promise<Record<string, string>> {
  let text: string;
  try {
    text = (await ide.workspace.readText('package.json')).text;
  } catch (err) {
    if (err instanceof ToolError && err.code === 'FILE_NOT_FOUND') return {};
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ToolError('INVALID_FILE', `package.json is not valid JSON: ${err instanceof Error ? err.message : String(err)}`, {
      path: 'package.json',
    });
  }
  const found = (parsed as { scripts?: unknown })?.scripts;
  if (typeof found !== 'object' || found === null) return {};
  return Object.fromEntries(Object.entries(found).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** How long a script stopped with Ctrl-C has to end before the answer goes (its terminal is then free for the next run). */
const STOP_WAIT_MS = 5000;

/** Until the shell says the command ended (its shell-integration mark), at most STOP_WAIT_MS. */
async function ended(ide: IdePort, terminalId: string): Promise<void> {
  const screens = terminalScreens(ide);
  const deadline = Date.now() + STOP_WAIT_MS;
  while (screens.shell(terminalId).running && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The terminals of the tasks being stopped by task.cancel: their task.run answers cancelled. */
const cancelling = statePart(() => new Set<string>());

/** The terminal a task runs in now, if it does. */
const runningTask = (ide: IdePort, name: string) => ide.terminals.list().find((t) => t.title === taskTerminalTitle(name) && t.running);

export const taskListCommand = defineCommand(taskList, async (ide) => ({
  tasks: Object.entries(await scripts(ide)).map(([name, command]) => ({ name, command })),
}));

/**
 * A task is terminal work: `npm run` in a terminal of its own, through terminal.run (the same
 * sandbox, confirmations and output pipeline), so the person reads it as it runs.
 */
export const taskRunCommand = defineCommand(taskRun, async (ide, args, context) => {
  const all = await scripts(ide);
  const command = all[args.name];
  if (command === undefined) {
    const names = Object.keys(all);
    throw new ToolError(
      'TASK_NOT_FOUND',
      `package.json has no script "${args.name}"${names.length ? `; it has: ${names.join(', ')}` : ' (or there is no package.json)'}.`,
      { name: args.name },
    );
  }
  const existing = runningTask(ide, args.name);
  const terminal = existing ?? (await openTerminal(ide, { title: taskTerminalTitle(args.name), cwd: '' }));
  const stop = () => void ide.terminals.send(terminal.terminalId, '\u0003').catch(() => undefined);
  // The agent's client cancelled the call: the script stops as Ctrl-C stops it.
  // A Ctrl-C meant for an earlier command in this terminal (the person's) is not this run's.
  cancelling.of(ide).delete(terminal.terminalId);
  const aborted = () => (cancelling.of(ide).add(terminal.terminalId), stop());
  context?.signal?.addEventListener('abort', aborted, { once: true });
  let run;
  try {
    run = await terminalRunCommand.run(
      ide,
      { terminalId: terminal.terminalId, command: `npm run --silent ${args.name}`, timeoutMs: args.timeoutMs ?? TASK_TIMEOUT_DEFAULT_MS },
      context,
    );
  } finally {
    context?.signal?.removeEventListener('abort', aborted);
  }
  const cancelled = cancelling.of(ide).delete(terminal.terminalId);
  if (run.timedOut) {
    stop();
    await ended(ide, terminal.terminalId);
  }
  const output = run.partial === undefined ? run.output : [...run.output, run.partial];
  return {
    name: args.name,
    command,
    terminalId: terminal.terminalId,
    ...(run.exitCode !== undefined && !run.timedOut && { exitCode: run.exitCode }),
    durationMs: run.durationMs,
    timedOut: run.timedOut,
    problems: parseProblems(output, ide.workspace.rootPath() ?? ''),
    output,
    truncated: run.truncated,
    ...(!existing && { created: true as const }),
    ...(cancelled && { cancelled: true as const }),
  };
});

/** Ctrl-C in the task's terminal, as the person would stop it there; answers once the shell says it ended. */
export const taskCancelCommand = defineCommand(taskCancel, async (ide, args) => {
  const terminal = runningTask(ide, args.name);
  if (!terminal || !terminalScreens(ide).shell(terminal.terminalId).running) return { name: args.name, cancelled: false };
  cancelling.of(ide).add(terminal.terminalId);
  await ide.terminals.send(terminal.terminalId, '\u0003');
  await ended(ide, terminal.terminalId);
  return { name: args.name, cancelled: true };
});

export default [taskListCommand, taskRunCommand, taskCancelCommand];
