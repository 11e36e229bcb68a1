import type { Command } from './command.js';
import paneCommands from './pane.js';
import editorCommands from './editor.js';
import terminalCommands from './terminal.js';
import terminalRunCommands from './terminal-run.js';
import fileCommands from './file.js';
import presentationCommands from './presentation.js';
import whiteboardCommands from './whiteboard.js';
import modalityCommands from './modality.js';
import codeCommands from './code.js';
import contextCommands from './context.js';
import reviewCommands from './review.js';
import eventCommands from './events.js';

export * from './command.js';
export type * from '../contract/port.js';

/** Every command implementation, keyed by its tool (and command) name. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map(
  (
    [
      ...paneCommands,
      ...editorCommands,
      ...terminalCommands,
      ...terminalRunCommands,
      ...fileCommands,
      ...presentationCommands,
      ...whiteboardCommands,
      ...modalityCommands,
      ...codeCommands,
      ...contextCommands,
      ...reviewCommands,
      ...eventCommands,
    ] as Command[]
  ).map((c) => [c.tool.name, c]),
);
