import type { PaneStateSnapshot } from '../contract/index.js';
import type { Disposable } from '../contract/port.js';
import type { IdePort } from '../families/index.js';
import { ideEvents } from './event-log.js';

export function snapshotOf(ide: IdePort): PaneStateSnapshot {
  const { panes, activePaneId, activeContentId } = ide.shell.layout();
  const presentations = ide.presentations.views().map(({ deckPath, slideIndex, playback }) => ({ deckPath, slideIndex, playback }));
  const problems = ide.code.problemCounts();
  const git = ide.sourceControl?.summary();
  const debug = ide.debug.sessions().map(({ id, name, state }) => ({
    sessionId: id,
    program: name,
    status: state.status,
    ...(state.status === 'stopped' && state.stopped && { reason: state.stopped.reason }),
  }));
  return {
    ...(git && { git }),
    ...(debug.length > 0 && { debug }),
    panes,
    activePaneId,
    activeContentId,
    activeEditor: ide.editors.current(),
    presentations,
    problems,
    eventsCursor: ideEvents(ide).log.cursor,
    timestamp: new Date().toISOString(),
  };
}

/**
 * Publishes the layout (the slide each open deck shows, the problem counts, the newest event) to the hub on every change, at most once per interval (FR-3.7.3): the first
 * change goes out at once, later ones within the interval are folded into one trailing publish of
 * the state as it is then, so the last change is always delivered. `schedule` decides when a
 * publish due runs: soon after (a microtask, the default), or, in a window, when its main thread is
 * idle, so that measuring the layout never lands inside the work of a command.
 */
export class StatePublisher implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending = false;
  private disposed = false;
  private observing = false;
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly ide: IdePort,
    private readonly publish: (snapshot: PaneStateSnapshot) => unknown,
    private readonly intervalMs = 1000,
    private readonly schedule: (run: () => void) => void = (run) => queueMicrotask(run),
  ) {
    this.subscriptions = [
      ide.shell.onLayoutChanged(() => this.changed()),
      ide.presentations.onViewChanged(() => this.changed()),
      ide.code.onProblemsChanged(() => this.changed()),
      ...(ide.sourceControl ? [ide.sourceControl.onChanged(() => this.changed())] : []),
      ide.debug.onChanged(() => this.changed()),
      // Events the layout itself causes (observe below) go out with it, not in a publish of their own.
      ideEvents(ide).log.onAppend(() => this.observing || this.changed()),
    ];
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
    this.schedule(() => {
      if (this.disposed) return;
      Promise.resolve()
        .then(() => {
          const snapshot = snapshotOf(this.ide);
          const events = ideEvents(this.ide);
          this.observing = true;
          try {
            events.observe(snapshot);
          } finally {
            this.observing = false;
          }
          return this.publish({ ...snapshot, eventsCursor: events.log.cursor });
        })
        .catch(() => {
          // The hub being away is not the IDE's problem; the next change publishes again.
        });
    });
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.pending) return;
    this.pending = false;
    this.emit();
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
