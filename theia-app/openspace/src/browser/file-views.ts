import { inject, injectable, type interfaces } from '@theia/core/shared/inversify';
import { OpenHandler } from '@theia/core/lib/browser/opener-service';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { WidgetOpenHandler } from '@theia/core/lib/browser/widget-open-handler';
import type { BaseWidget } from '@theia/core/lib/browser/widgets/widget';
import type URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import type { Disposable, WorkspacePort } from '../../../../src/contract/port.js';
import { ContentIds } from './content-ids.js';
import { RemoteWorkspacePort } from './remote-workspace-port.js';

/** What the widget manager keys a file view by: the file's workspace-relative path. */
export interface FileViewOptions {
  path: string;
}

/** A view of one workspace file that shows its every change: a deck's slides, a board's Excalidraw scene. */
export interface FileViewClass<W extends BaseWidget> {
  readonly FACTORY_ID: string;
  new (path: string, workspace: WorkspacePort, onDiskChange: (listener: () => void) => Disposable): W;
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
      createWidget: (options: FileViewOptions) => {
        const uri = ctx.container.get(ContentIds).uriOf(options.path);
        const files = ctx.container.get(FileService);
        // Changes made outside OpenSpace's store (a person saving the file as text, git) come from Theia's file watcher.
        const onDiskChange = (listener: () => void) => files.onDidFilesChange((e) => e.contains(uri) && listener());
        return new View(options.path, ctx.container.get(RemoteWorkspacePort), onDiskChange);
      },
    }))
    .inSingletonScope();
  bind(Handler).toSelf().inSingletonScope();
  bind(OpenHandler).toService(Handler);
}
