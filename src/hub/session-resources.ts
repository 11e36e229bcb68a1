/**
 * NFR-3.7.1: what an agent session created in the IDE — terminals, highlights, tabs it opened with
 * pane.open — so the hub can close them when the session ends (DELETE, transport closed, idle).
 * A tab a person pinned, or a tab with unsaved changes, is left alone.
 */
import type { PaneInfo } from '../contract/index.js';
import type { BridgeResult } from './bridge.js';

interface Created {
  terminals: Set<string>;
  highlights: Set<string>;
  /** Content IDs the session opened with pane.open that no tab showed before. */
  contents: Set<string>;
}

export interface CleanupReport {
  closed: string[];
  kept: string[];
}

type Run = (tool: string, args: Record<string, unknown>) => Promise<BridgeResult>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export class SessionResources {
  private readonly sessions = new Map<string, Created>();

  private created(sessionId: string): Created {
    let created = this.sessions.get(sessionId);
    if (!created) {
      created = { terminals: new Set(), highlights: new Set(), contents: new Set() };
      this.sessions.set(sessionId, created);
    }
    return created;
  }

  /**
   * Learn from one answered call. `wasOpen` tells whether a tab showed the content before a
   * pane.open (so the session does not take over a tab the person had open).
   */
  note(sessionId: string, tool: string, args: Record<string, unknown>, result: BridgeResult, wasOpen: (contentId: string) => boolean): void {
    if (!result.success) return;
    const known = this.sessions.get(sessionId);
    switch (tool) {
      case 'openspace.terminal.create':
        this.created(sessionId).terminals.add(String(result.terminalId));
        break;
      case 'openspace.terminal.close':
        known?.terminals.delete(String(result.terminalId));
        break;
      case 'openspace.editor.open':
      case 'openspace.editor.highlight': {
        const id = str(result.highlightId);
        if (id) this.created(sessionId).highlights.add(id);
        break;
      }
      case 'openspace.editor.clear_highlight':
        for (const id of (result.cleared as unknown[] | undefined) ?? []) known?.highlights.delete(String(id));
        break;
      case 'openspace.pane.open': {
        const contentId = String(result.contentId);
        if (!wasOpen(contentId)) this.created(sessionId).contents.add(contentId);
        break;
      }
      case 'openspace.pane.close':
        for (const id of (result.closed as unknown[] | undefined) ?? []) known?.contents.delete(String(id));
        break;
    }
  }

  /** Whether the session created anything still tracked. */
  has(sessionId: string): boolean {
    const c = this.sessions.get(sessionId);
    return !!c && c.terminals.size + c.highlights.size + c.contents.size > 0;
  }

  /** Close what the session created, sparing pinned and dirty tabs; forget the session. */
  async release(sessionId: string, run: Run): Promise<CleanupReport> {
    const created = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    const report: CleanupReport = { closed: [], kept: [] };
    if (!created) return report;
    const listed = await run('openspace.pane.list', {});
    const tabs = new Map((listed.success ? (listed.panes as PaneInfo[]) : []).flatMap((pane) => pane.tabs.map((tab) => [tab.contentId, tab] as const)));
    const spared = (contentId: string) => {
      const tab = tabs.get(contentId);
      return tab !== undefined && (tab.pinned === true || tab.isDirty);
    };
    const close = async (id: string, tool: string, args: Record<string, unknown>, tab = true) => {
      if (tab && spared(id)) return void report.kept.push(id);
      const result = await run(tool, args);
      if (result.success) report.closed.push(id);
    };
    for (const id of created.highlights) await close(id, 'openspace.editor.clear_highlight', { highlightId: id }, false);
    for (const id of created.terminals) await close(id, 'openspace.terminal.close', { terminalId: id });
    for (const id of created.contents) await close(id, 'openspace.pane.close', { contentId: id });
    return report;
  }
}
