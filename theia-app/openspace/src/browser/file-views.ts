import { inject, injectable, type interfaces } from '@theia/core/shared/inversify';
import { OpenHandler } from '@theia/core/lib/browser/opener-service';
import { WidgetFactory, type WidgetManager } from '@theia/core/lib/browser/widget-manager';
import { WidgetOpenHandler } from '@theia/core/lib/browser/widget-open-handler';
import type { BaseWidget } from '@theia/core/lib/browser/widgets/widget';
import type URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import type { Disposable, Placement, WorkspacePort } from '../../../../src/browser.js';
import { ContentIds } from './content-ids.js';
import { RemoteWorkspacePort } from './remote-workspace-port.js';
import type { TheiaShellPort } from './theia-shell-port.js';

/** What the widget manager keys a file view by: the file's workspace-relative path. */
export interface FileViewOptions {
  path: string;
}

/** A view of one workspace file that shows its every change: a deck's slides, a board's Excalidraw scene. */
export interface FileViewClass<W extends BaseWidget> {
  readonly FACTORY_ID: string;
  /** `onFileText`: every new text of the file, whoever changed it. */
  new (path: string, workspace: WorkspacePort, onFileText: (listener: (text: string) => void) => Disposable): W;
}

/** Opens files whose name ends in `suffix` in their view (the explorer, Open With, Quick Open); "Open With → Text Editor" still shows the text. */
@injectable()
export abstract class FileViewOpenHandler<W extends BaseWidget> extends WidgetOpenHandler<W> {
  protected abstract readonly suffix: string;
  @inject(ContentIds) protected readonly ids!: ContentIds;

  canHandle(uri: URI): number {
    return uri.path.base.endsWith(this.suffix) ? 200 : 0;
  }

  protected createWidgetOptions(uri: URI): FileViewOptions {
    return { path: this.ids.pathOf(uri) };
  }
}

/** Binds a file view's widget factory and open handler. */
export function bindFileView<W extends BaseWidget>(
  bind: interfaces.Bind,
  View: FileViewClass<W>,
  Handler: interfaces.Newable<FileViewOpenHandler<W>>,
): void {
  bind(WidgetFactory)
    .toDynamicValue((ctx) => ({
      id: View.FACTORY_ID,
      createWidget: ({ path }: FileViewOptions) => {
        const uri = ctx.container.get(ContentIds).uriOf(path);
        const files = ctx.container.get(FileService);
        const workspace = ctx.container.get(RemoteWorkspacePort);
        const onFileText = (listener: (text: string) => void): Disposable => {
          // Writes through the store come with their text, at once; changes made outside it (a
          // person saving the file as text, git) come from Theia's file watcher, and are read.
          // The watcher also reports the store's own writes a moment later: the text the view already has is not given again.
          let last: string | undefined;
          const deliver = (text: string) => {
            last = text;
            listener(text);
          };
          const written = workspace.onFileWritten((changed, text) => changed === path && deliver(text));
          const outside = files.onDidFilesChange((e) => {
            if (e.contains(uri))
              workspace.readText(path).then(
                ({ text }) => text !== last && deliver(text),
                () => undefined,
              );
          });
          return { dispose: () => (written.dispose(), outside.dispose()) };
        };
        return new View(path, workspace, onFileText);
      },
    }))
    .inSingletonScope();
  bind(Handler).toSelf().inSingletonScope();
  bind(OpenHandler).toService(Handler);
}

/** A file's view while a tab shows it (not closed, nor closing). */
export function shownView<W extends BaseWidget>(
  widgets: WidgetManager,
  shell: TheiaShellPort,
  View: FileViewClass<W>,
  path: string,
): W | undefined {
  const widget = widgets.tryGetWidget<W>(View.FACTORY_ID, { path });
  return widget && !widget.isDisposed && !shell.isClosing(widget) && shell.paneOf(widget) !== undefined ? widget : undefined;
}

/** Put a file's view in a tab (placement applies when it is not shown yet); it takes the focus once the command has answered. */
export async function placeView(shell: TheiaShellPort, widget: BaseWidget, placement: Placement = {}): Promise<{ paneId: string }> {
  await shell.place(widget, 'main', placement, { waitForFocus: false });
  // The next command waits for the focus (settled).
  shell.activateSoon(widget);
  return { paneId: shell.paneOf(widget)! };
}
