import { ToolError } from '../src/contract/index.js';
import { HighlightRegistry } from '../src/families/editor/highlights.js';
import type { Disposable } from '../src/contract/port.js';
import type {
  EditorActivity,
  EditorPort,
  EditorState,
  Highlight,
  Placement,
  Position,
  TextEdit,
  WorkspacePort,
} from '../src/families/index.js';
import { applyTextEdit, lineCount } from '../src/commands/text.js';
import type { SimLayout } from './layout.js';

interface EditorModel {
  path: string;
  text: string;
  savedText: string;
  cursor: Position;
  selection: { start: Position; end: Position };
  topLine: number;
  /** Texts before each edit made with applyEdit, newest last (what Ctrl+Z goes back to). */
  undo: string[];
}

/**
 * Text editors of the simulated IDE: a model per open file with cursor, selection, the lines a
 * viewport of `viewportLines` shows, a dirty flag and agent highlights (Monaco decorations in Theia).
 */
export class SimEditors implements EditorPort, Disposable {
  private readonly models = new Map<string, EditorModel>();
  private readonly decorations = new HighlightRegistry();
  private readonly subscription: Disposable;
  private readonly activityListeners = new Set<(activity: EditorActivity) => void>();

  constructor(
    private readonly layout: SimLayout,
    private readonly workspace: WorkspacePort,
    private readonly viewportLines = 30,
  ) {
    this.subscription = workspace.onFileWritten((path, text) => this.reloadIfClean(path, text));
  }

  async show(path: string, placement: Placement): Promise<{ paneId: string }> {
    return { paneId: (await this.open(path, { placement })).paneId };
  }

  async open(path: string, options: { placement?: Placement; selection?: { start: Position; end: Position } }): Promise<EditorState> {
    let model = this.models.get(path);
    if (!model) {
      const { text } = await this.workspace.readText(path);
      const start = { line: 1, column: 1 };
      model = { path, text, savedText: text, cursor: start, selection: { start, end: start }, topLine: 1, undo: [] };
      this.models.set(path, model);
    }
    await this.layout.openContent({ type: 'editor', contentId: path, title: path.split('/').pop() ?? path, ...options.placement });
    if (options.selection) {
      model.selection = options.selection;
      this.moveTo(model, options.selection.start);
    }
    return this.state(model);
  }

  get(path: string): EditorState | undefined {
    const model = this.models.get(path);
    return model && this.state(model);
  }

  list(): EditorState[] {
    return [...this.models.values()].map((m) => this.state(m));
  }

  current(): string | undefined {
    const shown = this.layout.activeContentOf('main');
    return shown !== undefined && this.models.has(shown) ? shown : undefined;
  }

  async close(path: string): Promise<void> {
    if (!this.models.delete(path)) return;
    this.decorations.clearPath(path);
    if (this.layout.isOpen(path)) await this.layout.closeContent(path);
  }

  async reveal(path: string, position: Position): Promise<EditorState> {
    const model = this.require(path);
    model.selection = { start: position, end: position };
    this.moveTo(model, position);
    await this.layout.focusContent(path);
    return this.state(model);
  }

  text(path: string): string | undefined {
    return this.models.get(path)?.text;
  }

  async discard(path: string): Promise<void> {
    const model = this.models.get(path);
    if (!model) return;
    model.text = model.savedText = (await this.workspace.readText(path)).text;
    const last = lineCount(model.text);
    if (model.cursor.line > last) this.moveTo(model, { line: last, column: 1 });
    this.layout.setDirty(path, false);
  }

  async applyEdit(path: string, edit: TextEdit): Promise<void> {
    const model = this.require(path);
    model.undo.push(model.text);
    model.text = applyTextEdit(model.text, edit);
    this.layout.setDirty(path, model.text !== model.savedText);
  }

  onActivity(listener: (activity: EditorActivity) => void): Disposable {
    this.activityListeners.add(listener);
    return { dispose: () => this.activityListeners.delete(listener) };
  }

  async setHighlight(highlight: Highlight): Promise<void> {
    const model = this.require(highlight.path);
    this.decorations.set({ ...highlight, ranges: highlight.ranges.map((r) => ({ ...r })) });
    // Like Monaco's revealRangeInCenterIfOutsideViewport: scroll, without moving the cursor.
    const first = highlight.ranges[0]!;
    const { visibleRange } = this.state(model);
    if (first.startLine < visibleRange.startLine || first.startLine > visibleRange.endLine) {
      model.topLine = Math.max(1, Math.floor((first.startLine + first.endLine) / 2) - Math.floor(this.viewportLines / 2));
    }
  }

  async removeHighlight(highlightId: string): Promise<void> {
    this.decorations.remove(highlightId);
  }

  highlights(): Highlight[] {
    return this.decorations.list();
  }

  // What a person does at the keyboard, for tests and scenarios.

  /** Replace the buffer as if a person typed, leaving unsaved changes. */
  personEdits(path: string, text: string): void {
    const model = this.require(path);
    model.text = text;
    this.layout.setDirty(path, model.text !== model.savedText);
    this.fire({ kind: 'edited', path });
  }

  /** Ctrl+Z: take back the last edit made with applyEdit. Returns false when there is none. */
  personUndoes(path: string): boolean {
    const model = this.require(path);
    const before = model.undo.pop();
    if (before === undefined) return false;
    model.text = before;
    this.layout.setDirty(path, model.text !== model.savedText);
    this.fire({ kind: 'edited', path });
    return true;
  }

  /** Open a file from the explorer. */
  async personOpens(path: string): Promise<void> {
    await this.open(path, {});
  }

  /** Close a tab (the person's unsaved changes go with it, as after "Don't Save"). */
  async personCloses(path: string): Promise<void> {
    await this.close(path);
  }

  /** Select text with the mouse: the cursor ends at `end`, the editor is focused. */
  async personSelects(path: string, start: Position, end: Position): Promise<void> {
    const model = this.require(path);
    model.selection = { start, end };
    this.moveTo(model, end);
    await this.layout.focusContent(path);
    this.fire({ kind: 'selection', path, selection: { start, end } });
  }

  /** Save the buffer to disk, as Ctrl+S does. */
  async personSaves(path: string): Promise<void> {
    const model = this.require(path);
    await this.workspace.writeText(path, model.text, { tool: 'editor.save' });
    model.savedText = model.text;
    this.layout.setDirty(path, false);
    this.fire({ kind: 'saved', path });
  }

  /** Escape in the focused editor clears the agent's highlights there (AC-3.2.3). */
  personPressesEscape(): string[] {
    return this.decorations.clearPath(this.layout.activeContentOf('main'));
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /** Show what was written, unless a person has unsaved changes (those are never overwritten). */
  private reloadIfClean(path: string, text: string): void {
    const model = this.models.get(path);
    if (!model || model.text !== model.savedText) return;
    model.text = model.savedText = text;
    const last = lineCount(text);
    if (model.cursor.line > last) this.moveTo(model, { line: last, column: 1 });
  }

  private fire(activity: EditorActivity): void {
    for (const listener of this.activityListeners) listener(activity);
  }

  private require(path: string): EditorModel {
    const model = this.models.get(path);
    if (!model) throw new ToolError('EDITOR_NOT_OPEN', `${path} is not open in an editor.`);
    return model;
  }

  /** Put the cursor on a line and centre it, as Monaco's revealLineInCenter does. */
  private moveTo(model: EditorModel, position: Position): void {
    model.cursor = position;
    model.topLine = Math.max(1, position.line - Math.floor(this.viewportLines / 2));
  }

  private state(model: EditorModel): EditorState {
    const lines = lineCount(model.text);
    return {
      path: model.path,
      editorId: `editor:${model.path}`,
      paneId: this.layout.paneOf(model.path) ?? '',
      lineCount: lines,
      cursor: { ...model.cursor },
      selection: { start: { ...model.selection.start }, end: { ...model.selection.end } },
      visibleRange: { startLine: model.topLine, endLine: Math.min(lines, model.topLine + this.viewportLines - 1) },
      isDirty: model.text !== model.savedText,
    };
  }
}
