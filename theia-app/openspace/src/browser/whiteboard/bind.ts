import type { interfaces } from '@theia/core/shared/inversify';
import { OpenHandler } from '@theia/core/lib/browser/opener-service';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { ContentIds } from '../content-ids.js';
import { RemoteWorkspacePort } from '../remote-workspace-port.js';
import { WhiteboardWidget } from './whiteboard-widget.js';
import { TheiaWhiteboardPort, WhiteboardOpenHandler, type WhiteboardWidgetOptions } from './theia-whiteboard-port.js';

export function bindWhiteboards(bind: interfaces.Bind): void {
  bind(WidgetFactory)
    .toDynamicValue((ctx) => ({
      id: WhiteboardWidget.FACTORY_ID,
      createWidget: (options: WhiteboardWidgetOptions) => {
        const uri = ctx.container.get(ContentIds).uriOf(options.path);
        const files = ctx.container.get(FileService);
        // Changes made outside OpenSpace's store (a person saving the file as text, git) come from Theia's file watcher.
        const onDiskChange = (listener: () => void) => files.onDidFilesChange((e) => e.contains(uri) && listener());
        return new WhiteboardWidget(options.path, ctx.container.get(RemoteWorkspacePort), onDiskChange);
      },
    }))
    .inSingletonScope();
  bind(WhiteboardOpenHandler).toSelf().inSingletonScope();
  bind(OpenHandler).toService(WhiteboardOpenHandler);
  bind(TheiaWhiteboardPort).toSelf().inSingletonScope();
}
