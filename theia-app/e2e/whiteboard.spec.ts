import { expect, test, type Page } from '@playwright/test';
import { useTheia } from './theia-session.js';

const ide = useTheia();
const BOARD = 'docs/arch.whiteboard.json';

interface Shape {
  id: string;
  type: string;
  bounds: { x: number; y: number; width: number; height: number };
  from?: string;
  to?: string;
}
type SceneElement = {
  id: string;
  type: string;
  x: number;
  y: number;
  startBinding?: { elementId: string };
  endBinding?: { elementId: string };
};

const elements = (page: Page) =>
  page.evaluate(
    (path) =>
      (
        globalThis as unknown as { openspaceProbe: { whiteboardElements(p: string): SceneElement[] | undefined } }
      ).openspaceProbe.whiteboardElements(path),
    BOARD,
  );
const shapes = async (): Promise<Shape[]> => (await ide.agent.ok('openspace.whiteboard.read', { whiteboardId: BOARD })).shapes;

/** Where a scene point is on the page: Excalidraw draws scene (x, y) at ((x + scrollX) × zoom, …) from its canvas's corner. */
async function onPage(page: Page, x: number, y: number) {
  const { camera, viewport } = await ide.agent.ok('openspace.whiteboard.camera.get', { whiteboardId: BOARD });
  const canvas = (await page.locator(`[id="openspace:whiteboard:${BOARD}"] canvas.interactive`).boundingBox())!;
  return {
    x: canvas.x + (x - camera.x) * camera.zoom + viewport.width / 2,
    y: canvas.y + (y - camera.y) * camera.zoom + viewport.height / 2,
  };
}

const requests: string[] = [];

test('the agent draws a 6-box diagram with connectors, lays it out and shows it beside the code, in Excalidraw', async () => {
  const { page } = ide.theia;
  page.on('request', (r) => requests.push(r.url()));
  await ide.agent.ok('openspace.whiteboard.create', { whiteboardId: BOARD, title: 'Architecture' });
  for (const [id, type] of [
    ['agent', 'actor'],
    ['hub', 'rounded-box'],
    ['bridge', 'box'],
    ['theia', 'box'],
    ['sim', 'box'],
    ['store', 'cylinder'],
  ]) {
    await ide.agent.ok('openspace.whiteboard.add_shape', { whiteboardId: BOARD, shape: { type, id, label: id } });
  }
  for (const [from, to] of [
    ['agent', 'hub'],
    ['hub', 'bridge'],
    ['bridge', 'theia'],
    ['bridge', 'sim'],
    ['hub', 'store'],
  ]) {
    await ide.agent.ok('openspace.whiteboard.add_shape', { whiteboardId: BOARD, shape: { type: 'arrow', id: `${from}-${to}`, from, to } });
  }
  await ide.agent.ok('openspace.whiteboard.layout', { whiteboardId: BOARD, direction: 'down' });
  await ide.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
  await ide.agent.ok('openspace.whiteboard.open', { whiteboardId: BOARD, splitDirection: 'vertical' });
  await ide.agent.ok('openspace.whiteboard.camera.fit', { whiteboardId: BOARD });

  await expect(page.locator(`[id="openspace:whiteboard:${BOARD}"] .excalidraw canvas.interactive`)).toBeVisible();
  await expect
    .poll(async () => (await elements(page))?.map((e) => e.id).sort())
    .toEqual(
      [
        'agent',
        'agent-label',
        'agent-hub',
        'bridge',
        'bridge-label',
        'bridge-sim',
        'bridge-theia',
        'hub',
        'hub-bridge',
        'hub-label',
        'hub-store',
        'sim',
        'sim-label',
        'store',
        'store-label',
        'theia',
        'theia-label',
      ].sort(),
    );
  const arrow = (await elements(page))!.find((e) => e.id === 'hub-store')!;
  expect(arrow).toMatchObject({ type: 'arrow', startBinding: { elementId: 'hub' }, endBinding: { elementId: 'store' } });
  await page.screenshot({ path: 'reports/screenshots/whiteboard-agent-diagram.png' });

  // Showing the board is not editing it: Excalidraw measuring its text again once its fonts have
  // loaded is not written back (a person's edit is, a moment after it: SAVE_DELAY_MS, 250 ms).
  await page.waitForTimeout(1_000);
  const { snapshots } = await ide.agent.ok('openspace.file.snapshots', { path: BOARD });
  expect(snapshots.map((s: { source: string }) => s.source)).not.toContain('openspace.whiteboard.edit');
});

test('a person drags a shape: the file follows, connectors still attached', async () => {
  const { page } = ide.theia;
  const before = (await shapes()).find((s) => s.id === 'store')!;
  const from = await onPage(page, before.bounds.x + before.bounds.width / 2, before.bounds.y + before.bounds.height / 2);
  const zoom = (await ide.agent.ok('openspace.whiteboard.camera.get', { whiteboardId: BOARD })).camera.zoom;
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x - 5 * i, from.y + 9 * i);
  await page.mouse.up();
  await page.evaluate(
    (path) =>
      (globalThis as unknown as { openspaceProbe: { whiteboardFlushed(p: string): Promise<void> } }).openspaceProbe.whiteboardFlushed(path),
    BOARD,
  );

  await expect
    .poll(async () => {
      const after = (await shapes()).find((s) => s.id === 'store')!;
      return [Math.round((after.bounds.x - before.bounds.x) * zoom), Math.round((after.bounds.y - before.bounds.y) * zoom)];
    })
    .toEqual([-50, 90]);
  const connector = (await shapes()).find((s) => s.id === 'hub-store')!;
  expect(connector).toMatchObject({ from: 'hub', to: 'store' });
  // The arrow was redrawn to the shape's new place: its end lies at the moved box.
  const file = JSON.parse((await ide.agent.ok('openspace.file.read', { path: BOARD })).content) as {
    elements: (SceneElement & { points: number[][] })[];
  };
  const drawn = file.elements.find((e) => e.id === 'hub-store')!;
  const store = (await shapes()).find((s) => s.id === 'store')!;
  const end = { x: drawn.x + drawn.points.at(-1)![0]!, y: drawn.y + drawn.points.at(-1)![1]! };
  expect(end.x).toBeGreaterThan(store.bounds.x - 20);
  expect(end.x).toBeLessThan(store.bounds.x + store.bounds.width + 20);
  expect(end.y).toBeGreaterThan(store.bounds.y - 20);
  expect(end.y).toBeLessThan(store.bounds.y + store.bounds.height + 20);
  const audit = (await ide.agent.ok('openspace.file.snapshots', { path: BOARD })).snapshots;
  expect(audit.length).toBeGreaterThan(1);
  await page.screenshot({ path: 'reports/screenshots/whiteboard-person-moved.png' });
});

test("an agent's shape appears in the open editor at once, and camera.get follows a person's pan", async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.whiteboard.add_shape', {
    whiteboardId: BOARD,
    shape: { type: 'note', id: 'todo', label: 'Write the docs' },
  });
  await expect.poll(async () => (await elements(page))?.some((e) => e.id === 'todo')).toBe(true);

  const before = (await ide.agent.ok('openspace.whiteboard.camera.get', { whiteboardId: BOARD })).camera;
  const canvas = (await page.locator(`[id="openspace:whiteboard:${BOARD}"] canvas.interactive`).boundingBox())!;
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(0, 200);
  await expect
    .poll(async () => (await ide.agent.ok('openspace.whiteboard.camera.get', { whiteboardId: BOARD })).camera.y - before.y)
    .toBeCloseTo(200 / before.zoom, 0);

  const set = await ide.agent.ok('openspace.whiteboard.camera.set', { whiteboardId: BOARD, x: 0, y: 0, zoom: 1 });
  expect(set.camera).toEqual({ x: 0, y: 0, zoom: 1 });
});

test('nothing leaves 127.0.0.1: fonts and assets come from the app', async () => {
  const { origin } = ide.theia;
  const outside = requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'));
  expect(outside).toEqual([]);
  expect(requests.some((url) => url.startsWith(`${origin}/excalidraw-assets/fonts/`))).toBe(true);
});
