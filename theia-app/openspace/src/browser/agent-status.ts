/**
 * The agents in Theia's status bar (issue 14, Oxide §7 "MCP: ● connected"): whether an agent is
 * connected to the hub and what it is doing now; clicking it lists the sessions with their recent
 * calls. The hub tells the window who is connected; the window sees every call: those it runs as
 * commands here, and those of the families that run beside the files, which the backend tells it of.
 */
import { StatusBar, StatusBarAlignment } from '@theia/core/lib/browser/status-bar/status-bar-types';
import { CommandContribution, type CommandRegistry } from '@theia/core/lib/common/command';
import { QuickInputService, type QuickPickItem, type QuickPickSeparator } from '@theia/core/lib/common/quick-pick-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { CallContext, ToolResult } from '../../../../src/browser.js';
import type { BackendCall, ConnectedSession } from '../common/protocol.js';

export const STATUS_ID = 'openspace-agent-status';
export const SHOW_SESSIONS_COMMAND = { id: 'openspace.agentStatus.show', label: 'OpenSpace: Show Connected Agents' };

/** Recent calls kept per session. */
const RECENT_CALLS = 20;
/**
 * A call shows in the status bar once it has run this long: most calls take a few milliseconds,
 * and redrawing the status bar twice for each would only cost the agent's calls time; what a
 * person should see is a call that waits (for them, a command, a language server).
 */
const SHOW_RUNNING_AFTER_MS = 250;

interface Call {
  tool: string;
  startedAt: number;
  durationMs?: number;
  code?: string;
}

interface SessionActivity {
  clientName?: string;
  calls: Call[];
}

const shortName = (tool: string) => tool.replace(/^openspace\./, '');
const clock = (ms: number) => new Date(ms).toLocaleTimeString();

@injectable()
export class AgentStatus implements CommandContribution {
  @inject(StatusBar) protected readonly statusBar!: StatusBar;
  @inject(QuickInputService) protected readonly quickInput!: QuickInputService;

  private sessions: ConnectedSession[] = [];
  private readonly activity = new Map<string, SessionActivity>();
  private running: { sessionId: string; call: Call } | undefined;
  /** The backend's calls still running, by its call ID. */
  private readonly backendCalls = new Map<number, { sessionId: string; call: Call }>();
  /** The text shown now, so that the status bar is redrawn only when it changes. */
  private shown: string | undefined;

  registerCommands(registry: CommandRegistry): void {
    registry.registerCommand(SHOW_SESSIONS_COMMAND, { execute: () => this.showSessions() });
    void this.render();
  }

  /** The hub's list of connected agents changed. */
  sessionsChanged(sessions: ConnectedSession[]): void {
    this.sessions = sessions;
    const live = new Set(sessions.map((s) => s.sessionId));
    for (const id of this.activity.keys()) if (!live.has(id)) this.activity.delete(id);
    void this.render();
  }

  /** Run an agent's call, showing it while it runs and keeping it among the session's recent calls. */
  async track(tool: string, context: CallContext, run: () => Promise<ToolResult>): Promise<ToolResult> {
    const call = this.begin(tool, context, Date.now());
    const showRunning = setTimeout(() => void this.render(), SHOW_RUNNING_AFTER_MS);
    let result: ToolResult | undefined;
    try {
      return (result = await run());
    } finally {
      clearTimeout(showRunning);
      this.end(call, result);
    }
  }

  /**
   * A call the backend ran (a command beside the files): told while it still runs after a while,
   * and when it is done; a quick one only joins the recent calls.
   */
  backendCall(update: BackendCall): void {
    let call = this.backendCalls.get(update.callId);
    if (!call) {
      call = this.begin(update.tool, update.context, update.startedAt);
      if (!update.result) {
        this.backendCalls.set(update.callId, call);
        void this.render();
        return;
      }
    }
    this.backendCalls.delete(update.callId);
    this.end(call, update.result);
  }

  private begin(tool: string, context: CallContext, startedAt: number): { sessionId: string; call: Call } {
    let session = this.activity.get(context.sessionId);
    if (!session) this.activity.set(context.sessionId, (session = { calls: [] }));
    session.clientName ??= context.clientName;
    const call: Call = { tool, startedAt };
    session.calls.push(call);
    if (session.calls.length > RECENT_CALLS) session.calls.shift();
    this.running = { sessionId: context.sessionId, call };
    return this.running;
  }

  private end({ call }: { call: Call }, result: ToolResult | undefined): void {
    if (result) call.code = result.success ? 'OK' : result.code;
    call.durationMs = Date.now() - call.startedAt;
    if (this.running?.call === call) this.running = undefined;
    void this.render();
  }

  private nameOf(sessionId: string): string {
    return this.sessions.find((s) => s.sessionId === sessionId)?.clientName ?? this.activity.get(sessionId)?.clientName ?? 'agent';
  }

  private async render(): Promise<void> {
    const count = this.sessions.length;
    let text: string;
    if (this.running) text = `$(sync~spin) MCP: ${this.nameOf(this.running.sessionId)} · ${shortName(this.running.call.tool)}`;
    else if (count === 0) text = '$(circle-outline) MCP: no agent';
    else if (count === 1) text = `$(circle-filled) MCP: ${this.nameOf(this.sessions[0]!.sessionId)} connected`;
    else text = `$(circle-filled) MCP: ${count} agents connected`;
    if (text === this.shown) return;
    this.shown = text;
    await this.statusBar.setElement(STATUS_ID, {
      text,
      alignment: StatusBarAlignment.LEFT,
      priority: 100,
      tooltip:
        count === 0 ? 'No agent is connected to the OpenSpace hub' : 'Agents connected to the OpenSpace hub: click for their recent calls',
      command: SHOW_SESSIONS_COMMAND.id,
    });
  }

  private async showSessions(): Promise<void> {
    const items: (QuickPickItem | QuickPickSeparator)[] = [];
    for (const session of this.sessions) {
      const calls = this.activity.get(session.sessionId)?.calls ?? [];
      items.push({ type: 'separator', label: `${session.clientName ?? 'agent'} — connected ${clock(Date.parse(session.connectedAt))}` });
      if (calls.length === 0) items.push({ label: 'No calls yet' });
      for (const call of [...calls].reverse()) {
        const icon = call.code === undefined ? '$(sync~spin)' : call.code === 'OK' ? '$(check)' : '$(error)';
        const when =
          call.durationMs === undefined ? `running since ${clock(call.startedAt)}` : `${call.durationMs} ms · ${clock(call.startedAt)}`;
        const failed = call.code !== undefined && call.code !== 'OK' ? `${call.code} · ` : '';
        items.push({ label: `${icon} ${shortName(call.tool)}`, description: `${failed}${when}` });
      }
    }
    if (items.length === 0) items.push({ label: 'No agent is connected to the OpenSpace hub' });
    await this.quickInput.showQuickPick(items, { title: 'OpenSpace: connected agents and their recent calls' });
  }
}
