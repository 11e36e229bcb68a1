import { PaneStateSnapshot } from '../contract/index.js';
import type { BridgeRegistry } from './bridge.js';
import { renderInstructions, type TestsSummary } from './instructions.js';

/**
 * The latest pane state an IDE published and the instructions rendered from it. Rendering happens
 * once per change, so GET /openspace/instructions is a string lookup.
 */
export class HubState {
  private latest: PaneStateSnapshot | undefined;
  private tests: TestsSummary | undefined;
  private rendered: string;
  private readonly listeners = new Set<(before: PaneStateSnapshot | undefined, after: PaneStateSnapshot) => void>();

  constructor(
    private readonly bridges: BridgeRegistry,
    private readonly ideName: string,
  ) {
    this.rendered = this.render();
    bridges.onChange(() => (this.rendered = this.render()));
  }

  get snapshot(): PaneStateSnapshot | undefined {
    return this.latest;
  }

  get instructions(): string {
    return this.rendered;
  }

  /** Store a snapshot; an older one arriving late is ignored. Returns whether it was taken. */
  update(snapshot: PaneStateSnapshot): boolean {
    if (this.latest && Date.parse(snapshot.timestamp) < Date.parse(this.latest.timestamp)) return false;
    const before = this.latest;
    this.latest = snapshot;
    this.rendered = this.render();
    for (const listener of this.listeners) listener(before, snapshot);
    return true;
  }

  /** The last test run ended: the live state says how it went. */
  testsRan(tests: TestsSummary): void {
    this.tests = tests;
    this.rendered = this.render();
  }

  /** Fires after every snapshot taken, with the one before it. */
  onUpdate(listener: (before: PaneStateSnapshot | undefined, after: PaneStateSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private render(): string {
    return renderInstructions({
      snapshot: this.latest,
      tests: this.tests,
      ideConnected: this.bridges.current !== undefined,
      ideName: this.ideName,
    });
  }
}
