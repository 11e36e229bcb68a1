import {
  terminalClose,
  terminalCreate,
  terminalList,
  terminalReadOutput,
  terminalSend,
  ToolError,
  type CallContext,
  type TerminalInfo,
} from '../contract/index.js';
import { checkCommandSync, formatConfirmation, type CheckResult } from '../security/dangerous-commands/index.js';
import { assessCommand, type Assessment } from '../security/known-safe/index.js';
import { defineCommand } from './command.js';
import { requireDirectory } from './file.js';
import type { CommandAnswer, CommandQuestion, IdePort } from '../contract/port.js';
import { terminalScreens } from './terminal-output.js';
import { requireReadable } from './terminal-access.js';

/** Find a terminal by ID, or by title when no ID matches. */
export function resolveTerminal(ide: IdePort, ref: string): TerminalInfo {
  const terminals = ide.terminals.list();
  const byId = terminals.find((t) => t.terminalId === ref);
  if (byId) return byId;
  const byTitle = terminals.filter((t) => t.title === ref);
  if (byTitle.length === 1) return byTitle[0]!;
  if (byTitle.length > 1) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Several terminals are titled "${ref}": ${byTitle.map((t) => t.terminalId).join(', ')}. Pass one of those IDs.`,
      {
        fields: ['terminalId'],
      },
    );
  }
  const known = terminals.map((t) => (t.title === t.terminalId ? t.terminalId : `${t.terminalId} ("${t.title}")`));
  throw new ToolError(
    'TERMINAL_NOT_FOUND',
    `No terminal "${ref}". Open terminals: ${known.length > 0 ? known.join(', ') : 'none'}; create one with openspace.terminal.create.`,
  );
}

/** The error for a terminal whose process has ended: nothing can be typed into it any more. */
export function terminalExited(terminal: TerminalInfo): ToolError {
  return new ToolError('TERMINAL_EXITED', `Terminal ${terminal.terminalId} has exited (code ${terminal.exitCode}); create a new one.`);
}

/** A readable ID from a title, unique among the open terminals: "Test Runner" → "test-runner", then "test-runner-2". */
export function terminalIdFor(title: string, taken: Set<string>): string {
  const base =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'terminal';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * Open a terminal titled `title` (an ID derived from it). Its shell gets shell integration when the
 * IDE's port gives it (bash), so terminal.run waits for its first prompt.
 */
export async function openTerminal(ide: IdePort, options: { title?: string; cwd: string; shellPath?: string }): Promise<TerminalInfo> {
  const terminals = ide.terminals.list();
  const taken = new Set(terminals.map((t) => t.terminalId));
  let title = options.title;
  if (title === undefined) {
    let n = terminals.length + 1;
    while (taken.has(terminalIdFor(`Terminal ${n}`, new Set()))) n++;
    title = `Terminal ${n}`;
  }
  const terminalId = terminalIdFor(title, taken);
  // The ID may have named a terminal a person closed since: its output is not this one's.
  const screens = terminalScreens(ide);
  screens.forget(terminalId);
  if (options.shellPath === undefined || /(^|[/\\])bash(\.exe)?$/.test(options.shellPath)) screens.expectIntegration(terminalId);
  return ide.terminals.create({ terminalId, title, cwd: options.cwd, shellPath: options.shellPath });
}

export const terminalCreateCommand = defineCommand(terminalCreate, async (ide, args) => {
  const cwd = args.cwd === undefined ? '' : await requireDirectory(ide, args.cwd);
  const created = await openTerminal(ide, { title: args.title, cwd, shellPath: args.shellPath });
  return { terminalId: created.terminalId, title: created.title, cwd: created.cwd, sandboxed: created.sandboxed ?? false };
});

/** What the person at the agent's side picks from when a command needs their word (MCP elicitation). */
export const COMMAND_ANSWERS = {
  once: 'Allow once',
  always: 'Always allow commands like this in this workspace',
  deny: 'Deny',
} as const satisfies Record<CommandAnswer, string>;

/**
 * NFR-3.6.3, issue 17: text typed into a terminal (parsed as bash) runs without asking only when
 * every command in it is known to be safe or matches a rule the person remembered; anything else
 * is sent only after a person allows it, once or always for commands like it (a rule the IDE keeps
 * in the person's own settings). Without anyone to ask it is refused, and nothing is typed.
 */
export async function confirmUnlessSafe(
  ide: IdePort,
  terminal: TerminalInfo,
  text: string,
  context: CallContext | undefined,
  /** Text typed without Enter runs nothing yet: it asks only when it is dangerous already (the whole line is judged at Enter). */
  unfinished = false,
): Promise<void> {
  if (!(ide.security?.confirmDangerousCommands() ?? true)) return;
  const isProtected = ide.security?.protectedPaths?.();
  const options = { workspaceCwd: terminal.cwd, ...(isProtected && { isProtected }) };
  const line = text.replace(/[\r\n]+$/, '');
  const verdict: Assessment = unfinished
    ? dangerOnly(checkCommandSync(line, options))
    : assessCommand(line, { ...options, allowRules: ide.security?.allowedCommands?.() ?? [] });
  if (!verdict.ask) return;
  const message = formatConfirmation(text, verdict);
  const reasons = verdict.reasons.map(({ command, rule, why }) => ({ command, rule, why }));
  const question: CommandQuestion = { message, ...(verdict.suggestedRule && { rule: verdict.suggestedRule }) };
  const answer = await askCommand(ide, question, context);
  if (answer === undefined) {
    throw new ToolError(
      'CONFIRMATION_REQUIRED',
      `${message}. A person must confirm this; this IDE has no one to ask and the MCP client offers no way to ask (elicitation); nothing was sent. ` +
        'Ask the person to run it, or to turn off openspace.security.confirmDangerousCommands.',
      { reasons },
    );
  }
  if (answer === 'deny') {
    throw new ToolError(
      'CONFIRMATION_DENIED',
      `The person did not allow it: ${message}. Nothing was sent; do not retry without asking them.`,
      { reasons },
    );
  }
  if (answer === 'always' && question.rule) await ide.security?.rememberCommand?.(question.rule);
}

function dangerOnly({ dangerous, reasons }: CheckResult): Assessment {
  return { ask: dangerous, reasons, unknown: [] };
}

/** The person's answer, at the IDE or at the agent's side; undefined when there is no one to ask. */
async function askCommand(ide: IdePort, question: CommandQuestion, context: CallContext | undefined): Promise<CommandAnswer | undefined> {
  if (ide.security?.confirmCommand) return ide.security.confirmCommand(question);
  if (!context?.choose) return undefined;
  const offered = (Object.keys(COMMAND_ANSWERS) as CommandAnswer[]).filter((a) => a !== 'always' || question.rule);
  const picked = await context.choose(
    question.rule ? `${question.message}\n"Always" allows commands like: ${question.rule}` : question.message,
    offered.map((a) => COMMAND_ANSWERS[a]),
  );
  return offered.find((a) => COMMAND_ANSWERS[a] === picked) ?? 'deny';
}

/** Keys that edit or interrupt the line rather than type a command: Ctrl-C, Ctrl-D, Ctrl-U, Ctrl-Z, Escape. */
const CONTROL_KEYS = /^[\u0003\u0004\u0015\u001a\u001b]+$/;
const CLEARS_LINE = /[\u0003\u0015]/;

/**
 * What an agent typed into each terminal since its last Enter: a command typed in pieces is checked
 * whole when Enter comes, so `rm -r` then ` -f /` then Enter is caught.
 */
const typedAhead = new WeakMap<IdePort, Map<string, string>>();

/** What an agent typed into the terminal without Enter so far ("" if nothing). */
export function typedAheadText(ide: IdePort, terminalId: string): string {
  return typedAhead.get(ide)?.get(terminalId) ?? '';
}

export const terminalSendCommand = defineCommand(terminalSend, async (ide, args, context) => {
  const terminal = resolveTerminal(ide, args.terminalId);
  const { terminalId } = terminal;
  if (!terminal.running) throw terminalExited(terminal);
  const enter = (args.enter ?? true) && !/[\r\n]$/.test(args.text);
  const pending = typedAhead.get(ide) ?? new Map<string, string>();
  typedAhead.set(ide, pending);
  if (CONTROL_KEYS.test(args.text)) {
    if (CLEARS_LINE.test(args.text)) pending.delete(terminalId);
  } else {
    const line = (pending.get(terminalId) ?? '') + args.text;
    const submits = enter || /[\r\n]/.test(args.text);
    await confirmUnlessSafe(ide, terminal, submits ? line : args.text, context, !submits);
    if (submits) pending.delete(terminalId);
    else pending.set(terminalId, line);
  }
  const cursor = terminalScreens(ide).cursor(terminalId);
  await ide.terminals.send(terminalId, enter ? `${args.text}\r` : args.text);
  return { terminalId, cursor };
});

export const terminalReadOutputCommand = defineCommand(terminalReadOutput, async (ide, args, context) => {
  const terminal = resolveTerminal(ide, args.terminalId);
  await requireReadable(ide, terminal, context);
  const screens = terminalScreens(ide);
  const read = screens.read(terminal.terminalId, { lines: args.lines ?? 100, since: args.since });
  const last = screens.shell(terminal.terminalId).last;
  return {
    terminalId: terminal.terminalId,
    output: read.lines,
    partial: read.partial,
    cursor: read.cursor,
    dropped: read.dropped,
    more: read.more,
    redacted: read.redacted,
    running: terminal.running,
    exitCode: terminal.exitCode,
    ...(last && {
      lastCommand: {
        exitCode: last.exitCode,
        durationMs: last.finishedAt - last.startedAt,
        finishedAt: new Date(last.finishedAt).toISOString(),
      },
    }),
  };
});

export const terminalListCommand = defineCommand(terminalList, async (ide) => ({
  terminals: ide.terminals.list(),
  activeTerminalId: ide.terminals.activeTerminalId(),
}));

/** Close a terminal (ending its process) and let go of its output. */
export async function closeTerminal(ide: IdePort, terminalId: string): Promise<void> {
  await ide.terminals.close(terminalId);
  terminalScreens(ide).forget(terminalId);
}

export const terminalCloseCommand = defineCommand(terminalClose, async (ide, args) => {
  const { terminalId } = resolveTerminal(ide, args.terminalId);
  await closeTerminal(ide, terminalId);
  return { terminalId };
});

export default [terminalCreateCommand, terminalSendCommand, terminalReadOutputCommand, terminalListCommand, terminalCloseCommand];
