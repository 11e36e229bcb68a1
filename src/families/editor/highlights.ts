import type { Highlight } from './port.js';

/**
 * The agent's highlights in one IDE, by ID. Both IDEs keep them here and add only what shows them
 * (Monaco decorations in Theia, passed to `onRemove` to take down): a highlight set again under its
 * ID replaces the old one, a highlight goes when its editor closes, and Escape in an editor clears
 * the ones shown there.
 */
export class HighlightRegistry<T extends Highlight = Highlight> {
  private readonly byId = new Map<string, T>();

  constructor(private readonly onRemove: (highlight: T) => void = () => {}) {}

  /** Add a highlight, replacing (and taking down) one with the same ID, on whichever file it was. */
  set(highlight: T): void {
    this.remove(highlight.highlightId);
    this.byId.set(highlight.highlightId, highlight);
  }

  /** Whether there was a highlight with this ID. */
  remove(highlightId: string): boolean {
    const highlight = this.byId.get(highlightId);
    if (!highlight) return false;
    this.byId.delete(highlightId);
    this.onRemove(highlight);
    return true;
  }

  /** Remove the highlights on a file (its editor closed, or Escape pressed in it); returns their IDs. */
  clearPath(path: string | undefined): string[] {
    const cleared = [...this.byId.values()].filter((h) => h.path === path).map((h) => h.highlightId);
    for (const id of cleared) this.remove(id);
    return cleared;
  }

  /** Whether a file has highlights. */
  has(path: string | undefined): boolean {
    return [...this.byId.values()].some((h) => h.path === path);
  }

  /** Every highlight as plain data. */
  list(): Highlight[] {
    return [...this.byId.values()].map(({ highlightId, path, ranges, color }) => ({
      highlightId,
      path,
      ranges: ranges.map((r) => ({ ...r })),
      color,
    }));
  }
}
