/**
 * openspace.terminal.run: type a command into a terminal whose shell reports where commands start
 * and end (shell integration, src/families/terminal/shell-integration.ts and shell-marks.ts), and answer when
 * it has ended, with its exit status and its own output lines as read_output gives them (the same
 * ring buffer: sanitized and redacted). Browser-safe.
 */
import { statePart } from '../../commands/ide-state.js';
import { AGENT_TERMINAL_TITLE, FIRST_PROMPT_WAIT_MS, RUN_OUTPUT_LINES, RUN_TIMEOUT_DEFAULT_MS, terminalRun } from './tools.js';
import { ToolError, type TerminalInfo } from '../../contract/index.js';
import type { IdePort } from '../index.js';
import { defineCommand } from '../../commands/command.js';
import { confirmUnlessSafe, heldText, openTerminal, resolveTerminal, terminalExited, typedAheadText } from './commands.js';
import { isRedacted, terminalScreens, type TerminalScreens } from './output.js';
import { requireReadable } from './access.js';

/** How often a wait looks whether the terminal's process is still there (marks wake it at once). */
const EXIT_POLL_MS = 100;

type Outcome = 'done' | 'exited' | 'timeout';

/** Per IDE, the terminals terminal.run has typed a command into that has not started yet. */
const starting = statePart(() => new Set<string>());

/** The terminal as the port lists it now; undefined once it is closed. */
function current(ide: IdePort, terminalId: string): TerminalInfo | undefined {
  return ide.terminals.list().find((t) => t.terminalId === terminalId);
}

/** Wait until done() holds (checked after every mark), the terminal's process ends, or timeoutMs pass. */
function waitUntil(ide: IdePort, screens: TerminalScreens, terminalId: string, done: () => boolean, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const check = () => {
      if (done()) finish('done');
      else if (!current(ide, terminalId)?.running) finish('exited');
    };
    const subscription = screens.onMark((id) => id === terminalId && check());
    const poll = setInterval(check, EXIT_POLL_MS);
    const timer = setTimeout(() => finish('timeout'), Math.max(0, timeoutMs));
    function finish(outcome: Outcome) {
      subscription.dispose();
      clearInterval(poll);
      clearTimeout(timer);
      resolve(outcome);
    }
    check();
  });
}

/**
 * The terminal named by terminalId, or the agent's terminal: a running one titled "agent" with shell
 * integration (a person's terminal of that title has none), opened when there is none.
 */
async function targetTerminal(
  ide: IdePort,
  screens: TerminalScreens,
  ref: string | undefined,
): Promise<{ terminal: TerminalInfo; created: boolean }> {
  if (ref !== undefined) return { terminal: resolveTerminal(ide, ref), created: false };
  const integrated = (id: string) => screens.shell(id).integration || screens.integrationSince(id) !== undefined;
  const agents = ide.terminals.list().filter((t) => t.title === AGENT_TERMINAL_TITLE && t.running && integrated(t.terminalId));
  const existing = agents.find((t) => t.terminalId === AGENT_TERMINAL_TITLE) ?? agents[0];
  if (existing) return { terminal: existing, created: false };
  return { terminal: await openTerminal(ide, { title: AGENT_TERMINAL_TITLE, cwd: '' }), created: true };
}

function unavailable(terminalId: string, why: string): ToolError {
  return new ToolError(
    'SHELL_INTEGRATION_UNAVAILABLE',
    `Terminal ${terminalId} ${why}, so terminal.run cannot tell when a command ends. Use terminal.send and ` +
      'terminal.read_output there, or terminal.run without terminalId (the agent terminal has it).',
  );
}

/** Wait for the first prompt of a terminal opened with shell integration; refuse one without. */
async function requireIntegration(ide: IdePort, screens: TerminalScreens, terminal: TerminalInfo): Promise<void> {
  const { terminalId } = terminal;
  if (screens.shell(terminalId).integration) return;
  const since = screens.integrationSince(terminalId);
  if (since === undefined) throw unavailable(terminalId, 'was not opened by OpenSpace and its shell reports no shell integration');
  const outcome = await waitUntil(
    ide,
    screens,
    terminalId,
    () => screens.shell(terminalId).integration,
    since + FIRST_PROMPT_WAIT_MS - Date.now(),
  );
  if (outcome === 'exited') throw terminalExited(current(ide, terminalId) ?? { ...terminal, running: false });
  if (outcome === 'timeout') {
    throw unavailable(
      terminalId,
      `showed no shell-integration marks within ${FIRST_PROMPT_WAIT_MS / 1000} s of opening (its shell is not bash, or the ` +
        "person's bashrc replaced PROMPT_COMMAND)",
    );
  }
}

/**
 * The last RUN_OUTPUT_LINES of the lines [start, end) followed by `last` (a finished command's
 * unfinished last line: `printf abc` printed no newline, yet "abc" is its output), and whether
 * earlier ones were left out (or evicted).
 */
export function commandLines(
  screens: Pick<TerminalScreens, 'read'>,
  terminalId: string,
  start: number,
  end: number,
  last = '',
): { lines: string[]; truncated: boolean } {
  const tail = last === '' ? [] : [last];
  if (end <= start) return { lines: tail, truncated: false };
  const since = Math.max(start, end - (RUN_OUTPUT_LINES - tail.length));
  const { lines } = screens.read(terminalId, { since, lines: end - since });
  return { lines: [...lines, ...tail], truncated: lines.length < end - start };
}

/** Refuse a terminal where a command runs, or where typed text waits for Enter. */
function assertIdle(ide: IdePort, screens: TerminalScreens, terminalId: string): void {
  const running = screens.shell(terminalId).running;
  if (running) {
    throw new ToolError(
      'TERMINAL_BUSY',
      `A command still runs in terminal ${terminalId} (for ${Math.round((Date.now() - running.startedAt) / 1000)} s): read it with ` +
        `terminal.read_output since ${running.startCursor}, stop it with terminal.send {text:"\\u0003", enter:false}, or run in another terminal.`,
      { startCursor: running.startCursor },
    );
  }
  if (heldText(ide, terminalId) !== '') {
    throw new ToolError(
      'TERMINAL_BUSY',
      `The shell in terminal ${terminalId} waits for the rest of a command (a line ending in \\, an unfinished here-document or quote): ` +
        'finish it with terminal.send, or drop it with terminal.send {text:"\\u0003", enter:false}.',
    );
  }
  if (typedAheadText(ide, terminalId) !== '') {
    throw new ToolError(
      'TERMINAL_BUSY',
      `Text typed into terminal ${terminalId} without Enter waits at its prompt: press Enter (terminal.send {text:"\\r", enter:false}) ` +
        'or clear it (terminal.send {text:"\\u0015", enter:false}) first.',
    );
  }
}

export const terminalRunCommand = defineCommand(terminalRun, async (ide, args, context) => {
  const screens = terminalScreens(ide);
  const { terminal, created } = await targetTerminal(ide, screens, args.terminalId);
  const { terminalId } = terminal;
  if (!terminal.running) throw terminalExited(terminal);
  // It answers with the terminal's output: a person's terminal only when they allow agents to read it.
  await requireReadable(ide, terminal, context);
  await requireIntegration(ide, screens, terminal);
  const typing = starting.of(ide);
  if (typing.has(terminalId)) {
    throw new ToolError(
      'TERMINAL_BUSY',
      `Another terminal.run is about to run a command in terminal ${terminalId}; wait for its answer, or run in another terminal.`,
    );
  }
  assertIdle(ide, screens, terminalId);

  // From here until its start (C) shows, the command counts as running: another run would type behind it.
  typing.add(terminalId);
  let before = Infinity;
  const ours = () => {
    const shell = screens.shell(terminalId);
    const cmd = shell.running ?? shell.last;
    return cmd && cmd.id > before ? cmd : undefined;
  };
  const started = screens.onMark((id) => id === terminalId && ours() && typing.delete(terminalId));
  let sentAt: number;
  let outcome: Outcome;
  try {
    await confirmUnlessSafe(ide, terminal, `${args.command}\r`, context);
    assertIdle(ide, screens, terminalId); // a person may have started something meanwhile
    before = screens.shell(terminalId).started;
    sentAt = Date.now();
    await ide.terminals.send(terminalId, `${args.command}\r`);
    const finished = () => (screens.shell(terminalId).last?.id ?? 0) > before;
    outcome = await waitUntil(ide, screens, terminalId, finished, args.timeoutMs ?? RUN_TIMEOUT_DEFAULT_MS);
  } finally {
    started.dispose();
    typing.delete(terminalId);
  }
  const common = { terminalId, ...(created && { created: true as const }) };

  const last = screens.shell(terminalId).last;
  if (outcome === 'done' && last) {
    // It has ended: its unfinished last line is its last line (the prompt after it is not its output).
    const { lines, truncated } = commandLines(screens, terminalId, last.startCursor, last.endCursor, last.partial);
    return {
      ...common,
      exitCode: last.exitCode,
      output: lines,
      truncated,
      startCursor: last.startCursor,
      cursor: last.endCursor,
      redacted: lines.some(isRedacted),
      durationMs: last.finishedAt - last.startedAt,
      timedOut: false,
    };
  }
  // Still running (timed out), or the shell ended (exit, exec): what it printed so far.
  const cmd = ours();
  const now = screens.read(terminalId, { lines: 0 });
  const startCursor = cmd?.startCursor ?? now.cursor;
  const { lines, truncated } = commandLines(screens, terminalId, startCursor, now.cursor);
  const partial = cmd ? now.partial : '';
  const exited = outcome === 'exited' ? current(ide, terminalId) : undefined;
  return {
    ...common,
    ...(exited?.exitCode !== undefined && { exitCode: exited.exitCode }),
    output: lines,
    ...(partial !== '' && { partial }),
    truncated,
    startCursor,
    cursor: now.cursor,
    redacted: lines.some(isRedacted) || isRedacted(partial),
    durationMs: Date.now() - (cmd?.startedAt ?? sentAt),
    timedOut: outcome === 'timeout',
    ...(outcome === 'exited' && { shellExited: true as const }),
  };
});

export default [terminalRunCommand];
