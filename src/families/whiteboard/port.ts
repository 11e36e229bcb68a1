import type { Placement } from '../pane/port.js';

/** A whiteboard view's camera: the scene point at the centre of the view, and the zoom (1 = 100%). */
export interface Camera {
  x: number;
  y: number;
  zoom: number;
}

/**
 * The views of `.whiteboard.json` boards (TECHSPEC §5.3). The board is the file (an Excalidraw
 * scene): a view shows it, renders again when the file changes, and writes a person's edits to it
 * through the WorkspacePort, so agent and person edit one versioned file.
 */
export interface WhiteboardPort {
  /** Open the board's view (or reveal the open one); placement applies when it is not open yet. */
  open(whiteboardId: string, placement?: Placement): Promise<{ paneId: string }>;
  /** The boards open in a view. */
  openBoards(): string[];
  /** The view's camera, or undefined when no tab shows the board. */
  camera(whiteboardId: string): Camera | undefined;
  /** The size of the view in screen pixels (for fitting), or undefined when not open. */
  viewport(whiteboardId: string): { width: number; height: number } | undefined;
  /** Point the view; it holds while the view is resized, until a person moves it. */
  setCamera(whiteboardId: string, camera: Camera): Promise<void>;
  /**
   * Show these scene bounds whole (see fitCamera in src/models/board-layout.ts), and keep them
   * fitted while the view is resized, until a person moves it.
   */
  fitCamera(whiteboardId: string, bounds: { x: number; y: number; width: number; height: number } | undefined): Promise<void>;
}
