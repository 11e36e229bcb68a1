/**
 * The branch and how many files changed, for the instructions' live state (issue 30): an IDE keeps
 * it from the status it reads anyway (Theia's source-control view, with `set`) or reads it again
 * after its commands (the simulated IDE, with `nudge`), at most once per interval. Browser-safe.
 */
import type { Disposable } from '../../contract/port.js';
import type { GitStatusInfo } from './port.js';

export interface GitSummaryInfo {
  /** null: a detached HEAD. */
  branch: string | null;
  /** Files with changes: staged, not staged, untracked or conflicted, each once. */
  changed: number;
}

/** What an IDE says of its repository for the live state; undefined outside a repository. */
export interface SourceControlSummary {
  summary(): GitSummaryInfo | undefined;
  onChanged(listener: () => void): Disposable;
}

export function summaryOf(status: GitStatusInfo): GitSummaryInfo {
  const paths = [...status.staged, ...status.unstaged].map((c) => c.path);
  return { branch: status.branch, changed: new Set([...paths, ...status.untracked, ...status.conflicted]).size };
}

/** A summary read with `read` when nudged: at once, then at most once per interval (one more read after it if nudged meanwhile). */
export class GitSummary implements SourceControlSummary {
  private current: GitSummaryInfo | undefined;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private again = false;

  constructor(
    /** How to read the status; without it, the summary is only what `set` gives. */
    private readonly read?: () => Promise<GitStatusInfo | undefined>,
    private readonly intervalMs = 1000,
  ) {}

  summary(): GitSummaryInfo | undefined {
    return this.current;
  }

  onChanged(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Something may have changed the repository: read it again soon. */
  nudge(): void {
    const read = this.read;
    if (!read) return;
    if (this.timer) {
      this.again = true;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    }, this.intervalMs);
    this.timer.unref?.();
    void read()
      .catch(() => undefined)
      .then((status) => this.set(status && summaryOf(status)));
  }

  /** Take a summary read elsewhere; listeners hear of a change. */
  set(summary: GitSummaryInfo | undefined): void {
    if (JSON.stringify(summary) === JSON.stringify(this.current)) return;
    this.current = summary;
    for (const listener of this.listeners) listener();
  }
}
