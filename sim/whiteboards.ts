import type { Camera, Placement, WhiteboardPort } from '../src/families/index.js';
import type { Disposable } from '../src/contract/port.js';
import type { SimLayout } from './layout.js';
import { fitCamera, type Bounds } from '../src/models/board-layout.js';

/** The size the simulated IDE's whiteboard views have, in screen pixels. */
export const SIM_WHITEBOARD_VIEWPORT = { width: 1280, height: 800 };

/** Whiteboard views of the simulated IDE: a tab per open board, each with its camera. */
export class SimWhiteboards implements WhiteboardPort, Disposable {
  private readonly cameras = new Map<string, Camera>();
  private readonly subscription: Disposable;

  constructor(private readonly layout: SimLayout) {
    this.subscription = layout.onLayoutChanged(() => {
      for (const path of this.cameras.keys()) if (!layout.isOpen(path)) this.cameras.delete(path);
    });
  }

  async open(whiteboardId: string, placement?: Placement): Promise<{ paneId: string }> {
    const title = whiteboardId.split('/').pop() ?? whiteboardId;
    const shown = await this.layout.openContent({ type: 'whiteboard', contentId: whiteboardId, title, ...placement });
    if (!this.cameras.has(whiteboardId)) this.cameras.set(whiteboardId, { x: 0, y: 0, zoom: 1 });
    return shown;
  }

  openBoards(): string[] {
    return [...this.cameras.keys()].filter((path) => this.layout.isOpen(path));
  }

  camera(whiteboardId: string): Camera | undefined {
    const camera = this.layout.isOpen(whiteboardId) ? this.cameras.get(whiteboardId) : undefined;
    return camera && { ...camera };
  }

  viewport(whiteboardId: string): { width: number; height: number } | undefined {
    return this.camera(whiteboardId) && { ...SIM_WHITEBOARD_VIEWPORT };
  }

  async setCamera(whiteboardId: string, camera: Camera): Promise<void> {
    if (this.cameras.has(whiteboardId)) this.cameras.set(whiteboardId, { ...camera });
  }

  async fitCamera(whiteboardId: string, bounds: Bounds | undefined): Promise<void> {
    await this.setCamera(whiteboardId, fitCamera(bounds, SIM_WHITEBOARD_VIEWPORT));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
