/**
 * Arranging a board (dagre's layered graph layout along the connectors) and fitting a view's
 * camera to shapes. Browser-safe.
 */
import dagre from '@dagrejs/dagre';
import type { Camera } from '../families/whiteboard/port.js';
import { live, type Element, type Scene } from './board.js';
import { rerouteAround } from './board-edit.js';

const RANKDIR = { down: 'TB', up: 'BT', right: 'LR', left: 'RL' } as const;
export type LayoutDirection = keyof typeof RANKDIR;

const isConnector = (e: Element) => e.type === 'arrow' || e.type === 'line';

/** Move every shape (not labels, not connectors) to dagre's places; returns how many moved. */
export function layoutBoard(scene: Scene, direction: LayoutDirection = 'down'): number {
  const elements = live(scene);
  const nodes = elements.filter((e) => !isConnector(e) && !e.containerId);
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: RANKDIR[direction], nodesep: 60, ranksep: 80, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width: node.width, height: node.height });
  const ids = new Set(nodes.map((n) => n.id));
  for (const connector of elements.filter(isConnector)) {
    const from = connector.startBinding?.elementId;
    const to = connector.endBinding?.elementId;
    if (from && to && ids.has(from) && ids.has(to)) graph.setEdge(from, to, {}, connector.id);
  }
  dagre.layout(graph);
  const moved = new Set<string>();
  for (const node of nodes) {
    const placed = graph.node(node.id);
    const x = Math.round(placed.x - node.width / 2);
    const y = Math.round(placed.y - node.height / 2);
    if (x === node.x && y === node.y) continue;
    const dx = x - node.x;
    const dy = y - node.y;
    node.x = x;
    node.y = y;
    node.version = (node.version ?? 0) + 1;
    for (const label of elements.filter((e) => e.containerId === node.id)) {
      label.x += dx;
      label.y += dy;
      label.version = (label.version ?? 0) + 1;
    }
    moved.add(node.id);
  }
  rerouteAround(scene, moved);
  return moved.size;
}

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The box around elements; a connector's is around its points, which may run left of or above its x, y. */
export function boundsOf(elements: Element[]): Bounds | undefined {
  if (elements.length === 0) return undefined;
  const corners = elements.flatMap((e) =>
    e.points && e.points.length > 0
      ? e.points.map(([px, py]) => [e.x + px, e.y + py])
      : [
          [e.x, e.y],
          [e.x + e.width, e.y + e.height],
        ],
  );
  const xs = corners.map(([x]) => x!);
  const ys = corners.map(([, y]) => y!);
  const [left, top] = [Math.min(...xs), Math.min(...ys)];
  return { x: left, y: top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}

/** Room around fitted content: an editor draws its toolbars over the edges of the view (Excalidraw: about 70 px). */
const FIT_MARGIN = 80;
const MAX_FIT_ZOOM = 2;
const MIN_ZOOM = 0.1;

/** The camera that shows the bounds whole in a viewport, with a margin, centred; zoom at most 200%. */
export function fitCamera(bounds: Bounds | undefined, viewport: { width: number; height: number }): Camera {
  if (!bounds) return { x: 0, y: 0, zoom: 1 };
  const zoom = Math.min(
    MAX_FIT_ZOOM,
    (viewport.width - 2 * FIT_MARGIN) / Math.max(bounds.width, 1),
    (viewport.height - 2 * FIT_MARGIN) / Math.max(bounds.height, 1),
  );
  return { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2, zoom: Math.max(MIN_ZOOM, Math.floor(zoom * 1000) / 1000) };
}
