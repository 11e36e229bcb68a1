/**
 * The `.whiteboard.json` board (TECHSPEC §5.3): an Excalidraw scene, so the file opens in any
 * Excalidraw tool, read and changed here as shapes with meaning. A semantic shape is one Excalidraw
 * element (id = the shape's ID, its meaning in `customData.openspace`) plus a bound text element
 * for its label; a connector is an Excalidraw arrow bound to both shapes, so Excalidraw keeps it
 * attached when a person drags either. Elements a person drew without meaning read as their
 * Excalidraw type. Browser-safe, no IDE imports.
 */
import { ToolError } from '../contract/index.js';
import type { CONNECTOR_TYPES, NODE_TYPES, ShapeInfo } from '../families/whiteboard/tools.js';

export type NodeType = (typeof NODE_TYPES)[number];
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];

/** An Excalidraw element: the fields read here, every other field kept as it is. */
export interface Element {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  isDeleted?: boolean;
  text?: string;
  originalText?: string;
  containerId?: string | null;
  backgroundColor?: string;
  boundElements?: { id: string; type: string }[] | null;
  startBinding?: Binding | null;
  endBinding?: Binding | null;
  points?: [number, number][];
  customData?: { openspace?: Meaning; [key: string]: unknown };
  version?: number;
  versionNonce?: number;
  updated?: number;
  [key: string]: unknown;
}

interface Binding {
  elementId: string;
  focus: number;
  gap: number;
  [key: string]: unknown;
}

/** What an agent meant by a shape, kept in the element's customData. */
export interface Meaning {
  type: string;
  label?: string;
  attributes?: string[];
  methods?: string[];
}

export interface Scene {
  type: 'excalidraw';
  version: number;
  source?: string;
  elements: Element[];
  appState: { name?: string; [key: string]: unknown };
  files: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ShapeSpec {
  type: string;
  id?: string;
  label?: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  color?: string;
  attributes?: string[];
  methods?: string[];
  from?: string;
  to?: string;
}

export type ShapeUpdates = Omit<ShapeSpec, 'type' | 'id'>;

export function newScene(title: string): Scene {
  return {
    type: 'excalidraw',
    version: 2,
    source: 'openspace',
    elements: [],
    appState: { name: title, viewBackgroundColor: '#ffffff', gridSize: null },
    files: {},
  };
}

export function parseScene(text: string, path: string): Scene {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ToolError('INVALID_FILE', `${path} is not JSON (${(err as Error).message}); a whiteboard is an Excalidraw scene.`);
  }
  const scene = parsed as Partial<Scene> | null;
  if (!scene || typeof scene !== 'object' || scene.type !== 'excalidraw' || !Array.isArray(scene.elements)) {
    throw new ToolError('INVALID_FILE', `${path} is not an Excalidraw scene: it needs "type": "excalidraw" and an "elements" array.`);
  }
  return { ...scene, appState: scene.appState ?? {}, files: scene.files ?? {} } as Scene;
}

export function serializeScene(scene: Scene): string {
  return JSON.stringify(scene, null, 2) + '\n';
}

export const live = (scene: Scene): Element[] => scene.elements.filter((e) => !e.isDeleted);

const isConnector = (e: Element) => e.type === 'arrow' || (e.type === 'line' && (e.startBinding || e.endBinding));
/** A label: text inside a container (Excalidraw's bound text). */
const isLabel = (e: Element) => e.type === 'text' && !!e.containerId;

export function boardTitle(scene: Scene, path: string): string {
  return typeof scene.appState.name === 'string' && scene.appState.name ? scene.appState.name : (path.split('/').pop() ?? path);
}

/** The scene's shapes with meaning: every live element except labels. */
export function shapesOf(scene: Scene): ShapeInfo[] {
  const elements = live(scene);
  const labels = new Map(elements.filter(isLabel).map((t) => [t.containerId!, t]));
  return elements
    .filter((e) => !isLabel(e))
    .map((e) => {
      const meaning = e.customData?.openspace;
      const labelText =
        meaning?.label ?? labels.get(e.id)?.originalText ?? labels.get(e.id)?.text ?? (e.type === 'text' ? e.text : undefined);
      const info: ShapeInfo = {
        id: e.id,
        type: meaning?.type ?? semanticTypeOf(e),
        bounds: { x: round(e.x), y: round(e.y), width: round(e.width), height: round(e.height) },
      };
      if (labelText !== undefined && labelText !== '') info.label = labelText;
      if (e.backgroundColor && e.backgroundColor !== 'transparent') info.color = e.backgroundColor;
      if (meaning?.attributes) info.attributes = meaning.attributes;
      if (meaning?.methods) info.methods = meaning.methods;
      if (isConnector(e)) {
        if (e.startBinding?.elementId) info.from = e.startBinding.elementId;
        if (e.endBinding?.elementId) info.to = e.endBinding.elementId;
      } else {
        const connections = (e.boundElements ?? []).filter((b) => b.type === 'arrow').map((b) => b.id);
        if (connections.length > 0) info.connections = connections;
      }
      return info;
    });
}

/** What a person's drawing means, when no agent said: the Excalidraw type, with boxes as boxes. */
function semanticTypeOf(e: Element): string {
  if (e.type === 'rectangle') return e.roundness ? 'rounded-box' : 'box';
  return e.type;
}

const round = (n: number) => Math.round(n * 100) / 100;

export function requireShape(scene: Scene, shapeId: string, path: string): Element {
  const found = live(scene).find((e) => e.id === shapeId && !isLabel(e));
  if (!found) {
    const ids = shapesOf(scene).map((s) => s.id);
    throw new ToolError(
      'SHAPE_NOT_FOUND',
      `${path} has no shape "${shapeId}". Its shapes: ${ids.length > 0 ? ids.slice(0, 50).join(', ') : 'none'}.`,
    );
  }
  return found;
}
