import { describe, expect, it } from 'vitest';
import { NODE_TYPES } from '../families/whiteboard/tools.js';
import { ToolError } from '../contract/index.js';
import { newScene, parseScene, serializeScene, shapesOf, type Element } from './board.js';
import { addShape, deleteShape, updateShape } from './board-edit.js';
import { boundsOf, fitCamera, layoutBoard } from './board-layout.js';

const P = 'b.whiteboard.json';

function board() {
  return parseScene(serializeScene(newScene('Test')), P);
}

describe('the whiteboard model', () => {
  it('draws every semantic type as an Excalidraw element that keeps its meaning, and reads it back by meaning', () => {
    const scene = board();
    for (const type of NODE_TYPES) addShape(scene, { type, id: type, label: `a ${type}` }, P);
    const shapes = shapesOf(parseScene(serializeScene(scene), P));
    expect(shapes.map((s) => [s.id, s.type, s.label])).toEqual(NODE_TYPES.map((t) => [t, t, `a ${t}`]));
    for (const e of scene.elements) {
      expect(['rectangle', 'ellipse', 'diamond', 'text']).toContain(e.type);
      expect(e).toMatchObject({ version: expect.any(Number), seed: expect.any(Number), isDeleted: false });
    }
    // Placed in a row without overlapping.
    const boxes = shapes.map((s) => s.bounds);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.x).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width);
  });

  it('reads what a person drew in Excalidraw by its kind: boxes, arrows between them, free drawing', () => {
    const scene = board();
    const person = (e: Partial<Element>) => scene.elements.push({ x: 0, y: 0, width: 10, height: 10, ...e } as Element);
    person({
      id: 'r',
      type: 'rectangle',
      boundElements: [
        { id: 't', type: 'text' },
        { id: 'arr', type: 'arrow' },
      ],
    });
    person({ id: 't', type: 'text', containerId: 'r', text: 'wrapped\nlabel', originalText: 'wrapped label' });
    person({ id: 'e', type: 'ellipse', roundness: null, boundElements: [{ id: 'arr', type: 'arrow' }] });
    person({
      id: 'arr',
      type: 'arrow',
      startBinding: { elementId: 'r', focus: 0, gap: 1 },
      endBinding: { elementId: 'e', focus: 0, gap: 1 },
    });
    person({ id: 'f', type: 'freedraw' });
    person({ id: 'gone', type: 'rectangle', isDeleted: true });
    expect(shapesOf(scene)).toEqual([
      { id: 'r', type: 'box', label: 'wrapped label', bounds: { x: 0, y: 0, width: 10, height: 10 }, connections: ['arr'] },
      { id: 'e', type: 'ellipse', bounds: { x: 0, y: 0, width: 10, height: 10 }, connections: ['arr'] },
      { id: 'arr', type: 'arrow', bounds: { x: 0, y: 0, width: 10, height: 10 }, from: 'r', to: 'e' },
      { id: 'f', type: 'freedraw', bounds: { x: 0, y: 0, width: 10, height: 10 } },
    ]);
  });

  it('keeps fields it does not know, on the scene and on elements, through a change', () => {
    const scene = parseScene(
      JSON.stringify({
        type: 'excalidraw',
        version: 2,
        source: 'https://excalidraw.com',
        elements: [{ id: 'x', type: 'rectangle', x: 0, y: 0, width: 5, height: 5, customData: { mine: 1 }, frameId: 'f1' }],
        appState: { gridSize: 20 },
        files: { img: { mimeType: 'image/png' } },
        libraryItems: [],
      }),
      P,
    );
    updateShape(scene, 'x', { label: 'named' }, P);
    const saved = JSON.parse(serializeScene(scene));
    expect(saved).toMatchObject({ source: 'https://excalidraw.com', appState: { gridSize: 20 }, files: { img: {} }, libraryItems: [] });
    expect(saved.elements[0]).toMatchObject({ customData: { mine: 1, openspace: { type: 'box', label: 'named' } }, frameId: 'f1' });
  });

  it('moves connectors with the shapes they join and their labels with them; deleting takes connectors and labels', () => {
    const scene = board();
    addShape(scene, { type: 'box', id: 'a', x: 0, y: 0 }, P);
    addShape(scene, { type: 'box', id: 'b', x: 400, y: 0 }, P);
    addShape(scene, { type: 'arrow', id: 'ab', from: 'a', to: 'b', label: 'calls' }, P);
    const arrow = () => scene.elements.find((e) => e.id === 'ab')!;
    expect(arrow().x).toBeCloseTo(166, 0);
    expect(arrow().points!.at(-1)![0]).toBeCloseTo(400 - 6 - 166, 0);
    const versionBefore = arrow().version!;
    updateShape(scene, 'b', { y: 300 }, P);
    expect(arrow().version).toBeGreaterThan(versionBefore);
    const end = { x: arrow().x + arrow().points!.at(-1)![0], y: arrow().y + arrow().points!.at(-1)![1] };
    expect(end.y).toBeLessThan(300);
    expect(end.y).toBeGreaterThan(290);
    const label = scene.elements.find((e) => e.containerId === 'ab')!;
    expect(label.y + label.height / 2).toBeCloseTo(arrow().y + arrow().points!.at(-1)![1] / 2, 0);
    expect(deleteShape(scene, 'a', P).sort()).toEqual(['a', 'ab']);
    expect(scene.elements.map((e) => e.id)).toEqual(['b']);
    expect(scene.elements[0]!.boundElements).toEqual([]);
  });

  it('refuses what it cannot do with the codes the tools answer', () => {
    const scene = board();
    addShape(scene, { type: 'box', id: 'a' }, P);
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (err) {
        return (err as ToolError).code;
      }
      return 'none';
    };
    expect(code(() => addShape(scene, { type: 'arrow', from: 'a', to: 'zz' }, P))).toBe('SHAPE_NOT_FOUND');
    expect(code(() => addShape(scene, { type: 'box', from: 'a' }, P))).toBe('INVALID_ARGUMENT');
    expect(code(() => updateShape(scene, 'a', { to: 'a' }, P))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseScene('[]', P))).toBe('INVALID_FILE');
    expect(code(() => parseScene('{', P))).toBe('INVALID_FILE');
  });

  it('lays out a chain in the direction asked, and fits a camera to bounds within the viewport', () => {
    const scene = board();
    for (const id of ['a', 'b', 'c']) addShape(scene, { type: 'box', id, x: 0, y: 0 }, P);
    addShape(scene, { type: 'arrow', from: 'a', to: 'b' }, P);
    addShape(scene, { type: 'arrow', from: 'b', to: 'c' }, P);
    expect(layoutBoard(scene, 'right')).toBeGreaterThan(0);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => scene.elements.find((e) => e.id === id)!);
    expect(a!.x).toBeLessThan(b!.x);
    expect(b!.x).toBeLessThan(c!.x);
    expect(a!.y).toBe(b!.y);
    expect(layoutBoard(scene, 'right')).toBe(0);

    const bounds = boundsOf([a!, c!])!;
    const camera = fitCamera(bounds, { width: 1000, height: 500 });
    expect(camera.x).toBeCloseTo(bounds.x + bounds.width / 2);
    expect(camera.zoom * bounds.width).toBeLessThanOrEqual(1000 - 160);
    expect(fitCamera({ x: 0, y: 0, width: 10, height: 10 }, { width: 1000, height: 500 }).zoom).toBe(2);
    expect(fitCamera(undefined, { width: 1000, height: 500 })).toEqual({ x: 0, y: 0, zoom: 1 });
    // A connector's box is around its points, which may run up and left of where it starts.
    const up = {
      id: 'u',
      type: 'arrow',
      x: 100,
      y: 100,
      width: 50,
      height: 80,
      points: [
        [0, 0],
        [-50, -80],
      ],
    } as Element;
    expect(boundsOf([up])).toEqual({ x: 50, y: 20, width: 50, height: 80 });
  });
});
