import type { interfaces } from '@theia/core/shared/inversify';
import { OpenHandler } from '@theia/core/lib/browser/opener-service';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { RemoteWorkspacePort } from '../remote-workspace-port.js';
import { WhiteboardWidget } from './whiteboard-widget.js';
import { TheiaWhiteboardPort, WhiteboardOpenHandler, type WhiteboardWidgetOptions } from './theia-whiteboard-port.js';

export function bindWhiteboards(bind: interfaces.Bind): void {
  bind(WidgetFactory)
    .toDynamicValue((ctx) => ({
      id: WhiteboardWidget.FACTORY_ID,
      createWidget: (options: WhiteboardWidgetOptions) => new WhiteboardWidget(options.path, ctx.container.get(RemoteWorkspacePort)),
    }))
    .inSingletonScope();
  bind(WhiteboardOpenHandler).toSelf().inSingletonScope();
  bind(OpenHandler).toService(WhiteboardOpenHandler);
  bind(TheiaWhiteboardPort).toSelf().inSingletonScope();
}
