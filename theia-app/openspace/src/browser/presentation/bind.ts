import type { interfaces } from '@theia/core/shared/inversify';
import { OpenHandler } from '@theia/core/lib/browser/opener-service';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { RemoteWorkspacePort } from '../remote-workspace-port.js';
import { PresentationWidget } from './presentation-widget.js';
import { PresentationOpenHandler, TheiaPresentationPort, type PresentationWidgetOptions } from './theia-presentation-port.js';

export function bindPresentations(bind: interfaces.Bind): void {
  bind(WidgetFactory)
    .toDynamicValue((ctx) => ({
      id: PresentationWidget.FACTORY_ID,
      createWidget: (options: PresentationWidgetOptions) => new PresentationWidget(options.path, ctx.container.get(RemoteWorkspacePort)),
    }))
    .inSingletonScope();
  bind(PresentationOpenHandler).toSelf().inSingletonScope();
  bind(OpenHandler).toService(PresentationOpenHandler);
  bind(TheiaPresentationPort).toSelf().inSingletonScope();
}
