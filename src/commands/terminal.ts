import {
  terminalClose,
  terminalCreate,
  terminalList,
  terminalReadOutput,
  terminalSend,
  ToolError,
  type TerminalInfo,
} from '../contract/index.js';
import { defineCommand } from './command.js';
import { requireDirectory } from './file.js';
import type { IdePort } from './port.js';

/** Find a terminal by ID, or by title when no ID matches. */
export function resolveTerminal(ide: IdePort, ref: string): TerminalInfo {
  const terminals = ide.terminals.list();
  const byId = terminals.find((t) => t.terminalId === ref);
  if (byId) return byId;
  const byTitle = terminals.filter((t) => t.title === ref);
  if (byTitle.length === 1) return byTitle[0]!;
  if (byTitle.length > 1) {
    throw new ToolError('INVALID_ARGUMENT', `Several terminals are titled "${ref}": ${byTitle.map((t) => t.terminalId).join(', ')}. Pass one of those IDs.`, {
      fields: ['terminalId'],
    });
  }
  const known = terminals.map((t) => (t.title === t.terminalId ? t.terminalId : `${t.terminalId} ("${t.title}")`));
  throw new ToolError(
    'TERMINAL_NOT_FOUND',
    `No terminal "${ref}". Open terminals: ${known.length > 0 ? known.join(', ') : 'none'}; create one with openspace.terminal.create.`,
  );
}

/** A readable ID from a title, unique among the open terminals: "Test Runner" → "test-runner", then "test-runner-2". */
export function terminalIdFor(title: string, taken: Set<string>): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'terminal';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

export const terminalCreateCommand = defineCommand(terminalCreate, async (ide, args) => {
  const terminals = ide.terminals.list();
  const taken = new Set(terminals.map((t) => t.terminalId));
  let title = args.title;
  if (title === undefined) {
    let n = terminals.length + 1;
    while (taken.has(terminalIdFor(`Terminal ${n}`, new Set()))) n++;
    title = `Terminal ${n}`;
  }
  const cwd = args.cwd === undefined ? '' : await requireDirectory(ide, args.cwd);
  const created = await ide.terminals.create({ terminalId: terminalIdFor(title, taken), title, cwd, shellPath: args.shellPath });
  return { terminalId: created.terminalId, title: created.title, cwd: created.cwd };
});

export const terminalSendCommand = defineCommand(terminalSend, async (ide, args) => {
  const { terminalId } = resolveTerminal(ide, args.terminalId);
  const cursor = ide.terminals.cursor(terminalId);
  const enter = (args.enter ?? true) && !/[\r\n]$/.test(args.text);
  await ide.terminals.send(terminalId, enter ? `${args.text}\r` : args.text);
  return { terminalId, cursor };
});

export const terminalReadOutputCommand = defineCommand(terminalReadOutput, async (ide, args) => {
  const terminal = resolveTerminal(ide, args.terminalId);
  const read = ide.terminals.read(terminal.terminalId, { lines: args.lines ?? 100, since: args.since });
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
  };
});

export const terminalListCommand = defineCommand(terminalList, async (ide) => ({
  terminals: ide.terminals.list(),
  activeTerminalId: ide.terminals.activeTerminalId(),
}));

export const terminalCloseCommand = defineCommand(terminalClose, async (ide, args) => {
  const { terminalId } = resolveTerminal(ide, args.terminalId);
  await ide.terminals.close(terminalId);
  return { terminalId };
});

export default [terminalCreateCommand, terminalSendCommand, terminalReadOutputCommand, terminalListCommand, terminalCloseCommand];
