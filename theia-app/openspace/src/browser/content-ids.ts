import { inject, injectable } from '@theia/core/shared/inversify';
import type { Widget } from '@theia/core/lib/browser/widgets';
import URI from '@theia/core/lib/common/uri';
import { EditorWidget } from '@theia/editor/lib/browser/editor-widget';
import { TerminalWidget } from '@theia/terminal/lib/browser/base/terminal-widget';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { ToolError, type ContentType } from '../../../../src/browser.js';
import { PresentationWidget } from './presentation/presentation-widget.js';
import { WhiteboardWidget } from './whiteboard/whiteboard-widget.js';
import { proposalIdOf, proposalOf } from './proposal-uri.js';

/** How a widget is named to an agent: a workspace-relative path for editors, the terminal ID, a view ID otherwise. */
@injectable()
export class ContentIds {
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;

  get rootUri(): URI | undefined {
    return this.workspace.tryGetRoots()[0]?.resource;
  }

  /** The workspace root as a file-system path; NO_WORKSPACE when no folder is open. */
  get rootPath(): string {
    return this.requireRoot().path.fsPath();
  }

  uriOf(path: string): URI {
    const root = this.requireRoot();
    return path === '' ? root : root.resolve(path);
  }

  private requireRoot(): URI {
    const root = this.rootUri;
    if (!root) {
      throw new ToolError(
        'NO_WORKSPACE',
        'No folder is open in this IDE, so there are no workspace files. Ask the person to open one (File → Open Folder), then retry.',
      );
    }
    return root;
  }

  pathOf(uri: URI): string {
    const root = this.rootUri;
    const relative = root?.relative(uri);
    return relative !== undefined ? relative.toString() : uri.path.fsPath();
  }

  typeOf(widget: Widget): ContentType {
    if (proposalIdOf(widget)) return 'view';
    if (widget instanceof EditorWidget) return 'editor';
    if (widget instanceof TerminalWidget) return 'terminal';
    if (widget instanceof PresentationWidget) return 'presentation';
    if (widget instanceof WhiteboardWidget) return 'whiteboard';
    return 'view';
  }

  idOf(widget: Widget): string {
    // A proposal's diff, as the simulated IDE names it.
    const proposal = proposalOf(widget);
    if (proposal) return `proposal:${proposal.proposalId}:${proposal.path}`;
    if (widget instanceof EditorWidget) return this.pathOf(widget.editor.uri);
    if (widget instanceof PresentationWidget || widget instanceof WhiteboardWidget) return widget.path;
    return widget.id;
  }
}
