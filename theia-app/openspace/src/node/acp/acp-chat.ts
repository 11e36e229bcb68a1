/**
 * One agent in the chat panel over the Agent Client Protocol (issue 33): the agent's process
 * started over stdio in the workspace (Claude through `claude-agent-acp`, `opencode acp`, Gemini
 * CLI, Codex through `codex-acp`, any other ACP agent), spoken to with the official SDK
 * (`@agentclientprotocol/sdk`). Each session it opens has OpenSpace as its MCP server — the hub's
 * URL, the token in the request's Authorization header, never in a prompt or a file — so the agent
 * works the IDE with the same tools as every other agent. What the agent streams becomes the
 * panel's sessions, messages and parts (./acp-parts.ts) and their events, so the panel shows an ACP
 * agent as it shows OpenCode; its permission requests are the panel's permission cards.
 */
import type { ChildProcess } from 'node:child_process';
import {
  client,
  type ClientConnection,
  type InitializeResponse,
  type McpServer,
  type SessionMode,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import type { ForkSessionRequest, ForkSessionResponse, SessionCapabilities } from '@agentclientprotocol/sdk/unstable';
import type {
  AcpAgentSetting,
  AssistantMessage,
  ChatAbilities,
  ChatClient,
  ChatConnection,
  Event,
  MessageEntry,
  Part,
  PermissionReply,
  PermissionRequest,
  PromptImage,
  Replay,
  Session,
  SessionStatus,
} from '../../common/chat-protocol.js';
import { EventRing } from '../chat/event-ring.js';
import {
  assistantMessage,
  copiedConversation,
  errorText,
  mentionedFiles,
  openspaceServer,
  Replay as Replaying,
  sessionOf,
  startFailure,
  userEntry,
  sessionChange,
  imageBlock,
  type MessageMaker,
} from './acp-messages.js';
import { partIds, TurnParts } from './acp-parts.js';
import { stop } from './process-group.js';
import { signInMethod } from './acp-sign-in.js';
import { TurnChanges } from './acp-changes.js';
import { PermissionCards } from './acp-permissions.js';
import { agentStream, initialize, spawnAgent } from './acp-process.js';

export type { AcpAgentSetting };

export interface AcpChatOptions {
  agent: AcpAgentSetting;
  /** The workspace: the agent's working directory and every session's cwd. */
  directory: string;
  /** The hub the agent's sessions use as their MCP server, once it listens. */
  hub(): { mcpUrl: string | undefined; token: string | undefined };
  /** Sent to the hub with every MCP request, so the agent's hub sessions end with its process. */
  label: string;
  /** The agent's process ended (its hub sessions go with it). */
  exited?(): void;
}

/** ACP's "authentication required" error code. */
const AUTH_REQUIRED = -32000;

let eventCount = 0;
const eventId = () => `evt_acp_${++eventCount}`;

export class AcpChat {
  private child: ChildProcess | undefined;
  private acp: ClientConnection | undefined;
  private starting: Promise<ChatConnection> | undefined;
  private state: ChatConnection = { state: 'stopped' };
  private info: InitializeResponse | undefined;
  private readonly sessionsById = new Map<string, Session>();
  private readonly entries = new Map<string, MessageEntry[]>();
  private readonly turns = new Map<string, { parts: TurnParts; changes: TurnChanges; message: AssistantMessage; cancelled: boolean }>();
  private readonly statusById = new Map<string, SessionStatus>();
  /** Conversations the agent is replaying (session/load), by session. */
  private readonly replays = new Map<string, Replaying>();
  /** The agent's modes, as its last new session said them. */
  private modes: SessionMode[] = [];
  /** Whether the agent's sessions from before were listed on this connection. */
  private listed = false;
  private readonly cards = new PermissionCards((event) => this.emit(event));
  private readonly nextMessageId = partIds('msg_acp');
  /** How this agent's messages are made. */
  private readonly maker: MessageMaker;
  private stderr = () => '';
  private readonly events = new EventRing();
  /** Why the running agent's process ended, once it has. */
  private ended: Promise<string> = new Promise(() => {});
  private tellEnded: (reason: string) => void = () => {};

  constructor(private readonly options: AcpChatOptions) {
    this.maker = { agent: options.agent.name, directory: options.directory, nextId: this.nextMessageId };
  }

  connection(): ChatConnection {
    return this.state;
  }

  /** A window's panel: told of every event and connection change until it goes. */
  addClient(client: ChatClient): () => void {
    return this.events.addClient(client);
  }

  /** What a window missed since `seq`. */
  replay(seq: number): Replay {
    return this.events.replay(seq);
  }

  /** Start the agent and say hello (`initialize`), once; a failed or crashed agent starts again on the next call. */
  connect(): Promise<ChatConnection> {
    if (this.state.state === 'connected') return Promise.resolve(this.state);
    return (this.starting ??= this.start().finally(() => (this.starting = undefined)));
  }

  private async start(): Promise<ChatConnection> {
    const { agent, directory } = this.options;
    this.setState({ state: 'starting' });
    const started = spawnAgent(agent, directory);
    const child = started.child;
    this.child = child;
    this.stderr = started.stderr;
    this.ended = new Promise((resolve) => (this.tellEnded = resolve));
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    try {
      await started.spawned;
      const app = client({ name: 'OpenSpace' })
        .onNotification('session/update', ({ params }) => this.update(params))
        .onRequest('session/request_permission', ({ params, signal }) => {
          const turn = this.turns.get(params.sessionId);
          return this.cards.ask(params, signal, turn?.message.id, turn?.parts.call(params.toolCall.toolCallId));
        });
      this.acp = app.connect(agentStream(child));
      this.info = await initialize(this.acp);
      const version = this.info.agentInfo?.version;
      const sessions = this.sessionCapabilities();
      // What the panel offers: ACP has no revert or compact; a fork is of a whole session.
      const can: ChatAbilities = {
        revert: false,
        compact: false,
        fork: sessions.fork ? 'session' : false,
        deleteSession: !!sessions.delete,
      };
      this.setState({ state: 'connected', url: `acp:${agent.name}`, started: true, can, ...(version && { version }) });
    } catch (error) {
      void stop(child);
      this.setState({ state: 'failed', message: this.failure(error) });
    }
    return this.state;
  }

  /** What the agent can do with sessions, `session/fork` (still unstable in ACP) included. */
  private sessionCapabilities(): SessionCapabilities {
    return (this.info?.agentCapabilities?.sessionCapabilities ?? {}) as SessionCapabilities;
  }

  private failure(error: unknown): string {
    return startFailure(this.options.agent, error, this.stderr());
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.acp?.close();
    this.acp = undefined;
    this.listed = false;
    const how = signal ? `it ended (${signal})` : `it exited with code ${code}`;
    this.tellEnded(`${this.options.agent.name} stopped: ${how}`);
    this.cards.cancel();
    for (const sessionID of this.turns.keys()) this.endTurn(sessionID, `${this.options.agent.name} stopped: ${how}`);
    if (this.state.state !== 'failed') this.setState({ state: 'failed', message: this.failure(new Error(how)) });
    this.options.exited?.();
  }

  private setState(state: ChatConnection): void {
    this.state = state;
    this.events.connectionChanged(state);
  }

  private emit(event: Omit<Event, 'id'>): void {
    this.events.publish({ id: eventId(), ...event } as Event);
  }

  private async agent() {
    const state = await this.connect();
    if (state.state !== 'connected' || !this.acp) throw new Error(state.state === 'failed' ? state.message : 'The agent is not running.');
    return this.acp.agent;
  }

  /**
   * The agent's sessions: those made here, and where the agent lists them (`session/list`) its
   * sessions in this workspace from before, whose conversation loads when one is opened.
   */
  async sessions(): Promise<Session[]> {
    const agent = await this.agent();
    if (this.sessionCapabilities().list && !this.listed) {
      this.listed = true;
      let cursor: string | undefined;
      do {
        const page = await agent.request('session/list', { cwd: this.options.directory, ...(cursor && { cursor }) });
        for (const info of page.sessions) {
          if (this.sessionsById.has(info.sessionId)) continue;
          const updated = info.updatedAt ? Date.parse(info.updatedAt) || Date.now() : Date.now();
          this.sessionsById.set(info.sessionId, {
            ...sessionOf(this.maker, info.sessionId, info.title ?? 'Untitled', updated),
            metadata: { stored: true },
          });
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    }
    return [...this.sessionsById.values()];
  }

  /** OpenSpace as the agent's MCP server: the hub's URL, the token in a header, the label that ends its sessions with the agent. */
  private mcpServer(): McpServer {
    if (!this.info?.agentCapabilities?.mcpCapabilities?.http)
      throw new Error(`${this.options.agent.name} does not take MCP servers over HTTP, so it cannot use OpenSpace's tools.`);
    return openspaceServer(this.options.hub(), this.options.label);
  }

  /** A new session of the agent in the workspace, with OpenSpace as its MCP server. */
  async createSession(title?: string): Promise<Session> {
    const agent = await this.agent();
    const mcp = this.mcpServer();
    const newSession = () => agent.request('session/new', { cwd: this.options.directory, mcpServers: [mcp] });
    const created = await newSession().catch(async (error: unknown) => {
      if ((error as { code?: number })?.code !== AUTH_REQUIRED) throw error;
      await this.signIn();
      return newSession();
    });
    const now = Date.now();
    const session = sessionOf(
      this.maker,
      created.sessionId,
      title ?? `${this.options.agent.name} ${new Date(now).toLocaleTimeString()}`,
      now,
    );
    if (created.modes) {
      this.modes = created.modes.availableModes;
      session.metadata = { mode: created.modes.currentModeId };
    }
    this.sessionsById.set(session.id, session);
    this.entries.set(session.id, []);
    this.emit({ type: 'session.created', properties: { sessionID: session.id, info: session } });
    return session;
  }

  /** The agent asked for a sign-in (see acp-sign-in.ts). */
  private async signIn(): Promise<void> {
    const methodId = signInMethod(this.options.agent, this.info?.authMethods ?? []);
    await this.acp!.agent.request('authenticate', { methodId });
  }

  /** A session's conversation as held now (none for one from before not opened yet). */
  conversation(sessionID: string): MessageEntry[] {
    return this.entries.get(sessionID) ?? [];
  }

  /** A session's conversation; one listed from before is loaded first (`session/load`: the agent replays it). */
  async messages(sessionID: string): Promise<MessageEntry[]> {
    const session = this.sessionsById.get(sessionID);
    if (session?.metadata?.stored && !this.entries.has(sessionID)) await this.load(session);
    return this.entries.get(sessionID) ?? [];
  }

  /**
   * A session from before, opened: replayed where the agent can (`session/load`); else taken up
   * without its conversation (`session/resume`), which the panel says.
   */
  private async load(session: Session): Promise<void> {
    const agent = await this.agent();
    const params = { sessionId: session.id, cwd: this.options.directory, mcpServers: [this.mcpServer()] };
    const can = this.info?.agentCapabilities;
    let resumed = false;
    if (can?.loadSession) {
      const replay = new Replaying(this.maker, session.id);
      this.replays.set(session.id, replay);
      try {
        await agent.request('session/load', params);
      } finally {
        this.replays.delete(session.id);
      }
      replay.finish();
      this.entries.set(session.id, replay.entries);
    } else if (this.sessionCapabilities().resume) {
      await agent.request('session/resume', params);
      this.entries.set(session.id, []);
      resumed = true;
    } else throw new Error(`${this.options.agent.name} cannot open a session from before.`);
    // Opened: no longer only a name in the list.
    this.changeSession(session.id, (s) => {
      const metadata = Object.fromEntries(Object.entries(s.metadata ?? {}).filter(([key]) => key !== 'stored'));
      return { ...s, metadata: { ...metadata, ...(resumed && { resumed: true }) } };
    });
  }

  /**
   * A copy of a whole session that goes on separately (`session/fork`, where the agent offers it):
   * the agent carries the conversation so far into a new session, and the panel shows it copied.
   */
  async forkSession(sessionID: string, messageID?: string): Promise<Session> {
    const agent = await this.agent();
    const name = this.options.agent.name;
    const source = this.sessionsById.get(sessionID);
    if (!this.sessionCapabilities().fork) throw new Error(`${name} cannot fork a session.`);
    if (messageID) throw new Error(`${name} forks a whole session only (Fork above the conversation), not from a message.`);
    if (!source) throw new Error(`No session ${sessionID} of ${name} here.`);
    if (this.turns.has(sessionID)) throw new Error('The agent is still answering: wait for it, or stop it, then fork.');
    const conversation = await this.messages(sessionID);
    const forked = await agent.request<ForkSessionResponse, ForkSessionRequest>('session/fork', {
      sessionId: sessionID,
      cwd: this.options.directory,
      mcpServers: [this.mcpServer()],
    });
    const session = sessionOf(this.maker, forked.sessionId, `${source.title} (fork)`, Date.now());
    if (forked.modes) session.metadata = { mode: forked.modes.currentModeId };
    this.sessionsById.set(session.id, session);
    this.entries.set(session.id, copiedConversation(this.maker, conversation, session.id));
    this.emit({ type: 'session.created', properties: { sessionID: session.id, info: session } });
    return session;
  }

  /** A session deleted in the agent (`session/delete`, where it offers it), a turn in it stopped first. */
  async deleteSession(sessionID: string): Promise<boolean> {
    const agent = await this.agent();
    if (!this.sessionCapabilities().delete) throw new Error(`${this.options.agent.name} cannot delete a session.`);
    const session = this.sessionsById.get(sessionID);
    if (!session) return false;
    if (this.turns.has(sessionID)) await this.abort(sessionID);
    await agent.request('session/delete', { sessionId: sessionID });
    this.sessionsById.delete(sessionID);
    this.entries.delete(sessionID);
    this.statusById.delete(sessionID);
    this.emit({ type: 'session.deleted', properties: { sessionID, info: session } });
    return true;
  }

  /** Send the person's text; the answer streams in as events. Resolves when the turn is accepted, not when it ends. */
  statuses(): Record<string, SessionStatus> {
    return Object.fromEntries(this.statusById);
  }

  /** The agent's modes (Claude: Default, Accept Edits, Plan Mode…), as the panel's mode picker offers them; none before a session. */
  agentModes(): { name: string; label: string; description?: string }[] {
    return this.modes.map((m) => ({ name: m.id, label: m.name, ...(m.description && { description: m.description }) }));
  }

  async prompt(sessionID: string, text: string, mode?: string, images: PromptImage[] = []): Promise<void> {
    const agent = await this.agent();
    const session = this.sessionsById.get(sessionID);
    if (!session) throw new Error(`No session ${sessionID} of ${this.options.agent.name} here.`);
    if (this.turns.has(sessionID)) throw new Error('The agent is still answering: wait for it, or stop it.');
    if (images.length > 0 && !this.info?.agentCapabilities?.promptCapabilities?.image)
      throw new Error(`${this.options.agent.name} does not take images in a prompt; send the words alone, or describe the image.`);
    // The mode the person picked, set on the session before the prompt goes (`session/set_mode`).
    if (mode && mode !== session.metadata?.mode && this.modes.some((m) => m.id === mode)) {
      await agent.request('session/set_mode', { sessionId: sessionID, modeId: mode });
      this.changeSession(sessionID, (s) => ({ ...s, metadata: { ...s.metadata, mode } }));
    }
    const now = Date.now();
    const user = userEntry(this.maker, sessionID, text, now, images);
    this.addEntry(user);
    this.emit({ type: 'message.updated', properties: { sessionID, info: user.info } });
    for (const part of user.parts) this.emit({ type: 'message.part.updated', properties: { sessionID, part, time: now } });
    const message = assistantMessage(this.maker, sessionID, user.info.id, now);
    const changes = new TurnChanges(this.options.directory);
    this.turns.set(sessionID, { parts: new TurnParts(sessionID, message.id), changes, message, cancelled: false });
    this.addEntry({ info: message, parts: [] });
    this.emit({ type: 'message.updated', properties: { sessionID, info: message } });
    this.setStatus(sessionID, { type: 'busy' });
    agent
      .request('session/prompt', {
        sessionId: sessionID,
        prompt: [{ type: 'text', text }, ...images.map(imageBlock), ...(await mentionedFiles(text, this.options.directory))],
      })
      .then(
        (response) => this.endTurn(sessionID, undefined, response.stopReason),
        // A connection that closed under the turn: the agent's process is ending, and how it ended is the reason.
        (error: unknown) =>
          this.acp?.signal.aborted === false
            ? this.endTurn(sessionID, errorText(error))
            : void this.ended.then((reason) => this.endTurn(sessionID, reason)),
      );
  }

  /** Stop the turn (`session/cancel`): a waiting permission card is answered "cancelled", as ACP asks. */
  async abort(sessionID: string): Promise<boolean> {
    const turn = this.turns.get(sessionID);
    if (!turn || !this.acp) return false;
    turn.cancelled = true;
    this.cards.cancel(sessionID);
    await this.acp.agent.notify('session/cancel', { sessionId: sessionID });
    return true;
  }

  permissions(): PermissionRequest[] {
    return this.cards.list();
  }

  /** The person's answer on the card: once, always or reject, as the agent's matching option. */
  replyPermission(requestID: string, reply: PermissionReply): boolean {
    return this.cards.reply(requestID, reply);
  }

  /** Ends the agent and every process it started; resolves once the agent has exited. */
  async dispose(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.acp?.close();
    if (child) await stop(child);
  }

  private addEntry(entry: MessageEntry): void {
    const list = this.entries.get(entry.info.sessionID) ?? [];
    list.push(entry);
    this.entries.set(entry.info.sessionID, list);
  }

  private setStatus(sessionID: string, status: SessionStatus): void {
    this.statusById.set(sessionID, status);
    this.emit({ type: 'session.status', properties: { sessionID, status } });
    if (status.type === 'idle') this.emit({ type: 'session.idle', properties: { sessionID } });
  }

  /** A session changed (its title, the agent's commands): the panel gets it whole. */
  private changeSession(sessionID: string, change: (session: Session) => Session): void {
    const session = this.sessionsById.get(sessionID);
    if (!session) return;
    const info = change(session);
    this.sessionsById.set(sessionID, info);
    this.emit({ type: 'session.updated', properties: { sessionID, info } });
  }

  private update({ sessionId, update }: SessionNotification): void {
    const change = sessionChange(update);
    if (change) return this.changeSession(sessionId, change);
    const replay = this.replays.get(sessionId);
    if (replay) return replay.apply(update);
    const turn = this.turns.get(sessionId);
    if (!turn) return;
    const call = update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update' ? update : undefined;
    if (call) turn.changes.seen(call);
    const part = turn.parts.apply(update);
    if (!part) return;
    this.partChanged(sessionId, turn.message.id, turn.parts, part);
    if (call?.status === 'completed') {
      // The files the call changed, kept on its part for the panel's "Review changes".
      const completed = turn.parts.call(call.toolCallId)!;
      void turn.changes.settle(completed).then((changes) => {
        const changed = turn.parts.recordChanges(call.toolCallId, changes);
        if (changed) this.partChanged(sessionId, turn.message.id, turn.parts, changed);
      });
    }
  }

  private partChanged(sessionID: string, messageID: string, parts: TurnParts, part: Part): void {
    const entry = this.conversation(sessionID).find((e) => e.info.id === messageID);
    if (entry) entry.parts = [...parts.parts];
    this.emit({ type: 'message.part.updated', properties: { sessionID, part: structuredClone(part), time: Date.now() } });
  }

  private endTurn(sessionID: string, error?: string, stopReason?: string): void {
    const turn = this.turns.get(sessionID);
    if (!turn) return;
    this.turns.delete(sessionID);
    const cancelled = turn.cancelled || stopReason === 'cancelled';
    for (const part of turn.parts.finish(cancelled))
      this.emit({ type: 'message.part.updated', properties: { sessionID, part: structuredClone(part), time: Date.now() } });
    const message: AssistantMessage = {
      ...turn.message,
      time: { ...turn.message.time, completed: Date.now() },
      ...(stopReason && { finish: stopReason }),
      ...(cancelled && { error: { name: 'MessageAbortedError', data: { message: 'Stopped' } } }),
      ...(error && !cancelled && { error: { name: 'UnknownError', data: { message: error } } }),
    };
    const entry = this.conversation(sessionID).find((e) => e.info.id === message.id);
    if (entry) entry.info = message;
    this.emit({ type: 'message.updated', properties: { sessionID, info: message } });
    if (error && !cancelled) this.emit({ type: 'session.error', properties: { sessionID, error: message.error } });
    this.setStatus(sessionID, { type: 'idle' });
  }
}
