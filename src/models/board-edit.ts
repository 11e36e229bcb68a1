/**
 * Changing a board by meaning: adding, updating and deleting shapes and connectors, as Excalidraw
 * elements drawn the way the shape's type asks. Every change bumps the changed elements' version,
 * as Excalidraw does, so an open editor takes them.
 */
import { ToolError } from '../contract/index.js';
import { live, requireShape, type Element, type Meaning, type NodeType, type Scene, type ShapeSpec, type ShapeUpdates } from './board.js';

/** How each semantic type is drawn with Excalidraw's primitives, and its default size. */
const LOOKS: Record<
  NodeType,
  { element: 'rectangle' | 'ellipse' | 'diamond' | 'text'; width: number; height: number; style?: Partial<Element> }
> = {
  box: { element: 'rectangle', width: 160, height: 80 },
  'rounded-box': { element: 'rectangle', width: 160, height: 80, style: { roundness: { type: 3 } } },
  ellipse: { element: 'ellipse', width: 160, height: 90 },
  diamond: { element: 'diamond', width: 160, height: 110 },
  cylinder: { element: 'rectangle', width: 120, height: 110, style: { roundness: { type: 3 }, strokeWidth: 3 } },
  cloud: { element: 'ellipse', width: 180, height: 100, style: { strokeStyle: 'dashed' } },
  actor: { element: 'ellipse', width: 70, height: 70 },
  text: { element: 'text', width: 160, height: 25 },
  note: { element: 'rectangle', width: 180, height: 120, style: { backgroundColor: '#fff3bf', fillStyle: 'solid' } },
  class: { element: 'rectangle', width: 220, height: 140 },
  interface: { element: 'rectangle', width: 220, height: 120, style: { strokeStyle: 'dashed' } },
  state: { element: 'rectangle', width: 150, height: 70, style: { roundness: { type: 3 } } },
  'initial-state': { element: 'ellipse', width: 30, height: 30, style: { backgroundColor: '#1e1e1e', fillStyle: 'solid' } },
  'final-state': { element: 'ellipse', width: 36, height: 36, style: { backgroundColor: '#1e1e1e', fillStyle: 'solid', strokeWidth: 4 } },
  process: { element: 'rectangle', width: 160, height: 80 },
  decision: { element: 'diamond', width: 160, height: 110 },
  'start-end': { element: 'ellipse', width: 160, height: 70 },
  'input-output': { element: 'rectangle', width: 160, height: 80, style: { strokeStyle: 'dotted' } },
  lifeline: { element: 'rectangle', width: 140, height: 60, style: { strokeStyle: 'dashed' } },
  activation: { element: 'rectangle', width: 20, height: 120, style: { backgroundColor: '#e9ecef', fillStyle: 'solid' } },
};

const GAP = 60;
const BIND_GAP = 6;

/** Excalidraw's seeds and nonces: any integer; different per change. */
const nonce = () => Math.floor(Math.random() * 2 ** 31);

function base(id: string, type: string, x: number, y: number, width: number, height: number): Element {
  return {
    id,
    type,
    x,
    y,
    width,
    height,
    angle: 0,
    strokeColor: '#1e1e1e',
    backgroundColor: 'transparent',
    fillStyle: 'solid',
    strokeWidth: 2,
    strokeStyle: 'solid',
    roughness: 1,
    opacity: 100,
    groupIds: [],
    frameId: null,
    roundness: null,
    seed: nonce(),
    version: 1,
    versionNonce: nonce(),
    isDeleted: false,
    boundElements: [],
    updated: Date.now(),
    link: null,
    locked: false,
  };
}

function touch(e: Element): void {
  e.version = (e.version ?? 0) + 1;
  e.versionNonce = nonce();
  e.updated = Date.now();
}

/** The text a shape shows: class and interface boxes as name, attributes and methods. */
function labelText(meaning: Meaning): string {
  if (meaning.type !== 'class' && meaning.type !== 'interface') return meaning.label ?? '';
  const name = meaning.type === 'interface' ? `«interface»\n${meaning.label ?? ''}` : (meaning.label ?? '');
  const sections = [name, (meaning.attributes ?? []).join('\n'), (meaning.methods ?? []).join('\n')];
  return sections.filter((s, i) => i === 0 || s !== '').join('\n──────\n');
}

function textElement(id: string, text: string, container: Element | undefined, x: number, y: number): Element {
  const lines = text.split('\n');
  const fontSize = 20;
  const width = container ? container.width - 10 : Math.max(20, ...lines.map((l) => l.length * fontSize * 0.55));
  const height = lines.length * fontSize * 1.25;
  const cx = container ? container.x + container.width / 2 : x + width / 2;
  const cy = container ? container.y + container.height / 2 : y + height / 2;
  return {
    ...base(id, 'text', cx - width / 2, cy - height / 2, width, height),
    boundElements: null,
    text,
    originalText: text,
    fontSize,
    fontFamily: 5,
    textAlign: 'center',
    verticalAlign: 'middle',
    containerId: container?.id ?? null,
    autoResize: true,
    lineHeight: 1.25,
  };
}

/** Where a shape goes when the agent gave no position: to the right of everything on the board. */
function freeSpot(scene: Scene): { x: number; y: number } {
  const nodes = live(scene).filter((e) => e.type !== 'arrow' && !e.containerId);
  if (nodes.length === 0) return { x: 0, y: 0 };
  return { x: Math.max(...nodes.map((e) => e.x + e.width)) + GAP, y: Math.min(...nodes.map((e) => e.y)) };
}

function uniqueId(scene: Scene, type: string): string {
  const taken = new Set(scene.elements.map((e) => e.id));
  for (let n = scene.elements.length + 1; ; n++) {
    const id = `${type}-${n}`;
    if (!taken.has(id)) return id;
  }
}

const centre = (e: Element) => ({ x: e.x + e.width / 2, y: e.y + e.height / 2 });

/** Where the line from a shape's centre towards a point leaves the shape's box, plus a gap. */
function edgePoint(e: Element, toward: { x: number; y: number }): { x: number; y: number } {
  const c = centre(e);
  const dx = toward.x - c.x;
  const dy = toward.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const hw = e.width / 2 + BIND_GAP;
  const hh = e.height / 2 + BIND_GAP;
  const scale = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  return { x: c.x + dx * scale, y: c.y + dy * scale };
}

/** Draw a connector straight between the shapes it joins (Excalidraw redraws it as a person drags). */
function route(scene: Scene, connector: Element): void {
  const from = live(scene).find((e) => e.id === connector.startBinding?.elementId);
  const to = live(scene).find((e) => e.id === connector.endBinding?.elementId);
  if (!from || !to) return;
  const start = edgePoint(from, centre(to));
  const end = edgePoint(to, centre(from));
  connector.x = start.x;
  connector.y = start.y;
  connector.points = [
    [0, 0],
    [end.x - start.x, end.y - start.y],
  ];
  connector.width = Math.abs(end.x - start.x);
  connector.height = Math.abs(end.y - start.y);
  const label = live(scene).find((e) => e.containerId === connector.id);
  if (label) {
    label.x = (start.x + end.x) / 2 - label.width / 2;
    label.y = (start.y + end.y) / 2 - label.height / 2;
    touch(label);
  }
  touch(connector);
}

/** Redraw the connectors attached to shapes that moved. */
export function rerouteAround(scene: Scene, shapeIds: Set<string>): void {
  for (const e of live(scene)) {
    if (e.type !== 'arrow' && e.type !== 'line') continue;
    if (shapeIds.has(e.startBinding?.elementId ?? '') || shapeIds.has(e.endBinding?.elementId ?? '')) route(scene, e);
  }
}

function bind(shape: Element, connectorId: string): void {
  shape.boundElements = [...(shape.boundElements ?? []).filter((b) => b.id !== connectorId), { id: connectorId, type: 'arrow' }];
  touch(shape);
}

function unbind(scene: Scene, shapeId: string | undefined, connectorId: string): void {
  const shape = scene.elements.find((e) => e.id === shapeId);
  if (!shape?.boundElements) return;
  shape.boundElements = shape.boundElements.filter((b) => b.id !== connectorId);
  touch(shape);
}

function setLabel(scene: Scene, owner: Element, text: string): void {
  const existing = live(scene).find((e) => e.containerId === owner.id);
  if (text === '') {
    if (existing) {
      existing.isDeleted = true;
      touch(existing);
      owner.boundElements = (owner.boundElements ?? []).filter((b) => b.id !== existing.id);
    }
    return;
  }
  const fresh = textElement(existing?.id ?? `${owner.id}-label`, text, owner.type === 'arrow' ? undefined : owner, owner.x, owner.y);
  if (owner.type === 'arrow') fresh.containerId = owner.id;
  if (existing) {
    Object.assign(existing, { text, originalText: text, width: fresh.width, height: fresh.height, x: fresh.x, y: fresh.y });
    touch(existing);
  } else {
    scene.elements.push(fresh);
    owner.boundElements = [...(owner.boundElements ?? []), { id: fresh.id, type: 'text' }];
  }
}

function requireEnd(scene: Scene, id: string | undefined, which: 'from' | 'to', path: string): Element {
  if (id === undefined) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `A connector needs ${which}: the ID of the shape it ${which === 'from' ? 'starts at' : 'points to'}.`,
      {
        fields: [`shape.${which}`],
      },
    );
  }
  const shape = requireShape(scene, id, path);
  if (shape.type === 'arrow' || shape.type === 'line') {
    throw new ToolError('INVALID_ARGUMENT', `"${id}" is a connector; connectors join shapes.`, { fields: [`shape.${which}`] });
  }
  return shape;
}

/** Add a shape or connector; returns its ID. */
export function addShape(scene: Scene, spec: ShapeSpec, path: string): string {
  const id = spec.id ?? uniqueId(scene, spec.type);
  if (scene.elements.some((e) => e.id === id && !e.isDeleted)) {
    throw new ToolError('INVALID_ARGUMENT', `${path} already has a shape "${id}"; pick another id or update that shape.`, {
      fields: ['shape.id'],
    });
  }
  scene.elements = scene.elements.filter((e) => e.id !== id);
  if (spec.type === 'arrow' || spec.type === 'line') return addConnector(scene, { ...spec, id }, path);
  if (spec.from !== undefined || spec.to !== undefined) {
    throw new ToolError('INVALID_ARGUMENT', `from and to are for connectors ("arrow", "line"), not "${spec.type}".`, {
      fields: ['shape.from', 'shape.to'],
    });
  }
  const look = LOOKS[spec.type as NodeType]; // the schema allows node types and the connectors handled above
  const spot = spec.x !== undefined && spec.y !== undefined ? { x: spec.x, y: spec.y } : freeSpot(scene);
  const meaning: Meaning = { type: spec.type };
  if (spec.label !== undefined) meaning.label = spec.label;
  if (spec.attributes) meaning.attributes = spec.attributes;
  if (spec.methods) meaning.methods = spec.methods;
  const extraLines = spec.type === 'class' || spec.type === 'interface' ? labelText(meaning).split('\n').length : 1;
  const height = spec.height ?? Math.max(look.height, extraLines * 25 + 20);
  const width = spec.width ?? look.width;
  if (look.element === 'text') {
    const text = textElement(id, spec.label ?? '', undefined, spot.x, spot.y);
    scene.elements.push({ ...text, customData: { openspace: meaning } });
    return id;
  }
  const shape: Element = { ...base(id, look.element, spot.x, spot.y, width, height), ...look.style, customData: { openspace: meaning } };
  if (spec.color) shape.backgroundColor = spec.color;
  scene.elements.push(shape);
  setLabel(scene, shape, labelText(meaning));
  return id;
}

function addConnector(scene: Scene, spec: ShapeSpec & { id: string }, path: string): string {
  const from = requireEnd(scene, spec.from, 'from', path);
  const to = requireEnd(scene, spec.to, 'to', path);
  const connector: Element = {
    ...base(spec.id, 'arrow', 0, 0, 0, 0),
    points: [
      [0, 0],
      [0, 0],
    ],
    startBinding: { elementId: from.id, focus: 0, gap: BIND_GAP },
    endBinding: { elementId: to.id, focus: 0, gap: BIND_GAP },
    startArrowhead: null,
    endArrowhead: spec.type === 'arrow' ? 'arrow' : null,
    elbowed: false,
    customData: { openspace: { type: spec.type, ...(spec.label !== undefined && { label: spec.label }) } },
  };
  scene.elements.push(connector);
  bind(from, connector.id);
  bind(to, connector.id);
  route(scene, connector);
  if (spec.label) setLabel(scene, connector, spec.label);
  route(scene, connector);
  return connector.id;
}

export function updateShape(scene: Scene, shapeId: string, updates: ShapeUpdates, path: string): void {
  const shape = requireShape(scene, shapeId, path);
  const connector = shape.type === 'arrow' || shape.type === 'line';
  const meaning: Meaning = { ...(shape.customData?.openspace ?? { type: shape.type === 'rectangle' ? 'box' : shape.type }) };
  if ((updates.from !== undefined || updates.to !== undefined) && !connector) {
    throw new ToolError('INVALID_ARGUMENT', `from and to are for connectors; "${shapeId}" is a ${meaning.type}.`, {
      fields: ['updates.from', 'updates.to'],
    });
  }
  if (connector) {
    for (const which of ['from', 'to'] as const) {
      const id = updates[which];
      if (id === undefined) continue;
      const end = requireEnd(scene, id, which, path);
      const key = which === 'from' ? 'startBinding' : 'endBinding';
      unbind(scene, shape[key]?.elementId, shape.id);
      shape[key] = { elementId: end.id, focus: 0, gap: BIND_GAP };
      bind(end, shape.id);
    }
  } else {
    if (updates.x !== undefined) shape.x = updates.x;
    if (updates.y !== undefined) shape.y = updates.y;
    if (updates.width !== undefined) shape.width = updates.width;
    if (updates.height !== undefined) shape.height = updates.height;
    if (updates.color !== undefined) shape.backgroundColor = updates.color;
  }
  if (updates.label !== undefined) meaning.label = updates.label;
  if (updates.attributes !== undefined) meaning.attributes = updates.attributes;
  if (updates.methods !== undefined) meaning.methods = updates.methods;
  shape.customData = { ...shape.customData, openspace: meaning };
  touch(shape);
  if (shape.type === 'text' && !shape.containerId) {
    Object.assign(shape, { text: meaning.label ?? '', originalText: meaning.label ?? '' });
  } else if (updates.label !== undefined || updates.attributes !== undefined || updates.methods !== undefined || !connector) {
    setLabel(scene, shape, labelText(meaning));
  }
  if (connector) route(scene, shape);
  else rerouteAround(scene, new Set([shape.id]));
}

/** Delete a shape, its label and its connectors; returns the shape and connector IDs deleted. */
export function deleteShape(scene: Scene, shapeId: string, path: string): string[] {
  const shape = requireShape(scene, shapeId, path);
  const connectors = live(scene).filter(
    (e) => (e.type === 'arrow' || e.type === 'line') && (e.startBinding?.elementId === shapeId || e.endBinding?.elementId === shapeId),
  );
  const gone = new Set([shape.id, ...connectors.map((c) => c.id)]);
  for (const e of scene.elements) {
    if (gone.has(e.id) || (e.containerId && gone.has(e.containerId))) {
      e.isDeleted = true;
      touch(e);
    }
  }
  for (const e of live(scene)) {
    if (e.boundElements?.some((b) => gone.has(b.id))) {
      e.boundElements = e.boundElements.filter((b) => !gone.has(b.id));
      touch(e);
    }
  }
  // Deleted elements only matter to an editor holding them; the file keeps the live ones.
  scene.elements = scene.elements.filter((e) => !e.isDeleted);
  return [...gone];
}
