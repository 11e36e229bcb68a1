/**
 * The simulated IDE's window layout: ShellPort in memory, shaped like Theia's ApplicationShell.
 *
 * The window holds four areas. `left` and `right` are full-height side panels; between them a
 * centre column holds the `main` area on top and the `bottom` panel below. Each panel is a single
 * tab area (pane ID = area name) and collapses to nothing while it has no tabs. The main area is a
 * split tree like Lumino's DockLayout: leaves are panes (`main-1`, `main-2`, … never reused), inner
 * nodes are splits whose ratios sum to 1. The main area always keeps at least one pane.
 *
 * Geometry is in percent of the whole window, rounded to 2 decimals in `layout()`.
 *
 * Where the port leaves choices open:
 * - A pane "exists" when `layout()` lists it: every main pane and the panels that have tabs. A
 *   collapsed panel is PANE_NOT_FOUND for focus, close and resize, but can always be the
 *   `targetPaneId` of openContent, which is how it comes back.
 * - `targetPaneId` wins over `area` when both are given; the pane decides the area.
 * - splitDirection is ignored outside the main area, so there opening content that is already
 *   shown just activates it.
 * - Splitting off the only tab of a pane moves it to the new pane, and the emptied pane closes.
 * - Resizing a main pane along an axis no ancestor split divides, a panel's height (left/right) or
 *   the bottom panel's width changes nothing: those sizes follow from the other areas.
 * - Resizes are clamped so no pane, panel or the main area ends under MIN_SIZE, with the split
 *   ratios of the main area kept. Splits are never refused, so many nested splits can leave panes
 *   smaller than that; the clamp then never makes them smaller still.
 * - setDirty / setTitle throw PANE_NOT_FOUND for content no tab shows.
 */
import type { ContentType, PaneArea, PaneInfo, TabInfo } from '../src/contract/common.js';
import { ToolError } from '../src/contract/result.js';
import { defaultArea, MIN_PANE_PERCENT, type PaneLayout, type Placement, type ShellPort } from '../src/families/index.js';
import type { Disposable, Listener } from '../src/contract/port.js';
import {
  extent,
  insertBeside,
  leaves,
  minExtent,
  orientationOf,
  pathTo,
  placePanes,
  removePane,
  type Axis,
  type LayoutNode,
  type Pane,
  type Rect,
} from './layout-tree.js';

/** Smallest size, in percent of the window, a resize leaves any pane, panel or the main area. */
export const MIN_SIZE = MIN_PANE_PERCENT;
const DEFAULT_SIDE_WIDTH = 20;
const DEFAULT_BOTTOM_HEIGHT = 30;

type SideArea = Exclude<PaneArea, 'main'>;
const SIDE_AREAS: readonly SideArea[] = ['left', 'right', 'bottom'];

export type OpenRequest = { type: ContentType; contentId: string; title: string } & Placement;

export class SimLayout implements ShellPort {
  private root: LayoutNode = newPane('main-1', 'main');
  private readonly panels: Record<SideArea, Pane> = {
    left: newPane('left', 'left'),
    right: newPane('right', 'right'),
    bottom: newPane('bottom', 'bottom'),
  };
  /** Kept while a panel is collapsed, so it comes back at the size it had. */
  private readonly panelSize: Record<SideArea, number> = {
    left: DEFAULT_SIDE_WIDTH,
    right: DEFAULT_SIDE_WIDTH,
    bottom: DEFAULT_BOTTOM_HEIGHT,
  };
  private nextMainNumber = 2;
  private activePaneId = 'main-1';
  /** Where main-area content goes by default, even while a panel has the focus. */
  private lastMainPaneId = 'main-1';
  private readonly listeners = new Set<{ listener: Listener }>();

  // ---- ShellPort ----

  layout(): PaneLayout {
    const rects = this.rects();
    const panes = this.shownPanes().map((pane) => paneInfo(pane, rects.get(pane.id)!));
    const active = this.shownPanes().find((pane) => pane.id === this.activePaneId);
    return { panes, activePaneId: this.activePaneId, activeContentId: active && activeTab(active)?.contentId };
  }

  async openContent(request: OpenRequest): Promise<{ paneId: string }> {
    return this.change(() => ({ paneId: this.open(request).id }));
  }

  async closeContent(contentId: string): Promise<void> {
    const pane = this.paneShowing(contentId);
    this.change(() => this.removeTab(pane, contentId));
  }

  async closePane(paneId: string): Promise<string[]> {
    const pane = this.shownPane(paneId);
    return this.change(() => {
      const closed = pane.tabs.map((tab) => tab.contentId);
      pane.tabs = [];
      pane.activeIndex = -1;
      this.paneEmptied(pane);
      return closed;
    });
  }

  async focusPane(paneId: string): Promise<void> {
    const pane = this.shownPane(paneId);
    this.change(() => this.activate(pane));
  }

  async focusContent(contentId: string): Promise<{ paneId: string }> {
    const pane = this.paneShowing(contentId);
    this.change(() => this.activate(pane, contentId));
    return { paneId: pane.id };
  }

  async resizePane(paneId: string, size: { width?: number; height?: number }): Promise<void> {
    const pane = this.shownPane(paneId);
    for (const value of [size.width, size.height]) {
      if (value !== undefined && !Number.isFinite(value)) {
        throw new ToolError('INVALID_ARGUMENT', `Pane sizes must be finite percentages, got ${value}.`);
      }
    }
    this.change(() => {
      if (size.width !== undefined) this.resizeAlong(pane, 'x', size.width);
      if (size.height !== undefined) this.resizeAlong(pane, 'y', size.height);
    });
  }

  onLayoutChanged(listener: Listener): Disposable {
    const entry = { listener };
    this.listeners.add(entry);
    return { dispose: () => this.listeners.delete(entry) };
  }

  // ---- What the rest of the sim needs ----

  /** Mark the tab showing contentId as having unsaved changes or not. Throws PANE_NOT_FOUND. */
  setDirty(contentId: string, dirty: boolean): void {
    const tab = this.tabShowing(contentId);
    this.change(() => (tab.isDirty = dirty));
  }

  /** A person pins or unpins the tab showing contentId (pinned tabs outlive the agent's session). Throws PANE_NOT_FOUND. */
  setPinned(contentId: string, pinned: boolean): void {
    const tab = this.tabShowing(contentId);
    this.change(() => (pinned ? (tab.pinned = true) : delete tab.pinned));
  }

  /** Rename the tab showing contentId. Throws PANE_NOT_FOUND. */
  setTitle(contentId: string, title: string): void {
    const tab = this.tabShowing(contentId);
    this.change(() => (tab.title = title));
  }

  /** The pane whose tab shows contentId, if any. */
  paneOf(contentId: string): string | undefined {
    return this.findPaneShowing(contentId)?.id;
  }

  isOpen(contentId: string): boolean {
    return this.findPaneShowing(contentId) !== undefined;
  }

  /** The active tab of the area's pane new content would go to (main: the last focused main pane). */
  activeContentOf(area: PaneArea): string | undefined {
    return activeTab(this.recentPane(area))?.contentId;
  }

  // ---- Changes ----

  /**
   * Runs a mutation and notifies listeners if the visible layout differs afterwards. Comparing
   * snapshots keeps no-ops (focusing the focused pane, a clamped resize) silent without every
   * method tracking what it changed. Callers look everything up before mutating, so a throw
   * leaves the layout untouched.
   */
  private change<T>(mutate: () => T): T {
    const before = JSON.stringify(this.layout());
    const result = mutate();
    if (JSON.stringify(this.layout()) !== before) {
      for (const { listener } of [...this.listeners]) listener();
    }
    return result;
  }

  private open({ type, contentId, title, area, targetPaneId, splitDirection }: OpenRequest): Pane {
    const target = targetPaneId === undefined ? this.recentPane(area ?? defaultArea(type)) : this.openTarget(targetPaneId);
    const shownIn = this.findPaneShowing(contentId);
    const split = target.area === 'main' ? splitDirection : undefined;
    if (shownIn && !split) {
      this.activate(shownIn, contentId);
      return shownIn;
    }
    let pane = target;
    if (split) {
      pane = newPane(`main-${this.nextMainNumber++}`, 'main');
      this.root = insertBeside(this.root, target, pane, split === 'vertical' ? 'horizontal' : 'vertical');
    }
    const tab = shownIn ? this.removeTab(shownIn, contentId) : { contentId, type, title, isDirty: false };
    if (pane.area !== 'main' && pane.tabs.length === 0) this.fitPanel(pane.area);
    pane.tabs.push(tab);
    this.activate(pane, contentId);
    return pane;
  }

  private activate(pane: Pane, contentId?: string): void {
    if (contentId !== undefined) pane.activeIndex = pane.tabs.findIndex((tab) => tab.contentId === contentId);
    this.activePaneId = pane.id;
    if (pane.area === 'main') this.lastMainPaneId = pane.id;
  }

  private removeTab(pane: Pane, contentId: string): TabInfo {
    const index = pane.tabs.findIndex((tab) => tab.contentId === contentId);
    const [tab] = pane.tabs.splice(index, 1);
    // Like Theia: closing the active tab activates its left neighbour, else the right one.
    if (index < pane.activeIndex) pane.activeIndex -= 1;
    else if (index === pane.activeIndex) pane.activeIndex = Math.max(index - 1, 0);
    if (pane.tabs.length === 0) {
      pane.activeIndex = -1;
      this.paneEmptied(pane);
    }
    return tab!;
  }

  /** An empty panel collapses; an empty main pane leaves the tree unless it is the last one. */
  private paneEmptied(pane: Pane): void {
    if (pane.area === 'main') {
      const order = leaves(this.root);
      if (order.length === 1) return;
      const index = order.indexOf(pane);
      const neighbour = order[index - 1] ?? order[index + 1]!;
      this.root = removePane(this.root, pane.id);
      if (this.lastMainPaneId === pane.id) this.lastMainPaneId = neighbour.id;
    }
    if (this.activePaneId === pane.id) this.activePaneId = this.lastMainPaneId;
  }

  private resizeAlong(pane: Pane, axis: Axis, size: number): void {
    if (pane.area === 'main') {
      this.resizeMainPane(pane, axis, size);
      return;
    }
    if (axis !== panelAxis(pane.area)) return;
    const current = this.panelSize[pane.area];
    this.panelSize[pane.area] = clampFrom(current, size, MIN_SIZE, this.panelRoom(pane.area));
  }

  /**
   * Sets the share of the pane's branch in its nearest ancestor split along the axis. Splits in
   * between divide the other axis, so the pane is exactly as wide (or high) as that branch.
   * Siblings give or take space in proportion to their sizes; the first to reach its minimum
   * stops the resize there.
   */
  private resizeMainPane(pane: Pane, axis: Axis, size: number): void {
    const orientation = orientationOf(axis);
    const step = pathTo(this.root, pane.id)?.findLast(({ split }) => split.orientation === orientation);
    if (!step) return;
    const { split, index } = step;
    const old = split.ratios[index]!;
    const splitExtent = extent(this.rects().get(pane.id)!, axis) / old;
    const lowest = minExtent(split.children[index]!, axis) / splitExtent;
    const smallestFactor = Math.max(
      ...split.children.map((child, i) => (i === index ? 0 : minExtent(child, axis) / (splitExtent * split.ratios[i]!))),
    );
    const highest = 1 - (1 - old) * smallestFactor;
    const ratio = clampFrom(old, size / splitExtent, lowest, highest);
    split.ratios = split.ratios.map((r, i) => (i === index ? ratio : (r * (1 - ratio)) / (1 - old)));
  }

  /** A panel coming back must not push the main area under its minimum. */
  private fitPanel(area: SideArea): void {
    this.panelSize[area] = Math.max(MIN_SIZE, Math.min(this.panelSize[area], this.panelRoom(area)));
  }

  /** The largest size the panel can take while the main area keeps every pane at MIN_SIZE. */
  private panelRoom(area: SideArea): number {
    if (area === 'bottom') return 100 - minExtent(this.root, 'y');
    return 100 - this.shownSize(area === 'left' ? 'right' : 'left') - minExtent(this.root, 'x');
  }

  // ---- Lookups ----

  private shownPanes(): Pane[] {
    return [...leaves(this.root), ...SIDE_AREAS.map((area) => this.panels[area]).filter((pane) => pane.tabs.length > 0)];
  }

  private shownPane(paneId: string): Pane {
    const pane = this.shownPanes().find((p) => p.id === paneId);
    if (!pane) throw this.paneNotFound(paneId);
    return pane;
  }

  private openTarget(paneId: string): Pane {
    if (isSideArea(paneId)) return this.panels[paneId];
    return this.shownPane(paneId);
  }

  private recentPane(area: PaneArea): Pane {
    if (area !== 'main') return this.panels[area];
    return leaves(this.root).find((pane) => pane.id === this.lastMainPaneId)!;
  }

  private findPaneShowing(contentId: string): Pane | undefined {
    return this.shownPanes().find((pane) => pane.tabs.some((tab) => tab.contentId === contentId));
  }

  private paneShowing(contentId: string): Pane {
    const pane = this.findPaneShowing(contentId);
    if (!pane) throw this.contentNotFound(contentId);
    return pane;
  }

  private tabShowing(contentId: string): TabInfo {
    return this.paneShowing(contentId).tabs.find((tab) => tab.contentId === contentId)!;
  }

  private paneNotFound(paneId: string): ToolError {
    const paneIds = this.shownPanes().map((pane) => pane.id);
    return new ToolError('PANE_NOT_FOUND', `No pane "${paneId}" is open. Open panes: ${paneIds.join(', ')}.`, {
      paneIds,
    });
  }

  private contentNotFound(contentId: string): ToolError {
    const contentIds = this.shownPanes().flatMap((pane) => pane.tabs.map((tab) => tab.contentId));
    const open = contentIds.length > 0 ? contentIds.join(', ') : 'none';
    return new ToolError('PANE_NOT_FOUND', `No tab shows "${contentId}". Open content: ${open}.`, { contentIds });
  }

  // ---- Geometry ----

  private shownSize(area: SideArea): number {
    return this.panels[area].tabs.length > 0 ? this.panelSize[area] : 0;
  }

  private rects(): Map<string, Rect> {
    const left = this.shownSize('left');
    const right = this.shownSize('right');
    const bottom = this.shownSize('bottom');
    const centreWidth = 100 - left - right;
    const rects = new Map<string, Rect>([
      ['left', { x: 0, y: 0, width: left, height: 100 }],
      ['right', { x: 100 - right, y: 0, width: right, height: 100 }],
      ['bottom', { x: left, y: 100 - bottom, width: centreWidth, height: bottom }],
    ]);
    placePanes(this.root, { x: left, y: 0, width: centreWidth, height: 100 - bottom }, rects);
    return rects;
  }
}

// ---- Small helpers ----

function newPane(id: string, area: PaneArea): Pane {
  return { kind: 'pane', id, area, tabs: [], activeIndex: -1 };
}

function isSideArea(id: string): id is SideArea {
  return (SIDE_AREAS as readonly string[]).includes(id);
}

function activeTab(pane: Pane): TabInfo | undefined {
  return pane.tabs[pane.activeIndex];
}

function paneInfo(pane: Pane, rect: Rect): PaneInfo {
  return {
    id: pane.id,
    area: pane.area,
    tabs: pane.tabs.map((tab) => ({ ...tab })),
    activeTabIndex: pane.activeIndex,
    geometry: { x: round2(rect.x), y: round2(rect.y), width: round2(rect.width), height: round2(rect.height) },
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100 + 0; // + 0 turns -0 into 0
}

/**
 * `wanted` clamped to [lo, hi], with the range widened to include `current`: when the layout is
 * already tighter than the limits allow, the clamp refuses to make it worse but never forces a change.
 */
function clampFrom(current: number, wanted: number, lo: number, hi: number): number {
  return Math.min(Math.max(wanted, Math.min(lo, current)), Math.max(hi, current));
}

function panelAxis(area: SideArea): Axis {
  return area === 'bottom' ? 'y' : 'x';
}
