import { describe, expect, it } from 'vitest';
import type { PaneInfo } from '../src/contract/common.js';
import { ToolError } from '../src/contract/result.js';
import { SimLayout } from './layout.js';

const editor = (contentId: string) => ({ type: 'editor' as const, contentId, title: contentId.split('/').pop()! });
const terminal = (contentId: string) => ({ type: 'terminal' as const, contentId, title: contentId });

function pane(layout: SimLayout, id: string): PaneInfo {
  const found = layout.layout().panes.find((p) => p.id === id);
  if (!found) throw new Error(`pane ${id} not in layout`);
  return found;
}

const ids = (layout: SimLayout) => layout.layout().panes.map((p) => p.id);
const contents = (layout: SimLayout, id: string) => pane(layout, id).tabs.map((t) => t.contentId);

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

/** main-1 | main-2, each with one editor. */
async function twoSideBySide(): Promise<SimLayout> {
  const layout = new SimLayout();
  await layout.openContent(editor('a.ts'));
  await layout.openContent({ ...editor('b.ts'), splitDirection: 'vertical' });
  return layout;
}

describe('SimLayout', () => {
  describe('initial layout', () => {
    it('has one empty main pane filling the window', () => {
      const layout = new SimLayout();
      expect(layout.layout()).toEqual({
        panes: [{ id: 'main-1', area: 'main', tabs: [], activeTabIndex: -1, geometry: { x: 0, y: 0, width: 100, height: 100 } }],
        activePaneId: 'main-1',
        activeContentId: undefined,
      });
    });
  });

  describe('openContent', () => {
    it('opens editors as tabs of main-1, the newest active', async () => {
      const layout = new SimLayout();
      expect(await layout.openContent(editor('src/a.ts'))).toEqual({ paneId: 'main-1' });
      expect(await layout.openContent(editor('src/b.ts'))).toEqual({ paneId: 'main-1' });
      const main = pane(layout, 'main-1');
      expect(main.tabs).toEqual([
        { contentId: 'src/a.ts', type: 'editor', title: 'a.ts', isDirty: false },
        { contentId: 'src/b.ts', type: 'editor', title: 'b.ts', isDirty: false },
      ]);
      expect(main.activeTabIndex).toBe(1);
      expect(layout.layout().activeContentId).toBe('src/b.ts');
    });

    it('activates content that is already open instead of adding a second tab', async () => {
      const layout = await twoSideBySide();
      await layout.openContent(editor('c.ts')); // lands in main-2, the focused pane
      expect(await layout.openContent(editor('a.ts'))).toEqual({ paneId: 'main-1' });
      expect(contents(layout, 'main-1')).toEqual(['a.ts']);
      expect(contents(layout, 'main-2')).toEqual(['b.ts', 'c.ts']);
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-1', activeContentId: 'a.ts' });
    });

    it('splits vertically: the new pane is to the right, each half as wide', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      expect(await layout.openContent({ ...editor('b.ts'), splitDirection: 'vertical' })).toEqual({ paneId: 'main-2' });
      const [left, right] = [pane(layout, 'main-1').geometry, pane(layout, 'main-2').geometry];
      expect(left).toEqual({ x: 0, y: 0, width: 50, height: 100 });
      expect(right).toEqual({ x: 50, y: 0, width: 50, height: 100 });
      expect(left.width + right.width).toBe(100);
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-2', activeContentId: 'b.ts' });
    });

    it('splits horizontally: the new pane is below', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      await layout.openContent({ ...editor('b.ts'), splitDirection: 'horizontal' });
      expect(pane(layout, 'main-1').geometry).toEqual({ x: 0, y: 0, width: 100, height: 50 });
      expect(pane(layout, 'main-2').geometry).toEqual({ x: 0, y: 50, width: 100, height: 50 });
    });

    it('nests splits and lists main panes left to right, top to bottom', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ ...editor('c.ts'), targetPaneId: 'main-2', splitDirection: 'horizontal' });
      expect(ids(layout)).toEqual(['main-1', 'main-2', 'main-3']);
      expect(pane(layout, 'main-1').geometry).toEqual({ x: 0, y: 0, width: 50, height: 100 });
      expect(pane(layout, 'main-2').geometry).toEqual({ x: 50, y: 0, width: 50, height: 50 });
      expect(pane(layout, 'main-3').geometry).toEqual({ x: 50, y: 50, width: 50, height: 50 });

      // Splitting main-1 the same way as its parent adds a sibling that halves main-1's share.
      await layout.openContent({ ...editor('d.ts'), targetPaneId: 'main-1', splitDirection: 'vertical' });
      expect(ids(layout)).toEqual(['main-1', 'main-4', 'main-2', 'main-3']);
      expect(pane(layout, 'main-1').geometry).toEqual({ x: 0, y: 0, width: 25, height: 100 });
      expect(pane(layout, 'main-4').geometry).toEqual({ x: 25, y: 0, width: 25, height: 100 });
      expect(pane(layout, 'main-2').geometry.width).toBe(50);
    });

    it('puts terminals in the bottom panel, 30% high, under the main area', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      expect(await layout.openContent(terminal('term-1'))).toEqual({ paneId: 'bottom' });
      expect(pane(layout, 'bottom').geometry).toEqual({ x: 0, y: 70, width: 100, height: 30 });
      expect(pane(layout, 'main-1').geometry).toEqual({ x: 0, y: 0, width: 100, height: 70 });
      expect(ids(layout)).toEqual(['main-1', 'bottom']);
      expect(layout.layout()).toMatchObject({ activePaneId: 'bottom', activeContentId: 'term-1' });
    });

    it('places side panels at full height beside the centre column', async () => {
      const layout = new SimLayout();
      await layout.openContent({ type: 'view', contentId: 'explorer', title: 'Explorer', area: 'left' });
      await layout.openContent({ type: 'view', contentId: 'outline', title: 'Outline', area: 'right' });
      await layout.openContent(terminal('term-1'));
      expect(ids(layout)).toEqual(['main-1', 'left', 'right', 'bottom']);
      expect(pane(layout, 'left').geometry).toEqual({ x: 0, y: 0, width: 20, height: 100 });
      expect(pane(layout, 'right').geometry).toEqual({ x: 80, y: 0, width: 20, height: 100 });
      expect(pane(layout, 'main-1').geometry).toEqual({ x: 20, y: 0, width: 60, height: 70 });
      expect(pane(layout, 'bottom').geometry).toEqual({ x: 20, y: 70, width: 60, height: 30 });
    });

    it('opens new main content in the last focused main pane while a panel has focus', async () => {
      const layout = await twoSideBySide();
      await layout.focusPane('main-1');
      await layout.openContent(terminal('term-1'));
      expect(await layout.openContent(editor('c.ts'))).toEqual({ paneId: 'main-1' });
      expect(layout.activeContentOf('main')).toBe('c.ts');
      expect(layout.activeContentOf('bottom')).toBe('term-1');
      expect(layout.activeContentOf('left')).toBeUndefined();
    });

    it('moves content that is already open into the new pane of a split', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      await layout.openContent(editor('b.ts'));
      layout.setDirty('a.ts', true);
      expect(await layout.openContent({ ...editor('a.ts'), splitDirection: 'vertical' })).toEqual({ paneId: 'main-2' });
      expect(contents(layout, 'main-1')).toEqual(['b.ts']);
      expect(pane(layout, 'main-2').tabs).toEqual([{ contentId: 'a.ts', type: 'editor', title: 'a.ts', isDirty: true }]);
      expect(layout.paneOf('a.ts')).toBe('main-2');
    });

    it('moving the last tab out of the bottom panel collapses it', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      await layout.openContent(terminal('term-1'));
      await layout.openContent({ ...terminal('term-1'), area: 'main', splitDirection: 'horizontal' });
      expect(ids(layout)).toEqual(['main-1', 'main-2']);
      expect(pane(layout, 'main-2').geometry).toEqual({ x: 0, y: 50, width: 100, height: 50 });
    });

    it('ignores splitDirection outside the main area', async () => {
      const layout = new SimLayout();
      await layout.openContent(terminal('term-1'));
      expect(await layout.openContent({ ...terminal('term-2'), splitDirection: 'vertical' })).toEqual({ paneId: 'bottom' });
      expect(ids(layout)).toEqual(['main-1', 'bottom']);
      expect(contents(layout, 'bottom')).toEqual(['term-1', 'term-2']);
    });

    it('accepts a collapsed panel as targetPaneId', async () => {
      const layout = new SimLayout();
      const opened = await layout.openContent({ type: 'view', contentId: 'explorer', title: 'Explorer', targetPaneId: 'left' });
      expect(opened).toEqual({ paneId: 'left' });
      expect(pane(layout, 'left').geometry).toEqual({ x: 0, y: 0, width: 20, height: 100 });
    });

    it('rejects an unknown targetPaneId, naming the open panes', async () => {
      const layout = new SimLayout();
      const err = await rejection(layout.openContent({ ...editor('a.ts'), targetPaneId: 'main-7' }));
      expect(err.code).toBe('PANE_NOT_FOUND');
      expect(err.message).toContain('main-7');
      expect(err.message).toContain('main-1');
      expect(layout.isOpen('a.ts')).toBe(false);
    });
  });

  describe('closing', () => {
    it('removes an emptied main pane and gives its space back', async () => {
      const layout = await twoSideBySide();
      await layout.closeContent('b.ts');
      expect(ids(layout)).toEqual(['main-1']);
      expect(pane(layout, 'main-1').geometry).toEqual({ x: 0, y: 0, width: 100, height: 100 });
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-1', activeContentId: 'a.ts' });
    });

    it('renormalises the remaining ratios and never reuses pane ids', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ ...editor('c.ts'), targetPaneId: 'main-2', splitDirection: 'vertical' });
      await layout.closePane('main-2');
      expect(pane(layout, 'main-1').geometry.width).toBeCloseTo(66.67, 2);
      expect(pane(layout, 'main-3').geometry).toMatchObject({ x: 66.67, width: 33.33 });
      await layout.openContent({ ...editor('d.ts'), splitDirection: 'vertical' });
      expect(layout.paneOf('d.ts')).toBe('main-4');
    });

    it('collapses a split left with one pane into its parent', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ ...editor('c.ts'), targetPaneId: 'main-2', splitDirection: 'horizontal' });
      await layout.closeContent('b.ts');
      expect(ids(layout)).toEqual(['main-1', 'main-3']);
      expect(pane(layout, 'main-3').geometry).toEqual({ x: 50, y: 0, width: 50, height: 100 });
      // main-3 now sits directly in the side-by-side split, so a vertical split halves it there.
      await layout.openContent({ ...editor('d.ts'), splitDirection: 'vertical' });
      expect(ids(layout)).toEqual(['main-1', 'main-3', 'main-4']);
      expect(pane(layout, 'main-4').geometry).toEqual({ x: 75, y: 0, width: 25, height: 100 });
    });

    it('merges a collapsed split into a parent of the same orientation, as Lumino does', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ ...editor('c.ts'), splitDirection: 'horizontal' }); // main-3 below main-2
      await layout.openContent({ ...editor('d.ts'), splitDirection: 'vertical' }); // main-4 right of main-3
      await layout.closePane('main-2');
      expect(layout.layout().panes.map((p) => p.geometry)).toEqual([
        { x: 0, y: 0, width: 50, height: 100 },
        { x: 50, y: 0, width: 25, height: 100 },
        { x: 75, y: 0, width: 25, height: 100 },
      ]);
      // main-3 and main-4 are now siblings of main-1, so resizing main-3 takes space from both.
      await layout.resizePane('main-3', { width: 40 });
      expect(layout.layout().panes.map((p) => p.geometry.width)).toEqual([40, 40, 20]);
    });

    it('closePane returns the closed content ids', async () => {
      const layout = await twoSideBySide();
      await layout.openContent(editor('c.ts'));
      expect(await layout.closePane('main-2')).toEqual(['b.ts', 'c.ts']);
      expect(layout.isOpen('b.ts')).toBe(false);
      expect(ids(layout)).toEqual(['main-1']);
    });

    it('closing the only main pane empties it but keeps it', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      expect(await layout.closePane('main-1')).toEqual(['a.ts']);
      expect(layout.layout().panes).toEqual([
        { id: 'main-1', area: 'main', tabs: [], activeTabIndex: -1, geometry: { x: 0, y: 0, width: 100, height: 100 } },
      ]);
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-1', activeContentId: undefined });
    });

    it('closing the bottom panel gives the main area the full height and the focus', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      await layout.openContent(terminal('term-1'));
      await layout.openContent(terminal('term-2'));
      expect(await layout.closePane('bottom')).toEqual(['term-1', 'term-2']);
      expect(ids(layout)).toEqual(['main-1']);
      expect(pane(layout, 'main-1').geometry.height).toBe(100);
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-1', activeContentId: 'a.ts' });
    });

    it('closing the active tab activates its left neighbour, else its right one', async () => {
      const layout = new SimLayout();
      for (const id of ['a', 'b', 'c']) await layout.openContent(editor(id));
      await layout.focusContent('b');
      await layout.closeContent('b');
      expect(layout.layout().activeContentId).toBe('a');
      await layout.closeContent('a');
      expect(layout.layout().activeContentId).toBe('c');
    });

    it('closing an inactive tab keeps the active one', async () => {
      const layout = new SimLayout();
      for (const id of ['a', 'b', 'c']) await layout.openContent(editor(id));
      await layout.closeContent('a');
      expect(pane(layout, 'main-1')).toMatchObject({ activeTabIndex: 1 });
      expect(layout.layout().activeContentId).toBe('c');
    });
  });

  describe('focus', () => {
    it('focusPane and focusContent set the active pane and tab', async () => {
      const layout = await twoSideBySide();
      await layout.openContent(editor('c.ts'));
      await layout.focusPane('main-1');
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-1', activeContentId: 'a.ts' });
      expect(await layout.focusContent('b.ts')).toEqual({ paneId: 'main-2' });
      expect(layout.layout()).toMatchObject({ activePaneId: 'main-2', activeContentId: 'b.ts' });
      expect(pane(layout, 'main-2').activeTabIndex).toBe(0);
    });
  });

  describe('resizePane', () => {
    it('sets a main pane width through its split; the sibling takes the rest', async () => {
      const layout = await twoSideBySide();
      await layout.resizePane('main-1', { width: 30 });
      expect(pane(layout, 'main-1').geometry.width).toBeCloseTo(30, 2);
      expect(pane(layout, 'main-2').geometry).toMatchObject({ x: 30, width: 70 });
    });

    it('measures in percent of the window when panels are open', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ type: 'view', contentId: 'explorer', title: 'Explorer', area: 'left' });
      await layout.resizePane('main-2', { width: 30 });
      expect(pane(layout, 'main-2').geometry).toMatchObject({ x: 70, width: 30 });
      expect(pane(layout, 'main-1').geometry).toMatchObject({ x: 20, width: 50 });
    });

    it('takes space from the siblings in proportion', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ ...editor('c.ts'), splitDirection: 'vertical' }); // 50 | 25 | 25
      await layout.resizePane('main-1', { width: 20 });
      expect(layout.layout().panes.map((p) => p.geometry.width)).toEqual([20, 40, 40]);
    });

    it('sets a main pane height through a stacking split', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      await layout.openContent({ ...editor('b.ts'), splitDirection: 'horizontal' });
      await layout.resizePane('main-2', { height: 25 });
      expect(pane(layout, 'main-2').geometry).toEqual({ x: 0, y: 75, width: 100, height: 25 });
      expect(pane(layout, 'main-1').geometry.height).toBe(75);
    });

    it('clamps so that no pane falls under 5%', async () => {
      const layout = await twoSideBySide();
      await layout.resizePane('main-1', { width: 99 });
      expect(pane(layout, 'main-1').geometry.width).toBe(95);
      expect(pane(layout, 'main-2').geometry.width).toBe(5);
      await layout.resizePane('main-1', { width: 1 });
      expect(pane(layout, 'main-1').geometry.width).toBe(5);
      expect(pane(layout, 'main-2').geometry.width).toBe(95);
    });

    it('keeps a nested pane at 5% when its branch shrinks', async () => {
      const layout = await twoSideBySide();
      // main-2 | main-3 inside the right half: each 25 wide before the resize.
      await layout.openContent({ ...editor('c.ts'), splitDirection: 'horizontal' });
      await layout.openContent({ ...editor('d.ts'), targetPaneId: 'main-1', splitDirection: 'horizontal' });
      await layout.openContent({ ...editor('e.ts'), targetPaneId: 'main-3', splitDirection: 'vertical' });
      expect(pane(layout, 'main-5').geometry.width).toBe(25);
      await layout.resizePane('main-1', { width: 98 });
      expect(pane(layout, 'main-1').geometry.width).toBe(90);
      expect(pane(layout, 'main-5').geometry.width).toBe(5);
    });

    it('leaves a main pane unchanged along an axis no split divides', async () => {
      const layout = await twoSideBySide();
      let events = 0;
      layout.onLayoutChanged(() => events++);
      await layout.resizePane('main-1', { height: 40 });
      expect(pane(layout, 'main-1').geometry.height).toBe(100);
      expect(events).toBe(0);
    });

    it('sets the bottom panel height and clamps it to leave the main area 5%', async () => {
      const layout = new SimLayout();
      await layout.openContent(terminal('term-1'));
      await layout.resizePane('bottom', { height: 50 });
      expect(pane(layout, 'bottom').geometry).toEqual({ x: 0, y: 50, width: 100, height: 50 });
      expect(pane(layout, 'main-1').geometry.height).toBe(50);
      await layout.resizePane('bottom', { height: 99 });
      expect(pane(layout, 'bottom').geometry.height).toBe(95);
      expect(pane(layout, 'main-1').geometry.height).toBe(5);
      await layout.resizePane('bottom', { height: 0.5 });
      expect(pane(layout, 'bottom').geometry.height).toBe(5);
    });

    it('keeps the bottom panel height after it collapses and comes back', async () => {
      const layout = new SimLayout();
      await layout.openContent(terminal('term-1'));
      await layout.resizePane('bottom', { height: 40 });
      await layout.closeContent('term-1');
      await layout.openContent(terminal('term-2'));
      expect(pane(layout, 'bottom').geometry.height).toBe(40);
    });

    it('sets side panel widths, leaving the main area at least 5%', async () => {
      const layout = new SimLayout();
      await layout.openContent({ type: 'view', contentId: 'explorer', title: 'Explorer', area: 'left' });
      await layout.openContent({ type: 'view', contentId: 'outline', title: 'Outline', area: 'right' });
      await layout.resizePane('left', { width: 30 });
      expect(pane(layout, 'left').geometry.width).toBe(30);
      expect(pane(layout, 'main-1').geometry).toMatchObject({ x: 30, width: 50 });
      await layout.resizePane('left', { width: 90 });
      expect(pane(layout, 'left').geometry.width).toBe(75);
      expect(pane(layout, 'main-1').geometry.width).toBe(5);
    });

    it('fits a panel that comes back into the room the other panel leaves', async () => {
      const layout = new SimLayout();
      await layout.openContent({ type: 'view', contentId: 'explorer', title: 'Explorer', area: 'left' });
      await layout.resizePane('left', { width: 90 });
      expect(pane(layout, 'left').geometry.width).toBe(90);
      await layout.openContent({ type: 'view', contentId: 'outline', title: 'Outline', area: 'right' });
      expect(pane(layout, 'right').geometry).toEqual({ x: 95, y: 0, width: 5, height: 100 });
      expect(pane(layout, 'main-1').geometry).toMatchObject({ x: 90, width: 5 });
    });

    it('keeps the main panes at 5% when a panel widens', async () => {
      const layout = await twoSideBySide();
      await layout.openContent({ type: 'view', contentId: 'explorer', title: 'Explorer', area: 'left' });
      await layout.resizePane('left', { width: 95 });
      expect(pane(layout, 'left').geometry.width).toBe(90);
      expect(pane(layout, 'main-1').geometry.width).toBe(5);
      expect(pane(layout, 'main-2').geometry.width).toBe(5);
    });
  });

  describe('unknown ids', () => {
    it('throw PANE_NOT_FOUND naming what exists', async () => {
      const layout = await twoSideBySide();
      for (const call of [
        layout.focusPane('main-9'),
        layout.closePane('main-9'),
        layout.resizePane('main-9', { width: 50 }),
        layout.focusPane('left'), // collapsed: not listed, so not there
      ]) {
        const err = await rejection(call);
        expect(err.code).toBe('PANE_NOT_FOUND');
        expect(err.message).toContain('main-1, main-2');
      }
      for (const call of [layout.closeContent('nope.ts'), layout.focusContent('nope.ts')]) {
        const err = await rejection(call);
        expect(err.code).toBe('PANE_NOT_FOUND');
        expect(err.message).toContain('a.ts, b.ts');
      }
      expect(() => layout.setDirty('nope.ts', true)).toThrow(ToolError);
    });
  });

  describe('tab state', () => {
    it('setDirty and setTitle show in the tab', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      layout.setDirty('a.ts', true);
      layout.setTitle('a.ts', 'A');
      expect(pane(layout, 'main-1').tabs[0]).toEqual({ contentId: 'a.ts', type: 'editor', title: 'A', isDirty: true });
    });

    it('layout() hands out copies', async () => {
      const layout = new SimLayout();
      await layout.openContent(editor('a.ts'));
      pane(layout, 'main-1').tabs[0]!.isDirty = true;
      expect(pane(layout, 'main-1').tabs[0]!.isDirty).toBe(false);
    });
  });

  describe('onLayoutChanged', () => {
    it('fires once per change and not for no-ops', async () => {
      const layout = await twoSideBySide();
      let events = 0;
      const subscription = layout.onLayoutChanged(() => events++);
      const expectEvents = async (n: number, action: () => unknown) => {
        events = 0;
        await action();
        expect(events).toBe(n);
      };

      await expectEvents(1, () => layout.openContent(editor('c.ts')));
      await expectEvents(0, () => layout.openContent(editor('c.ts'))); // already active
      await expectEvents(0, () => layout.focusPane('main-2'));
      await expectEvents(1, () => layout.focusPane('main-1'));
      await expectEvents(1, () => layout.focusContent('b.ts'));
      await expectEvents(0, () => layout.focusContent('b.ts'));
      await expectEvents(1, () => layout.resizePane('main-1', { width: 40 }));
      await expectEvents(0, () => layout.resizePane('main-1', { width: 40 }));
      await expectEvents(1, () => layout.setDirty('b.ts', true));
      await expectEvents(0, () => layout.setDirty('b.ts', true));
      await expectEvents(1, () => layout.setTitle('b.ts', 'B'));
      await expectEvents(0, () => layout.setTitle('b.ts', 'B'));
      await expectEvents(1, () => layout.openContent({ ...editor('d.ts'), splitDirection: 'horizontal' }));
      await expectEvents(1, () => layout.closeContent('d.ts'));
      await expectEvents(1, () => layout.closePane('main-2'));
      await expectEvents(0, () => layout.focusPane('nope').catch(() => undefined));

      subscription.dispose();
      await expectEvents(0, () => layout.openContent(editor('e.ts')));
    });

    it('fires synchronously, with the change already visible', async () => {
      const layout = new SimLayout();
      const seen: (string | undefined)[] = [];
      layout.onLayoutChanged(() => seen.push(layout.layout().activeContentId));
      const pending = layout.openContent(editor('a.ts'));
      expect(seen).toEqual(['a.ts']);
      await pending;
    });
  });
});
