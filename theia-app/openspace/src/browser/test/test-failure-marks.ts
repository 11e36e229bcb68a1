import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { EditorDecorator } from '@theia/editor/lib/browser/decorations/editor-decorator';
import type { EditorDecoration } from '@theia/editor/lib/browser/decorations/editor-decoration';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import type { TextEditor } from '@theia/editor/lib/browser/editor';
import type { TestRunInfo } from '../../../../../src/browser.js';
import { ContentIds } from '../content-ids.js';

/**
 * The failing assertions of the last test run, marked where they are: a red mark in the gutter of
 * the line, and the failure's message on hover, in every editor of those files (open now or
 * later). The next run's failures replace them; a green run clears them.
 */
@injectable()
export class TestFailureMarks extends EditorDecorator {
  @inject(EditorManager) protected readonly editors!: EditorManager;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  /** Workspace path → the failures in it. */
  private failures = new Map<string, { line: number; message: string }[]>();

  @postConstruct()
  protected init(): void {
    // Marks set while Theia is still making an editor do not show: set once it is made, and when it becomes active.
    this.editors.onCreated((widget) => setTimeout(() => this.mark(widget.editor), 100));
    this.editors.onActiveEditorChanged((widget) => widget && this.mark(widget.editor));
  }

  show(run: TestRunInfo): void {
    this.failures = new Map();
    for (const test of run.tests) {
      const { failure } = test;
      if (test.status !== 'failed' || !failure?.path || !failure.line) continue;
      const list = this.failures.get(failure.path) ?? [];
      list.push({ line: failure.line, message: `${test.name}: ${failure.message}` });
      this.failures.set(failure.path, list);
    }
    for (const widget of this.editors.all) this.mark(widget.editor);
  }

  private mark(editor: TextEditor): void {
    const marks = this.failures.get(this.ids.pathOf(editor.uri)) ?? [];
    const decorations: EditorDecoration[] = marks.map(({ line, message }) => ({
      range: { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: 0 } },
      options: {
        isWholeLine: true,
        className: 'openspace-test-failure-line',
        glyphMarginClassName: 'codicon codicon-error openspace-test-failure',
        glyphMarginHoverMessage: message,
      },
    }));
    this.setDecorations(editor, decorations);
  }
}
