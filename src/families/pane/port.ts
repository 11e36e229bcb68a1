import type { Disposable, Listener } from '../../contract/port.js';
import type { ContentType, PaneArea, PaneInfo } from '../../contract/index.js';

/** The smallest share of the window, in percent, a resize leaves any pane (both IDEs clamp to it). */
export const MIN_PANE_PERCENT = 5;

/** Where content goes when its placement names no area: terminals to the bottom panel, the rest to the main area. */
export function defaultArea(type: ContentType): PaneArea {
  return type === 'terminal' ? 'bottom' : 'main';
}

/** Where new content goes. Omitted fields mean: the content type's default area, its active pane, no split. */
export interface Placement {
  area?: PaneArea;
  targetPaneId?: string;
  /** 'vertical': a new pane to the right of the target; 'horizontal': a new pane below it. */
  splitDirection?: 'horizontal' | 'vertical';
}

export interface PaneLayout {
  panes: PaneInfo[];
  activePaneId?: string;
  activeContentId?: string;
}

/** PaneService (TECHSPEC §3.3): the layout of the IDE window. */
export interface ShellPort {
  /** Every pane with its tabs and geometry (which an IDE may have to measure). */
  layout(): PaneLayout;
  /**
   * For an IDE that shows or closes tabs after a command answered (Theia): resolves once that work
   * of the commands so far is done, without hurrying it. Absent where commands finish their view
   * work before answering.
   */
  viewWorkDone?(): Promise<void>;
  /** Whether a tab shows this content now; measures nothing. */
  isOpen(contentId: string): boolean;
  /**
   * Show content. If it is already open and no split is asked for, its tab is activated where it is;
   * with a split, it moves to the new pane. Returns the pane that shows it.
   */
  openContent(request: { type: ContentType; contentId: string; title: string } & Placement): Promise<{ paneId: string }>;
  /** Close the tab showing contentId. Throws PANE_NOT_FOUND if no tab shows it. */
  closeContent(contentId: string): Promise<void>;
  /** Close a pane and every tab in it; returns the content IDs closed. Throws PANE_NOT_FOUND. */
  closePane(paneId: string): Promise<string[]>;
  focusPane(paneId: string): Promise<void>;
  /** Activate and focus the tab showing contentId; returns its pane. Throws PANE_NOT_FOUND. */
  focusContent(contentId: string): Promise<{ paneId: string }>;
  /** Resize to percentages of the window; clamps so no pane falls under 5%. Throws PANE_NOT_FOUND. */
  resizePane(paneId: string, size: { width?: number; height?: number }): Promise<void>;
  /** Fires after every layout change: open, close, focus, resize, split, dirty state, title. */
  onLayoutChanged(listener: Listener): Disposable;
}
