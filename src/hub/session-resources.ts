/**
 * NFR-3.7.1: what an agent session created in the IDE — terminals, highlights, tabs it opened with
 * pane.open, debug sessions and breakpoints — so the hub can close them when the session ends (DELETE, transport closed, idle).
 * What a call creates or closes comes from its own answer, as its tool definition reads it
 * (`session` in each family's tools.ts); a tab a person pinned, or a tab with unsaved changes, is left alone.
 */
import type { PaneInfo, SessionResource, ToolDefinition } from '../contract/index.js';
import type { ToolResult } from '../contract/index.js';

export interface CleanupReport {
  closed: string[];
  kept: string[];
}

type Run = (tool: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** How the hub closes each kind of thing a session created, with the session's own tools. */
const CLOSE: Record<SessionResource['kind'], (id: string) => [tool: string, args: Record<string, unknown>]> = {
  highlight: (id) => ['openspace.editor.clear_highlight', { highlightId: id }],
  terminal: (id) => ['openspace.terminal.close', { terminalId: id }],
  tab: (id) => ['openspace.pane.close', { contentId: id }],
  debug: (id) => ['openspace.debug.stop', { sessionId: id }],
  breakpoint: (id) => ['openspace.debug.breakpoint.remove', { id }],
};

/** Cleaned up in this order: highlights before the tabs they are on; programs before their breakpoints. */
const ORDER: SessionResource['kind'][] = ['highlight', 'debug', 'breakpoint', 'terminal', 'tab'];

const key = (r: SessionResource) => `${r.kind}\u0000${r.id}`;

export class SessionResources {
  private readonly sessions = new Map<string, Map<string, SessionResource>>();

  /** Learn from one answered call what the session created or closed. */
  note(sessionId: string, tool: ToolDefinition, result: ToolResult): void {
    if (!result.success || !tool.session) return;
    const answer = result as never;
    const created = tool.session.creates?.(answer) ?? [];
    const released = tool.session.releases?.(answer) ?? [];
    if (created.length === 0 && !this.sessions.has(sessionId)) return;
    let owned = this.sessions.get(sessionId);
    if (!owned) this.sessions.set(sessionId, (owned = new Map()));
    for (const r of created) owned.set(key(r), r);
    for (const r of released) owned.delete(key(r));
  }

  /** Whether the session created anything still tracked. */
  has(sessionId: string): boolean {
    return (this.sessions.get(sessionId)?.size ?? 0) > 0;
  }

  /** Close what the session created, sparing pinned and dirty tabs; forget the session. */
  async release(sessionId: string, run: Run): Promise<CleanupReport> {
    const owned = [...(this.sessions.get(sessionId)?.values() ?? [])];
    this.sessions.delete(sessionId);
    const report: CleanupReport = { closed: [], kept: [] };
    if (owned.length === 0) return report;
    const listed = await run('openspace.pane.list', {});
    const tabs = new Map(
      (listed.success ? (listed.panes as PaneInfo[]) : []).flatMap((pane) => pane.tabs.map((tab) => [tab.contentId, tab] as const)),
    );
    const spared = (r: SessionResource) => {
      const tab = r.kind === 'terminal' || r.kind === 'tab' ? tabs.get(r.id) : undefined;
      return tab !== undefined && (tab.pinned === true || tab.isDirty);
    };
    owned.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
    for (const r of owned) {
      if (spared(r)) {
        report.kept.push(r.id);
        continue;
      }
      const result = await run(...CLOSE[r.kind](r.id));
      if (result.success) report.closed.push(r.id);
    }
    return report;
  }
}
