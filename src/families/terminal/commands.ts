import { statePart } from '../../commands/ide-state.js';
import { terminalClose, terminalCreate, terminalList, terminalReadOutput, terminalSend } from './tools.js';
import { ToolError, type CallContext, type TerminalInfo } from '../../contract/index.js';
import { checkCommandSync, formatConfirmation } from '../../security/dangerous-commands/index.js';
import { isRememberable } from '../../security/known-safe/index.js';
import { mightContinue, typedLines } from './tty-line.js';
import { defineCommand } from '../../commands/command.js';
import { requireDirectory } from '../file/commands.js';
import type { BoxVerdict, CommandAnswer, CommandQuestion } from '../../contract/port.js';
import type { IdePort } from '../index.js';
import { terminalScreens } from './output.js';
import { requireReadable } from './access.js';

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

/**
 * The shells an agent may ask for by path: an absolute path to a known shell. Any other program as a
 * terminal's "shell" would run unjudged (outside a sandbox, with no question at all).
 */
const KNOWN_SHELL = /^\/(?:[\w.+-]+\/)*(?:bash|sh|dash|zsh|fish|ksh|mksh|tcsh|csh|pwsh|nu)$/;

export const terminalCreateCommand = defineCommand(terminalCreate, async (ide, args) => {
  if (args.shellPath !== undefined && !KNOWN_SHELL.test(args.shellPath)) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `shellPath must be the absolute path of a shell (bash, sh, dash, zsh, fish, ksh, tcsh, csh, pwsh or nu), not "${args.shellPath}": ` +
        'run other programs inside a terminal with terminal.run or terminal.send.',
      { fields: ['shellPath'] },
    );
  }
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
 * Issue 28: what an agent types runs without a question when the sandbox contains it; the person is
 * asked only for what it cannot contain (deleting what they could lose, a host it does not let
 * through, text that cannot be read), and writes to the paths it keeps read-only are refused. A
 * shell outside any sandbox asks for every command, unless the person always allows commands like
 * it. What is judged is what the shell receives: the terminal's own line editing applied
 * (tty-line.ts). Text typed into a program the shell runs (a pager, an editor, a REPL) asks unless it
 * only answers or ends it. Without anyone to ask it is refused, and nothing is typed.
 */
export async function confirmUnlessSafe(
  ide: IdePort,
  terminal: TerminalInfo,
  /** As typed: with its CR or LF where it submits a line. */
  text: string,
  context: CallContext | undefined,
  /** What waits at the prompt already (typed earlier without Enter). */
  pending = '',
  /** Lines submitted earlier that bash may still hold, unrun (mightContinue). */
  held = '',
): Promise<void> {
  if (!(ide.security?.confirmDangerousCommands() ?? true)) return;
  const question = await questionFor(ide, terminal, text, pending, held);
  if (!question) return;
  const { message, reasons } = question;
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
  if (question.hosts.length > 0) await ide.security?.grantHosts?.(question.hosts);
  if (answer === 'always' && question.rule) await ide.security?.rememberCommand?.(question.rule);
}

type Question = CommandQuestion & { reasons: Reason[]; hosts: string[] };
type Reason = { command: string; rule: string; why: string };

/** Keys for a running program that only answer or end it: Ctrl-C, Ctrl-D, Ctrl-Z, Enter, space, q, y, n. */
const ANSWERS_PROGRAM = /^(?:[\u0003\u0004\u001a ]|q|y|n|yes|no)?[\r\n]?$/i;

/** How long text for a running command waits for the shell's prompt before it counts as typed into a program. */
const PROMPT_WAIT_MS = 500;

/** Whether the terminal's shell is at its prompt (shell integration says so) within `ms`. */
function promptWithin(screens: ReturnType<typeof terminalScreens>, terminalId: string, ms: number): Promise<boolean> {
  const idle = () => !screens.shell(terminalId).busy;
  if (idle()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(idle());
    };
    const subscription = screens.onMark((id) => id === terminalId && idle() && done());
    const timer = setTimeout(done, ms);
  });
}

/** The question `text` needs, or undefined when it may be typed as it is. */
async function questionFor(
  ide: IdePort,
  terminal: TerminalInfo,
  text: string,
  pending: string,
  held: string,
): Promise<Question | undefined> {
  const screens = terminalScreens(ide);
  // Running, or sent and not yet started: what comes now may be read by that command (a pager's `v`).
  const busy = screens.shell(terminal.terminalId).busy;
  if (busy && ANSWERS_PROGRAM.test(text)) return undefined;
  // A command sent right after another that is just ending (`echo a`, then `echo b`) is the shell's.
  if (busy && !(await promptWithin(screens, terminal.terminalId, PROMPT_WAIT_MS))) {
    const why = 'types into the program running in the terminal (a pager, an editor or a REPL may run commands)';
    return question(text, [{ command: text, rule: 'types-into-program', why }]);
  }
  const typed = typedLines(pending, text);
  if (typed.unfollowed) {
    const why = `holds a control key (${typed.unfollowed}) that edits or runs the line in ways OpenSpace does not follow`;
    return question(text, [{ command: text, rule: 'control-keys', why }]);
  }
  if (typed.lines.length === 0) return undefined; // nothing runs yet: the whole line is judged at Enter
  const submitted = typed.lines.join('\n');
  // After held lines, what runs is those and these together (or, where bash ran them already, these alone).
  const line = held ? `${held}\n${submitted}` : submitted;
  if (!line.trim()) return undefined;
  const rules = ide.security?.allowedCommands?.() ?? [];
  const verdict = await assessAll(ide, terminal, held ? [line, submitted] : [line]);
  if (verdict) {
    if (verdict.readOnly.length > 0) {
      throw new ToolError(
        'SANDBOX_READ_ONLY',
        `${line} writes ${verdict.readOnly.join(', ')}, which agent terminals see read-only: code there runs outside the sandbox later ` +
          '(git hooks and config, editor tasks, npm and direnv settings, CI workflows). Nothing was sent; ask the person to run it in their own terminal.',
        { paths: verdict.readOnly },
      );
    }
    if (!verdict.ask || (verdict.hosts.length === 0 && coveredByRule(line, rules))) return undefined;
    const rule = verdict.hosts.length === 0 && verdict.reasons.every((r) => r.rule === 'deletes-person-files') ? ruleFor(line) : undefined;
    return { ...question(line, verdict.reasons, rule), hosts: verdict.hosts };
  }
  // No sandbox: every command asks, but for the ones the person always allows; the danger check says what else it does.
  if (coveredByRule(line, rules)) return undefined;
  const danger = checkCommandSync(line, { workspaceCwd: terminal.cwd });
  const reasons = [{ command: line, rule: 'unsandboxed', why: 'runs outside any sandbox' }, ...danger.reasons];
  return question(line, reasons, danger.dangerous ? undefined : ruleFor(line));
}

/** The sandbox's verdicts on each reading of the text, together; undefined outside a sandbox. */
async function assessAll(ide: IdePort, terminal: TerminalInfo, readings: string[]): Promise<BoxVerdict | undefined> {
  const verdicts = await Promise.all(readings.map((text) => ide.security?.assessInBox?.(terminal, text)));
  if (verdicts.some((v) => v === undefined)) return undefined;
  const all = verdicts as BoxVerdict[];
  return {
    ask: all.some((v) => v.ask),
    reasons: all.flatMap((v) => v.reasons),
    readOnly: [...new Set(all.flatMap((v) => v.readOnly))],
    hosts: [...new Set(all.flatMap((v) => v.hosts))],
  };
}

function question(text: string, reasons: Reason[], rule?: string): Question {
  return { message: formatConfirmation(text, { reasons }), reasons, hosts: [], ...(rule && { rule }) };
}

/** A plain command (no operators, substitutions or redirections) whose words start with a remembered rule's. */
export function coveredByRule(line: string, rules: readonly string[]): boolean {
  if (/[;&|<>`$()\n\\'"*?[\]{}~#!]/.test(line)) return false;
  const words = line.trim().split(/\s+/);
  return rules.some((rule) => {
    const ruleWords = rule.trim().split(/\s+/);
    return ruleWords.length >= 2 && ruleWords.every((w, i) => words[i] === w);
  });
}

/** "Always allow" remembers the program and its subcommand (`git clean`, `npm run`), never the program alone. */
function ruleFor(line: string): string | undefined {
  const words = line.trim().split(/\s+/);
  if (words.length < 2 || !/^[\w.-]+$/.test(words[0]!) || !/^[\w.:-]+$/.test(words[1]!) || words[1]!.startsWith('-')) return undefined;
  return isRememberable(`${words[0]} ${words[1]}`) ? `${words[0]} ${words[1]}` : undefined;
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

/**
 * What an agent typed into each terminal since its last Enter: a command typed in pieces is judged
 * whole when Enter comes, so `rm -r` then ` -f /` then Enter is caught.
 */
const typedAhead = statePart(() => new Map<string, string>());
/** Lines an agent submitted that bash may hold unrun, waiting for the rest (`r\`, `cat <<EOF`). */
const heldInput = statePart(() => new Map<string, string>());

/** What an agent typed into the terminal without Enter so far ("" if nothing). */
export function typedAheadText(ide: IdePort, terminalId: string): string {
  return typedAhead.of(ide).get(terminalId) ?? '';
}

/** Lines submitted that the shell may still hold, waiting for the rest of the command ("" if none). */
export function heldText(ide: IdePort, terminalId: string): string {
  return heldInput.of(ide).get(terminalId) ?? '';
}

export const terminalSendCommand = defineCommand(terminalSend, async (ide, args, context) => {
  const terminal = resolveTerminal(ide, args.terminalId);
  const { terminalId } = terminal;
  if (!terminal.running) throw terminalExited(terminal);
  const enter = (args.enter ?? true) && !/[\r\n]$/.test(args.text);
  const text = enter ? `${args.text}\r` : args.text;
  const pending = typedAhead.of(ide);
  const holding = heldInput.of(ide);
  const before = pending.get(terminalId) ?? '';
  const held = holding.get(terminalId) ?? '';
  await confirmUnlessSafe(ide, terminal, text, context, before, held);
  // What waits at the prompt now, as the terminal edits it (a program's input is not the shell's line),
  // and what bash may hold unrun: Ctrl-C drops both.
  const shell = terminalScreens(ide).shell(terminalId);
  if (!shell.busy) {
    const { rest, lines } = typedLines(before, text);
    if (rest === '') pending.delete(terminalId);
    else pending.set(terminalId, rest);
    const submitted = text.includes('\u0003') ? '' : [held, ...lines].filter(Boolean).join('\n');
    if (lines.length > 0 || text.includes('\u0003')) {
      if (submitted && mightContinue(submitted)) holding.set(terminalId, submitted);
      else holding.delete(terminalId);
      // A whole line goes to the shell: until its marks say what became of it, the next text waits.
      // (Only where OpenSpace's own script announced itself: marks a program printed do not make a shell that has none wait.)
      if (submitted && !mightContinue(submitted) && shell.announced) shell.submitted = true;
    }
  }
  const cursor = terminalScreens(ide).cursor(terminalId);
  await ide.terminals.send(terminalId, text);
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
