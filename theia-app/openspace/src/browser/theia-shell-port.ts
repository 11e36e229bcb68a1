import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { Saveable } from '@theia/core/lib/browser/saveable';
import type { DockLayout, TabBar, Widget } from '@theia/core/lib/browser/widgets';
import { MessageLoop } from '@theia/core/shared/@lumino/messaging';
import { isPinned } from '@theia/core/lib/browser/widgets/widget';
import { Emitter } from '@theia/core/lib/common/event';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import {
  ToolError,
  type ContentType,
  type Geometry,
  type PaneArea,
  type PaneInfo,
  defaultArea,
  MIN_PANE_PERCENT,
  type Disposable,
  type Listener,
  type PaneLayout,
  type Placement,
  type ShellPort,
} from '../../../../src/browser.js';
import { ContentIds } from './content-ids.js';

interface Pane {
  id: string;
  area: PaneArea;
  widgets: Widget[];
  current: Widget | undefined;
  /** Element whose box is the pane's tab strip, and one whose box is its content. */
  boxes: Element[];
}

/** How long view work lets a command's answer travel before it starts, unless another command comes first. */
const ANSWER_TRAVEL_MS = 30;

/**
 * PaneService (FR-3.1) over Theia's ApplicationShell: panes are tab bars — `main-N` in the editor
 * area, `bottom`/`bottom-N` in the bottom panel, `left` and `right` for the side panels — with
 * geometry in percent of the window measured from the DOM.
 */
@injectable()
export class TheiaShellPort implements ShellPort {
  @inject(ApplicationShell) protected readonly shell!: ApplicationShell;
  @inject(ContentIds) protected readonly ids!: ContentIds;

  private readonly paneIds = new WeakMap<TabBar<Widget>, string>();
  /** The pane each widget was last seen in: Lumino replaces tab bars when it relayouts, the widgets stay. */
  private readonly lastPaneOf = new WeakMap<Widget, string>();
  private mainCounter = 0;
  private bottomCounter = 0;
  private readonly changed = new Emitter<void>();
  /** View work that runs after a command's answer (see `afterAnswer`). */
  private pending: Promise<unknown> = Promise.resolve();
  /** Starts the view work waiting for its answer to travel, now (see `answerAway`). */
  private wake: (() => void) | undefined;
  /** How many commands wait in `settled`: while one does, view work starts at once. */
  private hurrying = 0;
  /** Widgets a command closed whose tabs close after its answer. */
  private readonly closing = new Set<Widget>();

  @postConstruct()
  protected init(): void {
    // Panels expand and settle after the event that changed them: tell listeners again once they have.
    let settling = false;
    const fire = () => {
      this.changed.fire();
      if (settling) return;
      settling = true;
      setTimeout(() => {
        settling = false;
        this.changed.fire();
      }, 250);
    };
    this.shell.mainPanel.layoutModified.connect(fire);
    this.shell.bottomPanel.layoutModified.connect(fire);
    this.shell.onDidAddWidget(fire);
    // Pinning a tab changes only its title (Theia adds PINNED_CLASS to title.className).
    const watchTitle = (w: Widget) => w.title.changed.connect(fire);
    this.shell.widgets.forEach(watchTitle);
    this.shell.onDidAddWidget(watchTitle);
    this.shell.onDidRemoveWidget(fire);
    this.shell.onDidChangeActiveWidget(fire);
    this.shell.onDidChangeCurrentWidget(fire);
    window.addEventListener('resize', fire);
  }

  /** Tell listeners about a change the shell does not signal (an editor's dirty state, say). */
  notify(): void {
    this.changed.fire();
  }

  onLayoutChanged(listener: Listener): Disposable {
    return this.changed.event(listener);
  }

  layout(): PaneLayout {
    const panes = this.panes();
    const active = this.shell.activeWidget ?? this.shell.currentWidget;
    const activePane = active && panes.find((p) => p.widgets.includes(active));
    return {
      panes: panes.map((p) => this.info(p)),
      activePaneId: activePane?.id,
      activeContentId: active ? this.ids.idOf(active) : undefined,
    };
  }

  async openContent(request: { type: ContentType; contentId: string; title: string } & Placement): Promise<{ paneId: string }> {
    const widget = this.widgetOf(request.contentId);
    if (!widget) throw new ToolError('PANE_NOT_FOUND', `Nothing in the IDE can show "${request.contentId}".`);
    await this.place(widget, defaultArea(request.type), request);
    return { paneId: this.paneOf(widget)! };
  }

  /**
   * Add or move a widget according to a placement: into the target pane, or into a new pane split
   * off it ('vertical' → to the right, 'horizontal' → below). Already shown and no split: just activate.
   * `waitForFocus: false` resolves once the widget is in its pane, while it takes the focus.
   */
  async place(widget: Widget, defaultArea: PaneArea, placement: Placement, { waitForFocus = true } = {}): Promise<void> {
    const target = placement.targetPaneId !== undefined ? this.requirePane(placement.targetPaneId) : undefined;
    const shown = widget.isAttached && this.paneOf(widget) !== undefined;
    if (
      shown &&
      !placement.splitDirection &&
      (!target || target.widgets.includes(widget)) &&
      (!placement.area || this.shell.getAreaFor(widget) === placement.area)
    ) {
      await this.shell.activateWidget(widget.id);
      return;
    }
    await this.shell.addWidget(widget, this.widgetOptions(defaultArea, placement, widget));
    const activated = this.shell.activateWidget(widget.id);
    if (waitForFocus) await activated;
  }

  /**
   * ApplicationShell's options for adding a widget at a placement: into the target pane (its current
   * tab by default: the area's current pane), or into a new pane split off it ('vertical' → to the
   * right, 'horizontal' → below). Throws PANE_NOT_FOUND for an unknown target pane.
   */
  widgetOptions(defaultArea: PaneArea, placement: Placement, widget?: Widget): ApplicationShell.WidgetOptions {
    const target = placement.targetPaneId !== undefined ? this.requirePane(placement.targetPaneId) : undefined;
    const area = target?.area ?? placement.area ?? defaultArea;
    const ref = target?.current ?? target?.widgets[0] ?? (area === 'main' ? this.currentIn('main') : undefined);
    const mode =
      placement.splitDirection === 'vertical' ? 'split-right' : placement.splitDirection === 'horizontal' ? 'split-bottom' : 'tab-after';
    return { area, mode, ref: ref && ref !== widget ? ref : undefined };
  }

  /**
   * Run view work — activating, revealing or closing a tab — once the command running now has
   * answered. On this Theia such work costs tens of milliseconds of layout and repaint (Lumino lays
   * the shell out in microtasks, Monaco lays out and renders the editor it shows), and nothing an
   * agent reads in the answer depends on it. Every command first waits for it (see `settled`), so
   * no agent sees the layout before the work is done.
   */
  afterAnswer(work: () => unknown): void {
    const done = this.pending.then(() => this.answerAway()).then(work);
    this.pending = done.catch((err) => console.error('OpenSpace: showing or closing a tab after a command answered failed', err));
  }

  /**
   * Resolves once the answer has most likely reached the agent, or at once when the next command
   * arrives. The answer still travels through the browser, Theia's backend and the hub for a few
   * milliseconds after the window sent it; view work started meanwhile competes with it for the
   * CPU (on 2 cores it doubled terminal.create's p99). A person sees the tab two frames later.
   */
  private answerAway(): Promise<void> {
    if (this.hurrying > 0) return new Promise((resolve) => setTimeout(resolve, 0));
    return new Promise((resolve) => {
      const start = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(start, ANSWER_TRAVEL_MS);
      this.wake = start;
    });
  }

  /** Place a widget once the command running now has answered (see `afterAnswer`). */
  placeSoon(widget: Widget, defaultArea: PaneArea, placement: Placement): void {
    this.afterAnswer(() => this.place(widget, defaultArea, placement, { waitForFocus: false }));
  }

  /** Activate a widget once the command running now has answered (see `afterAnswer`). */
  activateSoon(widget: Widget): void {
    this.afterAnswer(() => void this.shell.activateWidget(widget.id));
  }

  /** Resolves when the view work of the commands so far is done, as it comes (see `afterAnswer`); more added meanwhile is waited for too. */
  async viewWorkDone(): Promise<void> {
    for (let pending; pending !== this.pending;) await (pending = this.pending);
  }

  /** Resolves when the view work of earlier commands is done and the panels have their sizes. */
  async settled(): Promise<void> {
    this.hurrying++;
    try {
      this.wake?.();
      // View work may add more (an editor created after the answer is then activated).
      await this.viewWorkDone();
    } finally {
      this.hurrying--;
    }
    await this.shell.pendingUpdates;
  }

  /** Close the tab showing contentId once the command has answered; until then it counts as closed. */
  async closeContent(contentId: string): Promise<void> {
    const widget = this.widgetOf(contentId);
    if (!widget) throw new ToolError('PANE_NOT_FOUND', `Nothing open shows "${contentId}".`);
    this.closeSoon(widget);
  }

  /**
   * Close a widget once the command has answered (see `afterAnswer`), by default as its tab's close
   * button does (without saving: callers have checked for unsaved changes). Until then it counts as
   * closed: `layout()`, `widgetOf` and `isClosing` leave it out.
   */
  closeSoon(widget: Widget, close: () => unknown = () => this.shell.closeWidget(widget.id, { save: false })): void {
    this.closing.add(widget);
    this.afterAnswer(async () => {
      try {
        await close();
      } finally {
        this.closing.delete(widget);
      }
    });
  }

  async closePane(paneId: string): Promise<string[]> {
    const pane = this.requirePane(paneId);
    for (const widget of pane.widgets) this.closeSoon(widget);
    return pane.widgets.map((w) => this.ids.idOf(w));
  }

  async focusPane(paneId: string): Promise<void> {
    const pane = this.requirePane(paneId);
    const widget = pane.current ?? pane.widgets[0];
    if (widget) await this.shell.activateWidget(widget.id);
  }

  async focusContent(contentId: string): Promise<{ paneId: string }> {
    const widget = this.widgetOf(contentId);
    const paneId = widget && this.paneOf(widget);
    if (!widget || !paneId) throw new ToolError('PANE_NOT_FOUND', `Nothing open shows "${contentId}".`);
    await this.shell.activateWidget(widget.id);
    return { paneId };
  }

  async resizePane(paneId: string, size: { width?: number; height?: number }): Promise<void> {
    const pane = this.requirePane(paneId);
    if (pane.area === 'main') return this.resizeMain(pane, size);
    const value = pane.area === 'bottom' ? size.height : size.width;
    if (value === undefined) return;
    const total = pane.area === 'bottom' ? window.innerHeight : window.innerWidth;
    this.shell.resize(Math.round((clamp(value) / 100) * total), pane.area);
    this.changed.fire();
  }

  /** Whether a command closed this widget and its tab goes once the command has answered. */
  isClosing(widget: Widget): boolean {
    return this.closing.has(widget);
  }

  isOpen(contentId: string): boolean {
    const widget = this.widgetOf(contentId);
    return widget !== undefined && this.paneOf(widget) !== undefined;
  }

  /** The pane ID of the tab bar showing a widget. */
  paneOf(widget: Widget): string | undefined {
    return this.panes().find((p) => p.widgets.includes(widget))?.id;
  }

  /** The widget showing some content, by content ID. */
  widgetOf(contentId: string): Widget | undefined {
    for (const area of ['main', 'bottom', 'left', 'right'] as const) {
      const found = this.shell.getWidgets(area).find((w) => !this.closing.has(w) && this.ids.idOf(w) === contentId);
      if (found) return found;
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------

  private panes(): Pane[] {
    const panes: Pane[] = [];
    const taken = new Set<string>();
    for (const bar of this.shell.mainAreaTabBars) {
      const pane = this.dockPane(bar, 'main', taken);
      if (pane.widgets.length > 0 || bar.titles.length === 0) panes.push(pane); // else all its tabs are closing
    }
    const bottomShown = this.shell.isExpanded('bottom');
    for (const bar of this.shell.bottomAreaTabBars) {
      const pane = this.dockPane(bar, 'bottom', taken);
      if (pane.widgets.length === 0) continue;
      panes.push(bottomShown ? pane : { ...pane, boxes: [] });
    }
    for (const area of ['left', 'right'] as const) {
      const handler = area === 'left' ? this.shell.leftPanelHandler : this.shell.rightPanelHandler;
      const widgets = handler.tabBar.titles.map((t) => t.owner).filter((w) => !this.closing.has(w));
      if (widgets.length === 0) continue;
      const expanded = this.shell.isExpanded(area);
      panes.push({ id: area, area, widgets, current: handler.tabBar.currentTitle?.owner, boxes: expanded ? [handler.container.node] : [] });
    }
    return panes;
  }

  /**
   * A stable ID for a dock area's tab bar: its own, else the one most of its widgets were last seen
   * in (a relayout replaced the tab bar), else a new one.
   */
  private dockPane(bar: TabBar<Widget>, area: 'main' | 'bottom', taken: Set<string>): Pane {
    const widgets = bar.titles.map((t) => t.owner).filter((w) => !this.closing.has(w));
    let id = this.paneIds.get(bar);
    if (!id || taken.has(id)) {
      const votes = new Map<string, number>();
      for (const w of widgets) {
        const previous = this.lastPaneOf.get(w);
        if (previous?.startsWith(area) && !taken.has(previous)) votes.set(previous, (votes.get(previous) ?? 0) + 1);
      }
      id = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
      id ??= area === 'main' ? `main-${++this.mainCounter}` : this.bottomCounter++ === 0 ? 'bottom' : `bottom-${this.bottomCounter}`;
      this.paneIds.set(bar, id);
    }
    taken.add(id);
    for (const w of widgets) this.lastPaneOf.set(w, id);
    const current = widgets.find((w) => w === bar.currentTitle?.owner);
    return { id, area, widgets, current, boxes: current ? [bar.node, current.node] : [bar.node] };
  }

  private info(pane: Pane): PaneInfo {
    return {
      id: pane.id,
      area: pane.area,
      tabs: pane.widgets.map((w) => ({
        contentId: this.ids.idOf(w),
        type: this.ids.typeOf(w),
        title: w.title.label,
        isDirty: Saveable.isDirty(w),
        ...(isPinned(w.title) ? { pinned: true } : {}),
        ...statusOf(w),
      })),
      activeTabIndex: pane.current ? pane.widgets.indexOf(pane.current) : -1,
      geometry: this.geometry(pane.boxes),
    };
  }

  /** The union of the elements' boxes in percent of the window, rounded to 2 decimals. */
  private geometry(elements: Element[]): Geometry {
    const rect = rectOf(elements);
    if (!rect) return { x: 0, y: 0, width: 0, height: 0 };
    const pct = (v: number, of: number) => Math.round((v / of) * 10000) / 100;
    return {
      x: pct(rect.left, window.innerWidth),
      y: pct(rect.top, window.innerHeight),
      width: pct(rect.right - rect.left, window.innerWidth),
      height: pct(rect.bottom - rect.top, window.innerHeight),
    };
  }

  private currentIn(area: 'main'): Widget | undefined {
    return this.shell.getTabBarFor(area)?.currentTitle?.owner ?? this.shell.getWidgets(area)[0];
  }

  private requirePane(paneId: string): Pane {
    const panes = this.panes();
    const pane = panes.find((p) => p.id === paneId);
    if (!pane) throw new ToolError('PANE_NOT_FOUND', `No pane "${paneId}". Open panes: ${panes.map((p) => p.id).join(', ')}.`);
    return pane;
  }

  /**
   * Resize a main-area pane as a person drags the split handle beside it: the handle after it (or,
   * for the last pane of a split, before it) moves so that the pane is `size` wide or high; the
   * neighbour on the other side takes the rest. The editor area is laid out at once, so the answer
   * has the new geometry (restoring a whole edited layout cost 70–110 ms here, this 10–20).
   */
  private resizeMain(pane: Pane, size: { width?: number; height?: number }): void {
    const panel = this.shell.mainPanel;
    const layout = panel.layout as DockLayout;
    let moved = false;
    for (const [axis, want] of [
      ['horizontal', size.width],
      ['vertical', size.height],
    ] as const) {
      if (want === undefined) continue;
      const box = rectOf(pane.boxes);
      const beside = box && besideHandle([...layout.handles()], box, axis);
      if (!box || !beside) continue; // no split along this axis: the pane keeps its size
      const origin = panel.node.getBoundingClientRect();
      const wanted = (clamp(want) / 100) * (axis === 'horizontal' ? window.innerWidth : window.innerHeight);
      const [start, end, thickness] =
        axis === 'horizontal'
          ? [box.left - origin.left, box.right - origin.left, beside.handle.offsetWidth]
          : [box.top - origin.top, box.bottom - origin.top, beside.handle.offsetHeight];
      const position = beside.side === 'after' ? start + wanted : end - wanted - thickness;
      layout.moveHandle(beside.handle, position, position);
      MessageLoop.flush(); // lay the area out now: the answer measures it
      moved = true;
    }
    if (moved) this.changed.fire();
  }
}

/** The union of the elements' boxes in pixels, or undefined when none has a size. */
function rectOf(elements: Element[]): { left: number; top: number; right: number; bottom: number } | undefined {
  const rects = elements.map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 || r.height > 0);
  if (rects.length === 0) return undefined;
  return {
    left: Math.min(...rects.map((r) => r.left)),
    top: Math.min(...rects.map((r) => r.top)),
    right: Math.max(...rects.map((r) => r.right)),
    bottom: Math.max(...rects.map((r) => r.bottom)),
  };
}

/** The visible split handle of this axis right after (or else right before) a box, along the box's side. */
function besideHandle(handles: HTMLDivElement[], box: NonNullable<ReturnType<typeof rectOf>>, axis: 'horizontal' | 'vertical') {
  const near = (a: number, b: number) => Math.abs(a - b) <= 2;
  const candidates = handles
    .filter((h) => !h.classList.contains('lm-mod-hidden') && h.dataset.orientation === axis)
    .map((handle) => ({ handle, r: handle.getBoundingClientRect() }))
    .filter(({ r }) => (axis === 'horizontal' ? r.top < box.bottom && r.bottom > box.top : r.left < box.right && r.right > box.left));
  const after = candidates.find(({ r }) => near(axis === 'horizontal' ? r.left : r.top, axis === 'horizontal' ? box.right : box.bottom));
  if (after) return { handle: after.handle, side: 'after' as const };
  const before = candidates.find(({ r }) => near(axis === 'horizontal' ? r.right : r.bottom, axis === 'horizontal' ? box.left : box.top));
  return before && { handle: before.handle, side: 'before' as const };
}

function clamp(percent: number): number {
  return Math.min(100 - MIN_PANE_PERCENT, Math.max(MIN_PANE_PERCENT, percent));
}

/** A view that reports on itself (the chat panel's statusLine) says so in the layout the hub describes. */
function statusOf(widget: Widget): { status?: string } {
  const statusLine = (widget as Widget & { statusLine?: () => string }).statusLine;
  return typeof statusLine === 'function' ? { status: statusLine.call(widget) } : {};
}
