import {
  editorClearHighlight,
  editorClose,
  editorHighlight,
  editorOpen,
  editorReadFile,
  editorReplaceRange,
  editorScrollTo,
} from './tools.js';
import { ToolError, type LineRange } from '../../contract/index.js';
import { defineCommand } from '../../commands/command.js';
import { requireFile } from '../file/commands.js';
import type { EditorState } from './port.js';
import type { IdePort } from '../index.js';
import { lineCount, lineReplacement, sliceLines, splitLines, textVersion } from '../../commands/text.js';

export const DEFAULT_HIGHLIGHT_COLOR = 'rgba(46, 160, 67, 0.25)';

/** The open editor for a path an agent gave; FILE_NOT_FOUND or EDITOR_NOT_OPEN otherwise. */
async function requireOpenEditor(ide: IdePort, input: string): Promise<EditorState> {
  const path = await requireFile(ide, input);
  const editor = ide.editors.get(path);
  if (!editor) {
    throw new ToolError('EDITOR_NOT_OPEN', `${path} is not open in an editor. Open it first with openspace.editor.open {path:"${path}"}.`);
  }
  return editor;
}

/** Text of a file as the person sees it: the editor buffer if open, else the file on disk. */
async function currentText(ide: IdePort, path: string): Promise<string> {
  return ide.editors.text(path) ?? (await ide.workspace.readText(path)).text;
}

function checkLine(path: string, line: number, lines: number, field = 'line'): void {
  if (line > lines)
    throw new ToolError('RANGE_INVALID', `${field} ${line} is past the end of ${path}, which has ${lines} lines.`, { lineCount: lines });
}

/** Validate highlight ranges against the text: lines inside the file, ends not before starts, columns inside their lines. */
function checkRanges(path: string, text: string, ranges: LineRange[]): void {
  const lines = splitLines(text);
  const count = Math.max(1, lines.length);
  ranges.forEach((r, i) => {
    const where = `ranges[${i}]`;
    checkLine(path, r.startLine, count, `${where}.startLine`);
    checkLine(path, r.endLine, count, `${where}.endLine`);
    if (r.endLine < r.startLine || (r.endLine === r.startLine && r.startColumn && r.endColumn && r.endColumn < r.startColumn)) {
      throw new ToolError('RANGE_INVALID', `${where} ends before it starts.`);
    }
    const check = (column: number | undefined, line: number, name: string) => {
      const max = (lines[line - 1]?.length ?? 0) + 1;
      if (column !== undefined && column > max) {
        throw new ToolError('RANGE_INVALID', `${where}.${name} ${column} is past the end of line ${line} (${max - 1} characters).`);
      }
    };
    check(r.startColumn, r.startLine, 'startColumn');
    check(r.endColumn, r.endLine, 'endColumn');
  });
}

function newHighlightId(ide: IdePort): string {
  const taken = new Set(ide.editors.highlights().map((h) => h.highlightId));
  let n = 1;
  while (taken.has(`highlight-${n}`)) n++;
  return `highlight-${n}`;
}

export const editorOpenCommand = defineCommand(editorOpen, async (ide, args) => {
  const path = await requireFile(ide, args.path);
  const text = await currentText(ide, path);
  const lines = lineCount(text);
  if (args.line === undefined && (args.endLine !== undefined || args.column !== undefined || args.highlight)) {
    throw new ToolError('INVALID_ARGUMENT', 'column, endLine and highlight need line.', { fields: ['line'] });
  }
  let selection;
  let range: LineRange | undefined;
  if (args.line !== undefined) {
    range = { startLine: args.line, endLine: args.endLine ?? args.line, startColumn: args.column, endColumn: args.endColumn };
    checkLine(path, args.line, lines);
    if (args.endLine !== undefined) checkLine(path, args.endLine, lines, 'endLine');
    checkRanges(path, text, [range]);
    const start = { line: range.startLine, column: range.startColumn ?? 1 };
    const end =
      args.endLine !== undefined
        ? { line: range.endLine, column: range.endColumn ?? (splitLines(text)[range.endLine - 1]?.length ?? 0) + 1 }
        : start;
    selection = { start, end };
  }
  const editor = await ide.editors.open(path, { selection });
  let highlightId: string | undefined;
  if (args.highlight && range) {
    highlightId = args.highlightId ?? newHighlightId(ide);
    await ide.editors.setHighlight({ highlightId, path, ranges: [range], color: DEFAULT_HIGHLIGHT_COLOR });
  }
  return { path, editorId: editor.editorId, paneId: editor.paneId, lineCount: lines, visibleRange: editor.visibleRange, highlightId };
});

export const editorReadFileCommand = defineCommand(editorReadFile, async (ide, args) => {
  const path = await requireFile(ide, args.path);
  const editor = ide.editors.get(path);
  const text = await currentText(ide, path);
  return { path, ...sliceLines(text, path, args.startLine, args.endLine), isOpen: editor !== undefined, isDirty: editor?.isDirty ?? false };
});

export const editorCloseCommand = defineCommand(editorClose, async (ide, args) => {
  const editor = await requireOpenEditor(ide, args.path);
  if (editor.isDirty && !args.force) {
    throw new ToolError(
      'DIRTY_BUFFER',
      `${editor.path} has unsaved changes (a person's, or an editor.replace_range not yet saved). Leave it open, or pass force:true to discard them.`,
    );
  }
  await ide.editors.close(editor.path);
  return { path: editor.path };
});

export const editorScrollToCommand = defineCommand(editorScrollTo, async (ide, args) => {
  const editor = await requireOpenEditor(ide, args.path);
  const text = ide.editors.text(editor.path) ?? '';
  checkRanges(editor.path, text, [{ startLine: args.line, endLine: args.line, startColumn: args.column }]);
  const after = await ide.editors.reveal(editor.path, { line: args.line, column: args.column ?? 1 });
  return { path: editor.path, visibleRange: after.visibleRange };
});

export const editorHighlightCommand = defineCommand(editorHighlight, async (ide, args) => {
  const editor = await requireOpenEditor(ide, args.path);
  checkRanges(editor.path, ide.editors.text(editor.path) ?? '', args.ranges);
  const highlightId = args.highlightId ?? newHighlightId(ide);
  await ide.editors.setHighlight({ highlightId, path: editor.path, ranges: args.ranges, color: args.color ?? DEFAULT_HIGHLIGHT_COLOR });
  return { highlightId, path: editor.path, ranges: args.ranges };
});

export const editorClearHighlightCommand = defineCommand(editorClearHighlight, async (ide, args) => {
  if (args.highlightId === undefined && args.path === undefined) {
    throw new ToolError('INVALID_ARGUMENT', 'Pass highlightId, path, or both.', { fields: ['highlightId', 'path'] });
  }
  const path = args.path === undefined ? undefined : await ide.workspace.resolve(args.path);
  const all = ide.editors.highlights();
  let targets = all.filter((h) => path === undefined || h.path === path);
  if (args.highlightId !== undefined) {
    targets = targets.filter((h) => h.highlightId === args.highlightId);
    if (targets.length === 0) {
      const existing = all.map((h) => `${h.highlightId} (${h.path})`);
      throw new ToolError(
        'HIGHLIGHT_NOT_FOUND',
        `No highlight "${args.highlightId}"${path !== undefined ? ` on ${path}` : ''}. Current highlights: ${existing.length > 0 ? existing.join(', ') : 'none'}.`,
      );
    }
  }
  for (const h of targets) await ide.editors.removeHighlight(h.highlightId);
  return { cleared: targets.map((h) => h.highlightId) };
});

/** How long the lines replace_range changed stay highlighted. */
export const CHANGE_HIGHLIGHT_MS = 2000;
let changes = 0;

export const editorReplaceRangeCommand = defineCommand(editorReplaceRange, async (ide, args) => {
  const path = await requireFile(ide, args.path);
  if (!ide.editors.get(path)) await ide.editors.open(path, {});
  const before = ide.editors.text(path) ?? '';
  if (args.baseVersion !== undefined) {
    const now = await textVersion(before);
    if (now !== args.baseVersion) {
      throw new ToolError(
        'CONFLICT',
        `${path} as the editor holds it is at version ${now}, not ${args.baseVersion}; read it again (openspace.editor.read_file) and redo the change.`,
        { currentVersion: now },
      );
    }
  }
  await ide.editors.applyEdit(path, lineReplacement(before, path, args.startLine, args.endLine, args.newText));
  const after = ide.editors.text(path) ?? '';
  const added = args.newText === '' ? 0 : args.newText.split('\n').length;
  const range = { startLine: args.startLine, endLine: args.startLine + added - 1 };
  if (added > 0) {
    // Briefly, so the person sees what changed; a later change's highlight replaces it.
    const highlightId = `change-${++changes}`;
    await ide.editors.setHighlight({ highlightId, path, ranges: [range], color: DEFAULT_HIGHLIGHT_COLOR });
    setTimeout(() => void ide.editors.removeHighlight(highlightId).catch(() => {}), CHANGE_HIGHLIGHT_MS);
  }
  return {
    path,
    ...range,
    lineCount: lineCount(after),
    version: await textVersion(after),
    isDirty: ide.editors.get(path)?.isDirty ?? true,
  };
});

export default [
  editorOpenCommand,
  editorReadFileCommand,
  editorCloseCommand,
  editorScrollToCommand,
  editorHighlightCommand,
  editorClearHighlightCommand,
  editorReplaceRangeCommand,
];
