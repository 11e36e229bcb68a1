/**
 * Whiteboards (issue 12; TECHSPEC §5.3, §6.5): boards as Excalidraw scenes in .whiteboard.json
 * files through the artifact store, changed by meaning (shapes, connectors that stay attached,
 * layout), shown in a view with a camera. Effects are checked through other tools (file.read,
 * pane.list) and through the file itself: it must stay an Excalidraw scene other tools open.
 */
import { describe, expect, it } from 'vitest';
import type { Element as ExcalidrawElement } from '../../src/models/board.js';
import { useTarget } from '../setup.js';

const ctx = useTarget();

interface Shape {
  id: string;
  type: string;
  label?: string;
  bounds: { x: number; y: number; width: number; height: number };
  from?: string;
  to?: string;
  connections?: string[];
}

let boards = 0;
async function newBoard(): Promise<string> {
  const whiteboardId = `boards/b-${++boards}.whiteboard.json`;
  await ctx.agent.ok('openspace.whiteboard.create', { whiteboardId, title: `Board ${boards}` });
  return whiteboardId;
}

async function shapes(whiteboardId: string): Promise<Shape[]> {
  return (await ctx.agent.ok('openspace.whiteboard.read', { whiteboardId })).shapes;
}

async function scene(whiteboardId: string): Promise<{ type: string; elements: ExcalidrawElement[]; appState: { name?: string } }> {
  return JSON.parse((await ctx.agent.ok('openspace.file.read', { path: whiteboardId })).content);
}

const centre = (b: Shape['bounds']) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** The arrow's ends lie on (or just outside) the boxes it joins. */
function attached(arrow: ExcalidrawElement, from: Shape['bounds'], to: Shape['bounds']): boolean {
  const [first, last] = [arrow.points![0]!, arrow.points!.at(-1)!];
  const near = (p: { x: number; y: number }, b: Shape['bounds']) =>
    p.x >= b.x - 12 && p.x <= b.x + b.width + 12 && p.y >= b.y - 12 && p.y <= b.y + b.height + 12;
  return near({ x: arrow.x + first[0], y: arrow.y + first[1] }, from) && near({ x: arrow.x + last[0], y: arrow.y + last[1] }, to);
}

describe('whiteboards: shapes by meaning in an Excalidraw scene', () => {
  it('creates an empty board that is an Excalidraw scene with the title, and refuses to overwrite it', async () => {
    const whiteboardId = await newBoard();
    const file = await scene(whiteboardId);
    expect(file).toMatchObject({ type: 'excalidraw', elements: [], appState: { name: `Board ${boards}` } });
    expect(await ctx.agent.ok('openspace.whiteboard.read', { whiteboardId })).toMatchObject({
      title: `Board ${boards}`,
      shapes: [],
      open: false,
    });
    await ctx.agent.fails('openspace.whiteboard.create', { whiteboardId, title: 'Again' }, 'ALREADY_EXISTS');
    await ctx.agent.fails('openspace.whiteboard.create', { whiteboardId: 'boards/x.json', title: 'X' }, 'INVALID_ARGUMENT');
  });

  it('adds shapes by meaning, placed beside each other when no position is given, with labels as Excalidraw bound text', async () => {
    const whiteboardId = await newBoard();
    const api = await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'box', id: 'api', label: 'API' } });
    expect(api).toMatchObject({ shapeId: 'api', shape: { id: 'api', type: 'box', label: 'API' } });
    const db = await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'cylinder', label: 'Orders DB' } });
    expect(db.shape.bounds.x).toBeGreaterThanOrEqual(api.shape.bounds.x + api.shape.bounds.width);
    const cls = await ctx.agent.ok('openspace.whiteboard.add_shape', {
      whiteboardId,
      shape: { type: 'class', id: 'Order', label: 'Order', attributes: ['- id: string'], methods: ['+ total(): number'], x: 0, y: 300 },
    });
    expect(cls.shape).toMatchObject({ type: 'class', label: 'Order', attributes: ['- id: string'], methods: ['+ total(): number'] });
    expect(cls.shape.bounds).toMatchObject({ x: 0, y: 300 });

    const { elements } = await scene(whiteboardId);
    const box = elements.find((e) => e.id === 'api')!;
    expect(box.type).toBe('rectangle');
    const label = elements.find((e) => e.containerId === 'api')!;
    expect(label).toMatchObject({ type: 'text', text: 'API' });
    expect(box.boundElements).toContainEqual({ id: label.id, type: 'text' });
    expect(elements.find((e) => e.containerId === 'Order')!.text).toMatch(/^Order\n─+\n- id: string\n─+\n\+ total\(\): number$/);
    expect((await shapes(whiteboardId)).map((s) => s.id)).toEqual(['api', db.shapeId, 'Order']);
  });

  it('connects shapes with arrows that stay attached when a shape moves, and deletes a shape with its connectors', async () => {
    const whiteboardId = await newBoard();
    await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'box', id: 'a', label: 'A', x: 0, y: 0 } });
    await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'diamond', id: 'b', label: 'B?', x: 400, y: 0 } });
    const arrow = await ctx.agent.ok('openspace.whiteboard.add_shape', {
      whiteboardId,
      shape: { type: 'arrow', from: 'a', to: 'b', label: 'asks' },
    });
    expect(arrow.shape).toMatchObject({ type: 'arrow', from: 'a', to: 'b', label: 'asks' });
    const before = await shapes(whiteboardId);
    expect(before.find((s) => s.id === 'a')!.connections).toEqual([arrow.shapeId]);

    await ctx.agent.ok('openspace.whiteboard.update_shape', { whiteboardId, shapeId: 'b', updates: { x: 100, y: 400, label: 'B!' } });
    const after = await shapes(whiteboardId);
    const [a, b] = ['a', 'b'].map((id) => after.find((s) => s.id === id)!);
    expect(b).toMatchObject({ label: 'B!', bounds: { x: 100, y: 400 } });
    const drawn = (await scene(whiteboardId)).elements.find((e) => e.id === arrow.shapeId)!;
    expect(drawn).toMatchObject({ startBinding: { elementId: 'a' }, endBinding: { elementId: 'b' } });
    expect(attached(drawn, a!.bounds, b!.bounds)).toBe(true);

    const removed = await ctx.agent.ok('openspace.whiteboard.delete_shape', { whiteboardId, shapeId: 'b' });
    expect(removed.deleted.sort()).toEqual([arrow.shapeId, 'b'].sort());
    const left = await scene(whiteboardId);
    expect(left.elements.map((e) => e.id)).toEqual(['a', 'a-label']);
    expect(left.elements[0]!.boundElements).toEqual([{ id: 'a-label', type: 'text' }]);
  });

  it('lays out the board along its connectors with dagre, connectors attached', async () => {
    const whiteboardId = await newBoard();
    for (const id of ['client', 'api', 'db']) {
      await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'box', id, label: id, x: 0, y: 0 } });
    }
    await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'arrow', id: 'c-a', from: 'client', to: 'api' } });
    await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'arrow', id: 'a-d', from: 'api', to: 'db' } });
    const laidOut = await ctx.agent.ok('openspace.whiteboard.layout', { whiteboardId, direction: 'right' });
    expect(laidOut.moved).toBeGreaterThanOrEqual(2);
    const byId = new Map((await shapes(whiteboardId)).map((s) => [s.id, s]));
    const [client, api, db] = ['client', 'api', 'db'].map((id) => centre(byId.get(id)!.bounds));
    expect(client!.x).toBeLessThan(api!.x);
    expect(api!.x).toBeLessThan(db!.x);
    const { elements } = await scene(whiteboardId);
    expect(
      attached(
        elements.find((e) => e.id === 'a-d')!,
        byId.get('api')!.bounds,
        byId.get('db')!.bounds,
      ),
    ).toBe(true);

    await ctx.agent.ok('openspace.whiteboard.layout', { whiteboardId });
    const down = new Map((await shapes(whiteboardId)).map((s) => [s.id, centre(s.bounds)]));
    expect(down.get('client')!.y).toBeLessThan(down.get('api')!.y);
  });

  it('opens a board in a tab and keeps a camera: set, get, fit to all shapes or some', async () => {
    const whiteboardId = await newBoard();
    await ctx.agent.ok('openspace.whiteboard.add_shape', {
      whiteboardId,
      shape: { type: 'box', id: 'left', x: 0, y: 0, width: 100, height: 100 },
    });
    await ctx.agent.ok('openspace.whiteboard.add_shape', {
      whiteboardId,
      shape: { type: 'box', id: 'right', x: 900, y: 500, width: 100, height: 100 },
    });
    await ctx.agent.fails('openspace.whiteboard.camera.get', { whiteboardId }, 'PANE_NOT_FOUND');
    const opened = await ctx.agent.ok('openspace.whiteboard.open', { whiteboardId });
    expect(opened).toMatchObject({ opened: true, shapeCount: 2 });
    const { panes } = await ctx.agent.ok('openspace.pane.list');
    const tab = panes
      .flatMap((p: { tabs: { contentId: string; type: string }[] }) => p.tabs)
      .find((t: { contentId: string }) => t.contentId === whiteboardId);
    expect(tab).toMatchObject({ type: 'whiteboard' });
    expect(await ctx.agent.ok('openspace.whiteboard.open', { whiteboardId })).toMatchObject({ opened: false, paneId: opened.paneId });

    const set = await ctx.agent.ok('openspace.whiteboard.camera.set', { whiteboardId, x: 120, y: -40, zoom: 1.5 });
    expect(set.camera.x).toBeCloseTo(120, 0);
    expect(set.camera.y).toBeCloseTo(-40, 0);
    expect(set.camera.zoom).toBeCloseTo(1.5, 2);
    const got = await ctx.agent.ok('openspace.whiteboard.camera.get', { whiteboardId });
    expect(got.camera).toEqual(set.camera);
    expect(got.viewport.width).toBeGreaterThan(100);

    const all = await ctx.agent.ok('openspace.whiteboard.camera.fit', { whiteboardId });
    expect(all.camera.x).toBeCloseTo(500, 0);
    expect(all.camera.y).toBeCloseTo(300, 0);
    // The whole 1000 × 600 scene fits in the view.
    expect(all.camera.zoom * 1000).toBeLessThanOrEqual(got.viewport.width);
    expect(all.camera.zoom * 600).toBeLessThanOrEqual(got.viewport.height);
    const one = await ctx.agent.ok('openspace.whiteboard.camera.fit', { whiteboardId, shapeIds: ['right'] });
    expect(one.camera.x).toBeCloseTo(950, 0);
    expect(one.camera.zoom).toBeGreaterThan(all.camera.zoom);
    await ctx.agent.fails('openspace.whiteboard.camera.fit', { whiteboardId, shapeIds: ['nope'] }, 'SHAPE_NOT_FOUND');
    expect((await ctx.agent.ok('openspace.whiteboard.list')).whiteboards).toContainEqual({
      whiteboardId,
      title: `Board ${boards}`,
      shapeCount: 2,
      open: true,
    });
    await ctx.agent.ok('openspace.pane.close', { contentId: whiteboardId });
    await ctx.agent.fails('openspace.whiteboard.camera.set', { whiteboardId, x: 0, y: 0, zoom: 1 }, 'PANE_NOT_FOUND');
  });

  it('answers clear errors and changes nothing: unknown shapes, bad connectors, stale versions, files that are not scenes', async () => {
    const whiteboardId = await newBoard();
    const first = await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'note', id: 'n', label: 'todo' } });
    const before = await ctx.agent.ok('openspace.file.read', { path: whiteboardId });
    const missing = await ctx.agent.fails(
      'openspace.whiteboard.update_shape',
      { whiteboardId, shapeId: 'ghost', updates: { label: 'x' } },
      'SHAPE_NOT_FOUND',
    );
    expect(missing.error).toMatch(/Its shapes: n/);
    await ctx.agent.fails('openspace.whiteboard.delete_shape', { whiteboardId, shapeId: 'ghost' }, 'SHAPE_NOT_FOUND');
    await ctx.agent.fails('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'arrow', from: 'n' } }, 'INVALID_ARGUMENT');
    await ctx.agent.fails(
      'openspace.whiteboard.add_shape',
      { whiteboardId, shape: { type: 'arrow', from: 'n', to: 'ghost' } },
      'SHAPE_NOT_FOUND',
    );
    await ctx.agent.fails('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'box', id: 'n' } }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'hexagon' } }, 'INVALID_ARGUMENT');
    await ctx.agent.ok('openspace.whiteboard.add_shape', { whiteboardId, shape: { type: 'box', id: 'm' } });
    const stale = await ctx.agent.fails(
      'openspace.whiteboard.add_shape',
      { whiteboardId, shape: { type: 'box' }, baseVersion: first.version },
      'CONFLICT',
    );
    expect(stale.currentVersion).not.toBe(first.version);
    expect((await shapes(whiteboardId)).map((s) => s.id)).toEqual(['n', 'm']);
    expect(before.version).toBe(first.version);

    await ctx.agent.ok('openspace.file.write', { path: 'boards/broken.whiteboard.json', content: '{"elements": 3}' });
    const broken = await ctx.agent.fails('openspace.whiteboard.read', { whiteboardId: 'boards/broken.whiteboard.json' }, 'INVALID_FILE');
    expect(broken.error).toMatch(/Excalidraw/);
    await ctx.agent.fails(
      'openspace.whiteboard.add_shape',
      { whiteboardId: 'boards/broken.whiteboard.json', shape: { type: 'box' } },
      'INVALID_FILE',
    );
    expect((await ctx.agent.ok('openspace.file.read', { path: 'boards/broken.whiteboard.json' })).content).toBe('{"elements": 3}');
    await ctx.agent.fails('openspace.whiteboard.read', { whiteboardId: 'boards/none.whiteboard.json' }, 'FILE_NOT_FOUND');
  });
});

describe('modalities', () => {
  it('lists editor, terminal, presentation and whiteboard with their tools and open instances, and focuses one', async () => {
    const whiteboardId = await newBoard();
    await ctx.agent.ok('openspace.presentation.create', { deckPath: 'talks/modal.deck.md', title: 'Modal' });
    await ctx.agent.ok('openspace.presentation.open', { deckPath: 'talks/modal.deck.md' });
    await ctx.agent.ok('openspace.whiteboard.open', { whiteboardId });
    const { modalities } = await ctx.agent.ok('openspace.modality.list');
    expect(modalities.map((m: { id: string }) => m.id)).toEqual(['editor', 'terminal', 'presentation', 'whiteboard']);
    const byId = new Map(modalities.map((m: { id: string }) => [m.id, m])) as Map<
      string,
      { tools: string[]; instances: { contentId: string; active: boolean }[] }
    >;
    expect(byId.get('presentation')!.tools).toContain('openspace.presentation.navigate');
    expect(byId.get('whiteboard')!.tools).toContain('openspace.whiteboard.camera.fit');
    expect(byId.get('presentation')!.instances).toContainEqual(expect.objectContaining({ contentId: 'talks/modal.deck.md' }));
    expect(byId.get('whiteboard')!.instances).toContainEqual(expect.objectContaining({ contentId: whiteboardId, active: true }));

    const focused = await ctx.agent.ok('openspace.modality.focus', { modalityId: 'presentation' });
    expect(focused).toMatchObject({ modalityId: 'presentation', contentId: 'talks/modal.deck.md' });
    expect((await ctx.agent.ok('openspace.pane.list')).activeContentId).toBe('talks/modal.deck.md');
    await ctx.agent.ok('openspace.pane.close', { contentId: 'talks/modal.deck.md' });
    await ctx.agent.ok('openspace.pane.close', { contentId: whiteboardId });
    await ctx.agent.fails('openspace.modality.focus', { modalityId: 'presentation' }, 'PANE_NOT_FOUND');
    await ctx.agent.fails('openspace.modality.focus', { modalityId: 'kanban' }, 'INVALID_ARGUMENT');
  });
});
