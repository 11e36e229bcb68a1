/**
 * What the person does in the IDE, as events an agent reads with openspace.events.query (issue 14).
 * Browser-safe, shared by both IDEs: the log listens to the IDE port and keeps the last
 * EVENT_LOG_CAPACITY events, numbered 1, 2, 3 … so that a cursor (the seq of the last event read)
 * never skips or repeats one, as the terminal ring buffer's cursor does for lines.
 *
 * Noise control: selection changes are folded into one event per file 500 ms after the person's
 * last move, edits into one per file a second after the last keystroke, diagnostics changes into
 * one per 2 s. Editors report only what a person did (EditorPort.onActivity); opens, closes and
 * layout changes come from the layout, where what an agent's call does shows too: a layout change
 * within an agent call, or AGENT_ECHO_MS after it, is the agent's, and what the layout is when the
 * call ends is the agent's too (observed then). Otherwise the layout is compared when the IDE
 * publishes it to the hub (StatePublisher, at most once a second, when the window is idle), so that
 * no layout is measured for events while a command runs.
 */
import { statePart } from './ide-state.js';
import { EVENT_LOG_CAPACITY, type EventType, type IdeEvent } from '../families/events/tools.js';
import type { Disposable } from '../contract/port.js';
import { within } from '../contract/time.js';
import type { IdePort, PaneLayout } from '../families/index.js';
import { terminalScreens } from '../families/terminal/output.js';
import { hunkPath } from '../families/git/parse.js';
import { familyOf } from '../contract/tool.js';

export const SELECTION_DEBOUNCE_MS = 500;
export const EDIT_DEBOUNCE_MS = 1000;
export const DIAGNOSTICS_DEBOUNCE_MS = 2000;
export const LAYOUT_DEBOUNCE_MS = 500;
/** How long after an agent's call the layout changes it caused may still arrive (Theia finishes tab work after answering). */
export const AGENT_ECHO_MS = 250;
/** The longest an agent's call counts as running while its tab work after answering is still to do. */
const VIEW_WORK_WAIT_MS = 2000;

export type NewEvent = Omit<IdeEvent, 'seq' | 'time'>;

export interface EventRead {
  events: IdeEvent[];
  cursor: number;
  dropped: number;
  more: boolean;
}

export class EventLog {
  /** Oldest first; seq increases by one from each to the next. */
  private events: IdeEvent[] = [];
  private lastSeq = 0;
  private readonly ignored = new Map<string, Set<EventType>>();
  private readonly listeners = new Set<(event: IdeEvent) => void>();

  constructor(private readonly capacity = EVENT_LOG_CAPACITY) {}

  /** The seq of the newest event (0 before any). */
  get cursor(): number {
    return this.lastSeq;
  }

  append(event: NewEvent): IdeEvent {
    const logged: IdeEvent = { seq: ++this.lastSeq, time: new Date().toISOString(), ...event };
    this.events.push(logged);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    for (const listener of this.listeners) listener(logged);
    return logged;
  }

  onAppend(listener: (event: IdeEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The types a session opted out of. */
  ignoredBy(sessionId: string | undefined): EventType[] {
    return [...(this.ignored.get(sessionId ?? '') ?? [])].sort();
  }

  configure(sessionId: string | undefined, change: { ignore?: EventType[]; receive?: EventType[] }): EventType[] {
    const key = sessionId ?? '';
    const set = new Set(this.ignored.get(key));
    for (const type of change.ignore ?? []) set.add(type);
    for (const type of change.receive ?? []) set.delete(type);
    if (set.size === 0) this.ignored.delete(key);
    else this.ignored.set(key, set);
    return this.ignoredBy(sessionId);
  }

  /**
   * Events after `since` (oldest first, at most `limit`), or without since the latest `limit`.
   * A cursor newer than the log (the IDE restarted) reads from the start.
   */
  query(options: { since?: number; types?: readonly EventType[]; limit?: number }, sessionId?: string): EventRead {
    const limit = options.limit ?? 100;
    const ignored = this.ignored.get(sessionId ?? '');
    const wanted = (e: IdeEvent) => (!options.types || options.types.includes(e.type)) && !ignored?.has(e.type);
    if (options.since === undefined) {
      return { events: this.events.filter(wanted).slice(-limit), cursor: this.lastSeq, dropped: 0, more: false };
    }
    const since = options.since > this.lastSeq ? 0 : options.since;
    const oldest = this.events[0]?.seq ?? this.lastSeq + 1;
    const dropped = Math.max(0, oldest - since - 1);
    const after = this.events.slice(Math.max(0, since + 1 - oldest));
    const picked: IdeEvent[] = [];
    for (const event of after) {
      if (!wanted(event)) continue;
      if (picked.length === limit) return { events: picked, cursor: picked[picked.length - 1]!.seq, dropped, more: true };
      picked.push(event);
    }
    return { events: picked, cursor: this.lastSeq, dropped, more: false };
  }
}

/** Runs `emit` once `ms` after the last of a burst of calls, per key. */
class Debouncer {
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; emit: () => void }>();

  constructor(private readonly ms: number) {}

  call(key: string, emit: () => void): void {
    clearTimeout(this.pending.get(key)?.timer);
    this.pending.set(key, { timer: setTimeout(() => this.flush(key), this.ms), emit });
  }

  /** Emit what waits for `key` now. */
  flush(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(key);
    pending.emit();
  }

  dispose(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

/** The panes of a layout and where they are, without tabs (file.opened and file.closed tell those), focus, sizes or dirty flags. */
function structure(layout: PaneLayout): string {
  return layout.panes.map((p) => `${p.id}@${p.area}`).join('|');
}

/** An IDE's event log fed from its port: what this module's header describes. */
export class IdeEvents implements Disposable {
  readonly log = new EventLog();
  private agentCalls = 0;
  private agentCallEnded = -Infinity;
  private openEditors: Set<string> | undefined;
  private layoutShape = '';
  /** A person changed the layout since it was last observed. */
  private personChangedLayout = false;
  /** An agent's call changed the layout since it was last observed. */
  private agentChangedLayout = false;
  private lastProblems: string;
  private readonly selections = new Debouncer(SELECTION_DEBOUNCE_MS);
  private readonly edits = new Debouncer(EDIT_DEBOUNCE_MS);
  private readonly diagnostics = new Debouncer(DIAGNOSTICS_DEBOUNCE_MS);
  private readonly layouts = new Debouncer(LAYOUT_DEBOUNCE_MS);
  private readonly subscriptions: Disposable[];
  /** The last command of each terminal already told. */
  private readonly finished = new Map<string, number>();

  constructor(private readonly ide: IdePort) {
    this.lastProblems = JSON.stringify(ide.code.problemCounts());
    this.subscriptions = [
      ide.editors.onActivity((activity) => {
        const { path } = activity;
        if (activity.kind === 'saved') {
          // The edits a save writes come first.
          this.edits.flush(path);
          this.log.append({ type: 'file.saved', path });
        } else if (activity.kind === 'edited') this.edits.call(path, () => this.log.append({ type: 'file.edited', path }));
        else if (activity.kind === 'selection') {
          const { start, end } = activity.selection;
          const selection = { startLine: start.line, endLine: end.line, empty: start.line === end.line && start.column === end.column };
          this.selections.call(path, () => this.log.append({ type: 'selection.changed', path, selection }));
        }
      }),
      ide.shell.onLayoutChanged(() => {
        if (this.agentActive) this.agentChangedLayout = true;
        else this.personChangedLayout = true;
      }),
      // A command finished in a terminal with shell integration (the agent's included: one typed with
      // terminal.send ends on its own time).
      terminalScreens(ide).onMark((terminalId) => {
        const last = terminalScreens(ide).shell(terminalId).last;
        if (!last || this.finished.get(terminalId) === last.id) return;
        this.finished.set(terminalId, last.id);
        this.log.append({ type: 'terminal.command_finished', terminalId, ...(last.exitCode !== undefined && { exitCode: last.exitCode }) });
      }),
      ide.code.onProblemsChanged(() =>
        this.diagnostics.call('', () => {
          const { errors, warnings } = this.ide.code.problemCounts();
          const now = JSON.stringify({ errors, warnings });
          if (now === this.lastProblems) return;
          this.lastProblems = now;
          this.log.append({ type: 'diagnostics.changed', problems: { errors, warnings } });
        }),
      ),
    ];
  }

  /**
   * An agent's call runs: what the layout does until AGENT_ECHO_MS after it is the agent's, and so
   * is the tab work its command left to do after answering (Theia), however late a busy window does
   * it (at most VIEW_WORK_WAIT_MS).
   */
  async duringAgentCall<T>(call: () => Promise<T>): Promise<T> {
    // A person's layout change not yet observed is measured now, before the agent's own changes
    // join it: else an agent's open right after a person's click (before the next publish) is theirs.
    if (this.personChangedLayout) this.observe(this.ide.shell.layout());
    this.agentCalls++;
    try {
      return await call();
    } finally {
      const ended = () => {
        this.agentCalls--;
        this.agentCallEnded = Date.now();
        // What the call left is the agent's: observed now, a late echo of it (Theia tells a change
        // again once panels settle, later on a busy window) finds nothing new to tell as the person's.
        if (this.agentChangedLayout && !this.personChangedLayout) this.observe(this.ide.shell.layout());
      };
      const viewWork = this.ide.shell.viewWorkDone?.();
      if (viewWork) void within(viewWork, VIEW_WORK_WAIT_MS).then(ended);
      else ended();
    }
  }

  /** Inside an agent's call: it waits for the person (a review, a command running), so what happens meanwhile is theirs. */
  async whileAgentWaits<T>(wait: Promise<T>): Promise<T> {
    this.agentCalls--;
    try {
      return await wait;
    } finally {
      this.agentCalls++;
    }
  }

  /**
   * A person's own command that changed the repository (the source-control view's stage, discard or
   * commit, run as the git tools): told as git.changed, with the tool and the files it named.
   */
  personChangedGit(tool: string, paths: readonly string[] = []): void {
    this.log.append({ type: 'git.changed', tool, ...(paths.length > 0 && { paths: [...paths] }) });
  }

  /** After a person ran a command: git.changed for a git tool that succeeded and changes something. */
  personRan(tool: { name: string; effect: string }, args: unknown, succeeded: boolean): void {
    if (!succeeded || tool.effect === 'read-only' || familyOf(tool.name) !== 'git') return;
    const input = (args ?? {}) as { paths?: unknown; hunks?: unknown };
    const named = [...(Array.isArray(input.paths) ? input.paths : []), ...(Array.isArray(input.hunks) ? input.hunks : [])];
    const paths = [...new Set(named.filter((p): p is string => typeof p === 'string').map(hunkPath))];
    this.personChangedGit(tool.name, paths);
  }

  agentCallFailed(tool: string, code: string): void {
    this.log.append({ type: 'agent.call_failed', tool, code });
  }

  private get agentActive(): boolean {
    return this.agentCalls > 0 || Date.now() - this.agentCallEnded < AGENT_ECHO_MS;
  }

  /** The layout as published: what a person opened or closed since the last one, and whether they moved panes. */
  observe(layout: PaneLayout): void {
    const open = new Set(layout.panes.flatMap((p) => p.tabs.filter((t) => t.type === 'editor').map((t) => t.contentId)));
    const shape = structure(layout);
    if (this.openEditors && this.personChangedLayout) {
      for (const path of open) if (!this.openEditors.has(path)) this.log.append({ type: 'file.opened', path });
      for (const path of this.openEditors) if (!open.has(path)) this.log.append({ type: 'file.closed', path });
      if (shape !== this.layoutShape) this.layouts.call('', () => this.log.append({ type: 'layout.changed' }));
    }
    this.personChangedLayout = false;
    this.agentChangedLayout = false;
    this.openEditors = open;
    this.layoutShape = shape;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const d of [this.selections, this.edits, this.diagnostics, this.layouts]) d.dispose();
  }
}

const events = statePart((ide) => new IdeEvents(ide));

/** The events of an IDE. An IDE calls this once it has its port, so events are kept from the start. */
export function ideEvents(ide: IdePort): IdeEvents {
  return events.of(ide);
}
