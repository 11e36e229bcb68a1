import { ContextKeyService, type ContextKey } from '@theia/core/lib/browser/context-key-service';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { Emitter } from '@theia/core/lib/common/event';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import type { EditorWidget } from '@theia/editor/lib/browser/editor-widget';
import { MonacoEditor } from '@theia/monaco/lib/browser/monaco-editor';
import * as monaco from '@theia/monaco-editor-core';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ToolError, HighlightRegistry } from '../../../../src/browser.js';
import type {
  Disposable,
  EditorActivity,
  EditorPort,
  EditorState,
  Highlight,
  Placement,
  Position,
  TextEdit,
} from '../../../../src/browser.js';
import { ContentIds } from './content-ids.js';
import { isDiffEditor } from './proposal-uri.js';
import { RemoteWorkspacePort } from './remote-workspace-port.js';
import { TheiaShellPort } from './theia-shell-port.js';

/** Context key that lets Escape clear the agent's highlights in the focused editor (AC-3.2.3). */
export const HAS_AGENT_HIGHLIGHTS = 'openspace.editorHasAgentHighlights';
/**
 * How often a clean editor reads a written file again to show it. More than once only when the
 * file watcher's own sync cancelled the last; the text differs for good only where Monaco changes
 * it (mixed line endings), and then the editor shows the file as Monaco reads it all the same.
 */
const SYNC_TRIES = 3;

interface LiveHighlight extends Highlight {
  decorations: monaco.editor.IEditorDecorationsCollection;
}

/** Editors over EditorManager and Monaco: reveal in the centre, decorations keyed by highlight ID. */
@injectable()
export class TheiaEditorPort implements EditorPort {
  @inject(EditorManager) protected readonly editors!: EditorManager;
  @inject(TheiaShellPort) protected readonly shell!: TheiaShellPort;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(RemoteWorkspacePort) protected readonly workspace!: RemoteWorkspacePort;
  @inject(ContextKeyService) protected readonly contextKeys!: ContextKeyService;

  private readonly live = new HighlightRegistry<LiveHighlight>((highlight) => {
    highlight.decorations.clear();
    this.updateContextKey();
  });
  private readonly classes = new Map<string, string>();
  private hasHighlights!: ContextKey<boolean>;
  private styles!: HTMLStyleElement;
  private readonly activity = new Emitter<EditorActivity>();
  private readonly openFilesChanged = new Emitter<void>();
  /** Fires when a file's editor opens or closes, or its unsaved state flips (openFiles). */
  readonly onOpenFilesChanged = this.openFilesChanged.event;
  /** The documents whose saves and edits are watched (a document may show in several editors). */
  private readonly watchedDocuments = new WeakSet<object>();
  /** The path whose buffer applyEdit is changing now: that change is the agent's, not the person's. */
  private applying: string | undefined;

  @postConstruct()
  protected init(): void {
    this.hasHighlights = this.contextKeys.createKey<boolean>(HAS_AGENT_HIGHLIGHTS, false);
    this.styles = document.head.appendChild(document.createElement('style'));
    this.editors.onCreated((widget) => {
      if (!isDiffEditor(widget)) this.watch(widget);
    });
    this.editors.onCurrentEditorChanged(() => this.updateContextKey());
    // A write through the file service shows in a clean editor before it answers, without waiting for the file watcher.
    this.workspace.onFileWritten(async (path, text) => {
      const model = this.monacoOf(path)?.document;
      // A sync the file watcher starts meanwhile (for this write or an earlier one) cancels this one,
      // which then ends without showing anything: read the file again until the editor shows it.
      for (let tries = 0; model && !model.dirty && tries < SYNC_TRIES; tries++) {
        await model.sync();
        if (model.getText() === text) return;
      }
    });
  }

  async open(path: string, options: { placement?: Placement; selection?: { start: Position; end: Position } }): Promise<EditorState> {
    const uri = this.ids.uriOf(path);
    const selection = options.selection && {
      start: { line: options.selection.start.line - 1, character: options.selection.start.column - 1 },
      end: { line: options.selection.end.line - 1, character: options.selection.end.column - 1 },
    };
    const placement = options.placement ?? {};
    const existing = this.widgetOf(path);
    if (!existing) {
      const widgetOptions = this.shell.widgetOptions('main', placement);
      return this.stateOf(await this.editors.open(uri, { mode: 'activate', selection, revealOption: 'center', widgetOptions }));
    }
    await this.shell.place(existing, 'main', placement);
    if (selection) {
      existing.editor.selection = { ...selection, direction: 'ltr' } as never;
      this.monacoOf(path)
        ?.getControl()
        .revealLineInCenter(selection.start.line + 1);
    }
    return this.stateOf(existing);
  }

  /**
   * Creating a Monaco editor (its model read over RPC, its options resolved from the preferences)
   * and laying it out take most of a pane.open on this Theia. Into a pane that exists, the answer
   * needs neither: the editor is created and shown right after it. A new pane (a split, an empty
   * editor area) gets its ID from the tab bar, so the editor is created first; only showing it waits.
   */
  async show(path: string, placement: Placement): Promise<{ paneId: string }> {
    const existing = this.widgetOf(path);
    if (existing) return { paneId: (await this.open(path, { placement })).paneId };
    const uri = this.ids.uriOf(path);
    const widgetOptions = this.shell.widgetOptions('main', placement);
    const paneId = widgetOptions.mode === 'tab-after' && widgetOptions.ref ? this.shell.paneOf(widgetOptions.ref) : undefined;
    if (paneId) {
      this.shell.afterAnswer(async () => this.shell.activateSoon(await this.editors.open(uri, { mode: 'open', widgetOptions })));
      return { paneId };
    }
    const widget = await this.editors.open(uri, { mode: 'open', widgetOptions });
    this.shell.activateSoon(widget);
    return { paneId: this.shell.paneOf(widget)! };
  }

  get(path: string): EditorState | undefined {
    const widget = this.widgetOf(path);
    return widget && this.stateOf(widget);
  }

  list(): EditorState[] {
    return this.fileEditors().map((w) => this.stateOf(w));
  }

  current(): string | undefined {
    const widget = this.editors.currentEditor;
    return widget && !isDiffEditor(widget) ? this.ids.pathOf(widget.editor.uri) : undefined;
  }

  async close(path: string): Promise<void> {
    this.live.clearPath(path);
    const widget = this.widgetOf(path);
    if (widget) await this.shell.closeContent(path);
  }

  async reveal(path: string, position: Position): Promise<EditorState> {
    const widget = this.require(path);
    widget.editor.cursor = { line: position.line - 1, character: position.column - 1 };
    this.monacoOf(path)?.getControl().revealLineInCenter(position.line);
    // Monaco has the new visible range at once; its tab takes the focus after the answer.
    this.shell.activateSoon(widget);
    return this.stateOf(widget);
  }

  /** The files open in text editors, each with whether it has unsaved changes: what the backend keeps of the window. */
  openFiles(): { path: string; isDirty: boolean }[] {
    return this.fileEditors().map((w) => ({ path: this.ids.pathOf(w.editor.uri), isDirty: w.editor.document.dirty }));
  }

  text(path: string): string | undefined {
    return this.widgetOf(path)?.editor.document.getText();
  }

  async discard(path: string): Promise<void> {
    await this.monacoOf(path)?.document.revert();
  }

  async applyEdit(path: string, edit: TextEdit): Promise<void> {
    const editor = this.monacoOf(path);
    if (!editor) throw new ToolError('EDITOR_NOT_OPEN', `${path} is not open in an editor.`);
    const control = editor.getControl();
    const range = new monaco.Range(edit.start.line, edit.start.column, edit.end.line, edit.end.column);
    this.applying = path;
    try {
      // Its own undo step: Ctrl+Z takes back this edit, and only this edit.
      control.pushUndoStop();
      control.executeEdits('openspace', [{ range, text: edit.text, forceMoveMarkers: true }]);
      control.pushUndoStop();
    } finally {
      this.applying = undefined;
    }
  }

  onActivity(listener: (activity: EditorActivity) => void): Disposable {
    return this.activity.event(listener);
  }

  async setHighlight(highlight: Highlight): Promise<void> {
    const editor = this.monacoOf(highlight.path);
    if (!editor) throw new ToolError('EDITOR_NOT_OPEN', `${highlight.path} is not open in an editor.`);
    const className = this.classFor(highlight.color);
    const decorations = editor.getControl().createDecorationsCollection(
      highlight.ranges.map((r) => ({
        range: new monaco.Range(r.startLine, r.startColumn ?? 1, r.endLine, r.endColumn ?? Number.MAX_SAFE_INTEGER),
        options: {
          className: `openspace-highlight ${className}`,
          isWholeLine: r.startColumn === undefined && r.endColumn === undefined,
          overviewRuler: { color: highlight.color, position: monaco.editor.OverviewRulerLane.Full },
          stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
        },
      })),
    );
    this.live.set({ ...highlight, decorations });
    // The person should see what the agent points at: scroll to it unless it is already in view.
    const first = highlight.ranges[0]!;
    editor.getControl().revealRangeInCenterIfOutsideViewport(new monaco.Range(first.startLine, 1, first.endLine, 1));
    this.updateContextKey();
  }

  async removeHighlight(highlightId: string): Promise<void> {
    this.live.remove(highlightId);
  }

  highlights(): Highlight[] {
    return this.live.list();
  }

  /** Escape in an editor: clear the agent's highlights shown there. */
  clearHighlightsInCurrentEditor(): string[] {
    return this.live.clearPath(this.current());
  }

  // ---------------------------------------------------------------------------------------------

  private watch(widget: EditorWidget): void {
    const toDispose = new DisposableCollection();
    const monacoEditor = MonacoEditor.get(widget);
    if (monacoEditor) {
      toDispose.push(
        monacoEditor.document.onDirtyChanged(() => {
          this.shell.notify();
          this.openFilesChanged.fire();
        }),
      );
      const path = () => this.ids.pathOf(widget.editor.uri);
      // What the person does: their keys and clicks move the selection (an agent's reveal is the API's).
      toDispose.push(
        monacoEditor.getControl().onDidChangeCursorSelection((e) => {
          if (e.source !== 'keyboard' && e.source !== 'mouse') return;
          const { startLineNumber, startColumn, endLineNumber, endColumn } = e.selection;
          const selection = { start: { line: startLineNumber, column: startColumn }, end: { line: endLineNumber, column: endColumn } };
          this.activity.fire({ kind: 'selection', path: path(), selection });
        }),
      );
      const document = monacoEditor.document;
      if (!this.watchedDocuments.has(document)) {
        this.watchedDocuments.add(document);
        // Once per document: typing (not an agent's applyEdit, not a reload from disk) and saving.
        document.textEditorModel.onDidChangeContent((e) => {
          if (!e.isFlush && this.applying !== path()) this.activity.fire({ kind: 'edited', path: path() });
        });
        document.onDidSaveModel(() => this.activity.fire({ kind: 'saved', path: path() }));
      }
    }
    widget.disposed.connect(() => {
      toDispose.dispose();
      this.live.clearPath(this.ids.pathOf(widget.editor.uri));
      this.openFilesChanged.fire();
    });
    this.openFilesChanged.fire();
  }

  private updateContextKey(): void {
    const path = this.current();
    this.hasHighlights.set(this.live.has(path));
  }

  /** One CSS class per colour, so an agent's colour choice becomes a background. */
  private classFor(color: string): string {
    let name = this.classes.get(color);
    if (!name) {
      name = `openspace-highlight-${this.classes.size}`;
      this.classes.set(color, name);
      this.styles.sheet?.insertRule(`.monaco-editor .${name} { background-color: ${color}; }`);
    }
    return name;
  }

  private widgetOf(path: string): EditorWidget | undefined {
    return this.fileEditors().find((w) => this.ids.pathOf(w.editor.uri) === path);
  }

  /** The editors of files (not diffs), but those closing. */
  private fileEditors(): EditorWidget[] {
    return this.editors.all.filter((w) => !this.shell.isClosing(w) && !isDiffEditor(w));
  }

  private require(path: string): EditorWidget {
    const widget = this.widgetOf(path);
    if (!widget) throw new ToolError('EDITOR_NOT_OPEN', `${path} is not open in an editor.`);
    return widget;
  }

  private monacoOf(path: string): MonacoEditor | undefined {
    const widget = this.widgetOf(path);
    return widget && MonacoEditor.get(widget);
  }

  private stateOf(widget: EditorWidget): EditorState {
    const editor = widget.editor;
    const path = this.ids.pathOf(editor.uri);
    const control = MonacoEditor.get(widget)?.getControl();
    const visible = control?.getVisibleRanges()[0];
    // An editor in a background tab may have no view state yet: Monaco answers null for its position
    // and selection (Theia's own cursor getter then throws); it starts at the top, as it will show.
    const position = control?.getPosition() ?? { lineNumber: 1, column: 1 };
    const selection = control?.getSelection() ?? {
      startLineNumber: position.lineNumber,
      startColumn: position.column,
      endLineNumber: position.lineNumber,
      endColumn: position.column,
    };
    const lines = editor.document.lineCount;
    return {
      path,
      editorId: widget.id,
      paneId: this.shell.paneOf(widget) ?? '',
      lineCount: lines,
      cursor: { line: position.lineNumber, column: position.column },
      selection: {
        start: { line: selection.startLineNumber, column: selection.startColumn },
        end: { line: selection.endLineNumber, column: selection.endColumn },
      },
      visibleRange: visible
        ? { startLine: visible.startLineNumber, endLine: visible.endLineNumber }
        : { startLine: 1, endLine: Math.min(lines, 1) },
      isDirty: editor.document.dirty,
    };
  }
}
