import { inject, injectable } from '@theia/core/shared/inversify';
import { WidgetManager } from '@theia/core/lib/browser/widget-manager';
import type { Camera, Placement, WhiteboardPort, Bounds } from '../../../../../src/browser.js';
import { BOARD_SUFFIX } from '../../../../../src/browser.js';
import { FileViewOpenHandler, placeView, shownView } from '../file-views.js';
import { TheiaShellPort } from '../theia-shell-port.js';
import { WhiteboardWidget } from './whiteboard-widget.js';

/** Opens `.whiteboard.json` files in Excalidraw. */
@injectable()
export class WhiteboardOpenHandler extends FileViewOpenHandler<WhiteboardWidget> {
  readonly id = WhiteboardWidget.FACTORY_ID;
  readonly label = 'Whiteboard';
  protected readonly suffix = BOARD_SUFFIX;
}

/** Whiteboard views over Theia's shell: one Excalidraw widget per board, made by the widget manager. */
@injectable()
export class TheiaWhiteboardPort implements WhiteboardPort {
  @inject(WidgetManager) protected readonly widgets!: WidgetManager;
  @inject(TheiaShellPort) protected readonly shell!: TheiaShellPort;

  async open(whiteboardId: string, placement?: Placement): Promise<{ paneId: string }> {
    const widget = await this.widgets.getOrCreateWidget<WhiteboardWidget>(WhiteboardWidget.FACTORY_ID, { path: whiteboardId });
    return placeView(this.shell, widget, placement);
  }

  openBoards(): string[] {
    return this.widgets
      .getWidgets(WhiteboardWidget.FACTORY_ID)
      .map((w) => (w as WhiteboardWidget).path)
      .filter((path) => this.shown(path) !== undefined);
  }

  camera(whiteboardId: string): Camera | undefined {
    return this.shown(whiteboardId)?.camera();
  }

  viewport(whiteboardId: string): { width: number; height: number } | undefined {
    return this.shown(whiteboardId)?.viewport();
  }

  async setCamera(whiteboardId: string, camera: Camera): Promise<void> {
    await this.shown(whiteboardId)?.setCamera(camera);
  }

  async fitCamera(whiteboardId: string, bounds: Bounds | undefined): Promise<void> {
    await this.shown(whiteboardId)?.fitTo(bounds);
  }

  /** The board's widget while a tab shows it. */
  shown(whiteboardId: string): WhiteboardWidget | undefined {
    return shownView(this.widgets, this.shell, WhiteboardWidget, whiteboardId);
  }
}
