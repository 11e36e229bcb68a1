import { contextGet, SELECTION_TEXT_LIMIT } from './tools.js';
import type { EditorState } from '../editor/port.js';
import type { IdePort } from '../index.js';
import { defineCommand } from '../../commands/command.js';
import { terminalScreens } from '../terminal/output.js';
import { splitLines } from '../../commands/text.js';

type Selection = EditorState['selection'];

/** The selected text of lines as the person sees them (1-based, end exclusive), at most the limit. */
function selectedText(lines: string[], { start, end }: Selection): { text: string; truncated?: true } {
  const picked = lines.slice(start.line - 1, end.line);
  if (picked.length === 0) return { text: '' };
  picked[picked.length - 1] = picked[picked.length - 1]!.slice(0, end.column - 1);
  picked[0] = picked[0]!.slice(start.column - 1);
  const text = picked.join('\n');
  return text.length > SELECTION_TEXT_LIMIT ? { text: text.slice(0, SELECTION_TEXT_LIMIT), truncated: true } : { text };
}

async function selection(ide: IdePort, editor: EditorState) {
  const { start, end } = editor.selection;
  const empty = start.line === end.line && start.column === end.column;
  if (empty) return { start, end, empty };
  // The read is the check: a sensitive file (the person's settings included) gives no text.
  const readable = await ide.workspace.readText(editor.path).then(
    () => true,
    () => false,
  );
  if (!readable) return { start, end, empty, withheld: 'sensitive file' };
  return { start, end, empty, ...selectedText(splitLines(ide.editors.text(editor.path) ?? ''), editor.selection) };
}

export const contextGetCommand = defineCommand(contextGet, async (ide) => {
  const { panes, activePaneId, activeContentId } = ide.shell.layout();
  const tabs = panes.flatMap((pane) => pane.tabs.map((tab) => ({ pane, tab })));
  const focused = tabs.find(({ tab }) => tab.contentId === activeContentId);
  const editors = ide.editors.list();
  const current = ide.editors.current();
  const editor = editors.find((e) => e.path === current);
  const screens = terminalScreens(ide);
  return {
    workspaceRoot: ide.workspace.rootPath() ?? null,
    focus: focused ? { paneId: activePaneId ?? focused.pane.id, contentId: focused.tab.contentId, type: focused.tab.type } : null,
    editor: editor
      ? {
          path: editor.path,
          cursor: editor.cursor,
          selection: await selection(ide, editor),
          visibleRange: editor.visibleRange,
          lineCount: editor.lineCount,
          isDirty: editor.isDirty,
        }
      : null,
    openEditors: editors.map((e) => ({ path: e.path, paneId: e.paneId, isDirty: e.isDirty })),
    terminals: ide.terminals.list().map((t) => ({
      terminalId: t.terminalId,
      title: t.title,
      running: t.running,
      ...(screens.lastActivity(t.terminalId) && { lastActivity: screens.lastActivity(t.terminalId) }),
    })),
    presentations: ide.presentations.views().map((v) => ({ deckPath: v.deckPath, slideIndex: v.slideIndex, playback: v.playback })),
    whiteboards: tabs.filter(({ tab }) => tab.type === 'whiteboard').map(({ tab }) => tab.contentId),
  };
});

export default [contextGetCommand];
