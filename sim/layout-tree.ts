/**
 * The simulated IDE's split tree (sim/layout.ts): panes and the splits that hold them, found,
 * inserted, removed and laid out in percentages of the window.
 */
import type { Geometry, PaneArea, TabInfo } from '../src/contract/common.js';
import { MIN_PANE_PERCENT as MIN_SIZE } from '../src/families/index.js';

/** Lumino's naming: 'horizontal' lays children side by side, 'vertical' stacks them. */
export type Orientation = 'horizontal' | 'vertical';
export type Axis = 'x' | 'y';

export interface Pane {
  kind: 'pane';
  id: string;
  area: PaneArea;
  tabs: TabInfo[];
  /** -1 exactly when there are no tabs. */
  activeIndex: number;
}

export interface Split {
  kind: 'split';
  orientation: Orientation;
  children: LayoutNode[];
  ratios: number[];
}

export type LayoutNode = Pane | Split;

export type Rect = Geometry;

export function extent(rect: Rect, axis: Axis): number {
  return axis === 'x' ? rect.width : rect.height;
}

// ---- Split tree (Lumino DockLayout style) ----

export function leaves(node: LayoutNode): Pane[] {
  return node.kind === 'pane' ? [node] : node.children.flatMap(leaves);
}

export interface PathStep {
  split: Split;
  /** Which child of the split leads to the pane. */
  index: number;
}

/** The splits from the root down to the pane; empty for the root pane, undefined if absent. */
export function pathTo(node: LayoutNode, paneId: string): PathStep[] | undefined {
  if (node.kind === 'pane') return node.id === paneId ? [] : undefined;
  for (const [index, child] of node.children.entries()) {
    const rest = pathTo(child, paneId);
    if (rest) return [{ split: node, index }, ...rest];
  }
  return undefined;
}

/**
 * Puts `added` right after `target` along the orientation, taking half of the target's share.
 * Joining a parent split of the same orientation keeps the tree as flat as Lumino keeps it.
 * Returns the new root.
 */
export function insertBeside(root: LayoutNode, target: Pane, added: Pane, orientation: Orientation): LayoutNode {
  const parent = pathTo(root, target.id)?.at(-1);
  if (parent?.split.orientation === orientation) {
    const { split, index } = parent;
    const half = split.ratios[index]! / 2;
    split.children.splice(index + 1, 0, added);
    split.ratios.splice(index, 1, half, half);
    return root;
  }
  const pair: Split = { kind: 'split', orientation, children: [target, added], ratios: [0.5, 0.5] };
  if (!parent) return pair;
  parent.split.children[parent.index] = pair;
  return root;
}

/**
 * Takes a pane out of the tree; the siblings share its space in proportion. A split left with one
 * child is replaced by that child, and since orientations alternate down the tree, a split child
 * then merges into its new parent. Returns the new root.
 */
export function removePane(root: LayoutNode, paneId: string): LayoutNode {
  const path = pathTo(root, paneId) ?? [];
  const parent = path.at(-1);
  if (!parent) return root;
  const { split, index } = parent;
  split.children.splice(index, 1);
  split.ratios.splice(index, 1);
  const total = split.ratios.reduce((sum, r) => sum + r, 0);
  split.ratios = split.ratios.map((r) => r / total);
  if (split.children.length > 1) return root;

  const only = split.children[0]!;
  const grandparent = path.at(-2);
  if (!grandparent) return only;
  const { split: outer, index: at } = grandparent;
  if (only.kind === 'split') {
    const share = outer.ratios[at]!;
    outer.children.splice(at, 1, ...only.children);
    outer.ratios.splice(at, 1, ...only.ratios.map((r) => r * share));
  } else {
    outer.children[at] = only;
  }
  return root;
}

/** Fills `out` with each pane's rectangle, dividing `rect` by the split ratios. */
export function placePanes(node: LayoutNode, rect: Rect, out: Map<string, Rect>): void {
  if (node.kind === 'pane') {
    out.set(node.id, rect);
    return;
  }
  let start = 0;
  node.children.forEach((child, i) => {
    const share = node.ratios[i]!;
    const part =
      node.orientation === 'horizontal'
        ? { ...rect, x: rect.x + rect.width * start, width: rect.width * share }
        : { ...rect, y: rect.y + rect.height * start, height: rect.height * share };
    placePanes(child, part, out);
    start += share;
  });
}

/** The smallest extent along the axis the node can have, ratios kept, with every pane at MIN_SIZE. */
export function minExtent(node: LayoutNode, axis: Axis): number {
  if (node.kind === 'pane') return MIN_SIZE;
  const divides = node.orientation === orientationOf(axis);
  return Math.max(...node.children.map((child, i) => (divides ? minExtent(child, axis) / node.ratios[i]! : minExtent(child, axis))));
}

export function orientationOf(axis: Axis): Orientation {
  return axis === 'x' ? 'horizontal' : 'vertical';
}
