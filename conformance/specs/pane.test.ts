import { describe, expect, it } from 'vitest';
import { useTarget } from '../setup.js';

const ctx = useTarget();

interface Pane {
  id: string;
  area: string;
  tabs: { contentId: string; type: string; title: string; isDirty: boolean }[];
  activeTabIndex: number;
  geometry: { x: number; y: number; width: number; height: number };
}

async function panes(): Promise<{ panes: Pane[]; activePaneId?: string; activeContentId?: string }> {
  return ctx.agent.ok('openspace.pane.list') as never;
}

async function paneShowing(contentId: string): Promise<Pane> {
  const pane = (await panes()).panes.find((p) => p.tabs.some((t) => t.contentId === contentId));
  expect(pane, `no pane shows ${contentId}`).toBeDefined();
  return pane!;
}

describe('US-3.5 agent manages the pane layout', () => {
  it('opens src/auth.ts in a new pane to the right with splitDirection "vertical" (AC-3.5.1, AC-3.5.2)', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    const left = await paneShowing('src/index.ts');
    const opened = await ctx.agent.ok('openspace.pane.open', { type: 'editor', contentId: 'src/auth.ts', splitDirection: 'vertical' });
    expect(opened.contentId).toBe('src/auth.ts');
    const right = await paneShowing('src/auth.ts');
    expect(right.id).toBe(opened.paneId);
    expect(right.id).not.toBe(left.id);
    const before = left;
    const after = (await paneShowing('src/index.ts')).geometry;
    // Side by side: same top and height, the new pane starts where the old one now ends, together they fill the old width.
    expect(right.geometry.x).toBeGreaterThan(after.x);
    expect(right.geometry.y).toBeCloseTo(after.y, 1);
    expect(right.geometry.height).toBeCloseTo(after.height, 1);
    expect(after.x + after.width).toBeCloseTo(right.geometry.x, 1);
    expect(after.width + right.geometry.width).toBeCloseTo(before.geometry.width, 1);
    expect(right.geometry.width).toBeCloseTo(after.width, 0);
    expect((await panes()).activeContentId).toBe('src/auth.ts');
  });

  it('lists pane IDs, tabs, the active tab and geometry in percent (AC-3.5.3, AC-3.5.4)', async () => {
    const layout = await panes();
    expect(layout.panes.length).toBeGreaterThan(0);
    for (const pane of layout.panes) {
      expect(pane.id).toMatch(/\S/);
      expect(['main', 'left', 'right', 'bottom']).toContain(pane.area);
      for (const v of Object.values(pane.geometry)) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
      expect(pane.geometry.x + pane.geometry.width).toBeLessThanOrEqual(100.01);
      expect(pane.geometry.y + pane.geometry.height).toBeLessThanOrEqual(100.01);
      expect(pane.activeTabIndex).toBeLessThan(Math.max(1, pane.tabs.length));
    }
    expect(layout.panes.map((p) => p.id)).toContain(layout.activePaneId);
  });

  it('opens a pane below with splitDirection "horizontal"', async () => {
    const top = await paneShowing('src/auth.ts');
    await ctx.agent.ok('openspace.pane.open', {
      type: 'editor',
      contentId: 'notes.txt',
      splitDirection: 'horizontal',
      targetPaneId: top.id,
    });
    const bottom = await paneShowing('notes.txt');
    const topAfter = await paneShowing('src/auth.ts');
    expect(bottom.geometry.y).toBeGreaterThan(topAfter.geometry.y);
    expect(bottom.geometry.x).toBeCloseTo(topAfter.geometry.x, 1);
    expect(bottom.geometry.width).toBeCloseTo(topAfter.geometry.width, 1);
  });

  it('focuses a pane by ID and content by path', async () => {
    const target = await paneShowing('src/index.ts');
    const focused = await ctx.agent.ok('openspace.pane.focus', { paneId: target.id });
    expect(focused.paneId).toBe(target.id);
    expect((await panes()).activePaneId).toBe(target.id);
    const byContent = await ctx.agent.ok('openspace.pane.focus', { contentId: 'notes.txt' });
    expect((await panes()).activePaneId).toBe(byContent.paneId);
    expect((await panes()).activeContentId).toBe('notes.txt');
  });

  it('resizes a pane to a width in percent; its neighbour takes the rest', async () => {
    const left = await paneShowing('src/index.ts');
    const right = await paneShowing('src/auth.ts');
    const total = left.geometry.width + right.geometry.width;
    const target = Math.round(total * 0.3);
    const resized = await ctx.agent.ok('openspace.pane.resize', { paneId: left.id, width: target });
    expect(resized.pane.id).toBe(left.id);
    expect(resized.pane.geometry.width).toBeCloseTo(target, 0);
    const rightAfter = await paneShowing('src/auth.ts');
    expect(resized.pane.geometry.width + rightAfter.geometry.width).toBeCloseTo(total, 0);
  });

  it('answers unknown pane IDs with PANE_NOT_FOUND listing what exists', async () => {
    const result = await ctx.agent.fails('openspace.pane.focus', { paneId: 'no-such-pane' }, 'PANE_NOT_FOUND');
    expect(result.error).toMatch(/no-such-pane/);
    await ctx.agent.fails('openspace.pane.close', { paneId: 'no-such-pane' }, 'PANE_NOT_FOUND');
    await ctx.agent.fails('openspace.pane.resize', { paneId: 'no-such-pane', width: 50 }, 'PANE_NOT_FOUND');
    await ctx.agent.fails('openspace.pane.close', { contentId: 'not-open.ts' }, 'PANE_NOT_FOUND');
    await ctx.agent.fails('openspace.pane.open', { type: 'editor', contentId: 'README.md', targetPaneId: 'nowhere' }, 'PANE_NOT_FOUND');
  });

  it('opens every content type: editor, terminal, presentation and whiteboard, each as its own kind of tab', async () => {
    const { tools } = await ctx.agent.client.listTools();
    const type = tools.find((t) => t.name === 'openspace.pane.open')!.inputSchema.properties!.type as { enum: string[] };
    expect(type.enum).toEqual(['editor', 'terminal', 'presentation', 'whiteboard']);
    await ctx.agent.ok('openspace.presentation.create', { deckPath: 'pane-types.deck.md', title: 'Types' });
    await ctx.agent.ok('openspace.whiteboard.create', { whiteboardId: 'pane-types.whiteboard.json', title: 'Types' });
    for (const [kind, contentId] of [
      ['presentation', 'pane-types.deck.md'],
      ['whiteboard', 'pane-types.whiteboard.json'],
    ] as const) {
      const opened = await ctx.agent.ok('openspace.pane.open', { type: kind, contentId });
      expect(opened).toMatchObject({ contentId, opened: true });
      expect((await paneShowing(contentId)).tabs.find((t) => t.contentId === contentId)).toMatchObject({ type: kind });
      await ctx.agent.ok('openspace.pane.close', { contentId });
    }
    const wrong = await ctx.agent.fails('openspace.pane.open', { type: 'whiteboard', contentId: 'README.md' }, 'INVALID_ARGUMENT');
    expect(wrong.error).toMatch(/\.whiteboard\.json/);
  });

  it('wants exactly one of paneId and contentId, and width or height', async () => {
    await ctx.agent.fails('openspace.pane.close', {}, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.pane.focus', { paneId: 'a', contentId: 'b' }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.pane.resize', { paneId: 'x' }, 'INVALID_ARGUMENT');
    const outOfRange = await ctx.agent.fails('openspace.pane.resize', { paneId: 'x', width: 150 }, 'INVALID_ARGUMENT');
    expect(outOfRange.error).toMatch(/width/);
  });

  it('answers a missing file with FILE_NOT_FOUND and an unknown terminal with TERMINAL_NOT_FOUND', async () => {
    await ctx.agent.fails('openspace.pane.open', { type: 'editor', contentId: 'ghost.ts' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.pane.open', { type: 'terminal', contentId: 'ghost-terminal' }, 'TERMINAL_NOT_FOUND');
  });

  it('closes the tab showing some content, then a whole pane with its tabs', async () => {
    const closedOne = await ctx.agent.ok('openspace.pane.close', { contentId: 'notes.txt' });
    expect(closedOne.closed).toEqual(['notes.txt']);
    const right = await paneShowing('src/auth.ts');
    const closed = await ctx.agent.ok('openspace.pane.close', { paneId: right.id });
    expect(closed.closed).toContain('src/auth.ts');
    const after = await panes();
    expect(after.panes.map((p) => p.id)).not.toContain(right.id);
    expect(JSON.stringify(after.panes)).not.toContain('src/auth.ts');
    // The remaining editor takes the whole main area again.
    const main = after.panes.filter((p) => p.area === 'main');
    expect(main).toHaveLength(1);
  });

  it('shows a terminal in the bottom panel, and can move it next to an editor', async () => {
    const terminal = await ctx.agent.ok('openspace.terminal.create', { title: 'pane-term' });
    const bottom = await paneShowing(terminal.terminalId);
    expect(bottom.area).toBe('bottom');
    const editor = await paneShowing('src/index.ts');
    expect(bottom.geometry.y).toBeGreaterThanOrEqual(editor.geometry.y + editor.geometry.height - 0.01);
    const moved = await ctx.agent.ok('openspace.pane.open', {
      type: 'terminal',
      contentId: 'pane-term',
      area: 'main',
      splitDirection: 'vertical',
    });
    expect(moved.contentId).toBe(terminal.terminalId);
    expect((await paneShowing(terminal.terminalId)).area).toBe('main');
    await ctx.agent.ok('openspace.terminal.close', { terminalId: terminal.terminalId });
  });
});
