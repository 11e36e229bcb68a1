import type { PaneStateSnapshot } from '../contract/index.js';
import type { Disposable, IdePort } from './port.js';

export function snapshotOf(ide: IdePort): PaneStateSnapshot {
  const { panes, activePaneId, activeContentId } = ide.shell.layout();
  return { panes, activePaneId, activeContentId, activeEditor: ide.editors.current(), timestamp: new Date().toISOString() };
}

/**
 * Publishes the layout to the hub on every change, at most once per interval (FR-3.7.3): the first
 * change goes out at once, later ones within the interval are folded into one trailing publish of
 * the state as it is then, so the last change is always delivered.
 */
export class StatePublisher implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending = false;
  private readonly subscription: Disposable;

  constructor(
    private readonly ide: IdePort,
    private readonly publish: (snapshot: PaneStateSnapshot) => unknown,
    private readonly intervalMs = 1000,
  ) {
    this.subscription = ide.shell.onLayoutChanged(() => this.changed());
    this.changed();
  }

  private changed(): void {
    if (this.timer) {
      this.pending = true;
      return;
    }
    this.emit();
  }

  private emit(): void {
    this.timer = setTimeout(() => this.tick(), this.intervalMs);
    Promise.resolve()
      .then(() => this.publish(snapshotOf(this.ide)))
      .catch(() => {
        // The hub being away is not the IDE's problem; the next change publishes again.
      });
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.pending) return;
    this.pending = false;
    this.emit();
  }

  dispose(): void {
    this.subscription.dispose();
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
