/**
 * The chat panel's state in the browser (TECHSPEC §3.2): the connection to OpenCode, the sessions
 * and the active one's messages (a ChatModel kept current by OpenCode's events), the chosen model,
 * and the person's actions. A reload loads everything afresh from OpenCode (the active session is
 * remembered); a dropped backend connection catches up on the events it missed, or loads afresh
 * when the backend cannot replay them.
 */
import { Emitter } from '@theia/core/lib/common/event';
import { MessageService } from '@theia/core/lib/common/message-service';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import type { RpcProxy } from '@theia/core/lib/common/messaging';
import { inject, injectable, type interfaces } from '@theia/core/shared/inversify';
import { TerminalService } from '@theia/terminal/lib/browser/base/terminal-service';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import {
  type AgentChoice,
  type ChatAgentChoice,
  type ChatSettings,
  CHAT_PATH,
  OPENCODE_AGENT,
  type ChatBackend,
  type ChatClient,
  type ChatConnection,
  type ChatResult,
  type ModelCatalog,
  type PermissionReply,
  type PermissionRequest,
  type PromptImage,
  type QuestionRequest,
  type SequencedEvent,
  type Session,
  type TerminalSignIn,
} from '../../common/chat-protocol.js';
import { CHAT_AGENTS, CHAT_ALWAYS_ALLOW, CHAT_OPENCODE_PATH, CHAT_SERVER_URL } from '../../common/preferences.js';
import { ChatModel } from './chat-model.js';
import { alwaysRules, matchesRule } from './permission-rules.js';

/** The backend's events, for the service to listen to (the RPC client object). */
const SIGN_IN = 'Sign in in a terminal';

@injectable()
export class ChatEvents implements ChatClient {
  readonly events = new Emitter<SequencedEvent>();
  readonly connections = new Emitter<ChatConnection>();
  onEvent(event: SequencedEvent): void {
    this.events.fire(event);
  }
  onConnection(connection: ChatConnection): void {
    this.connections.fire(connection);
  }
}

export const ChatBackendProxy = Symbol('ChatBackendProxy');
export function createChatBackendProxy(ctx: interfaces.Context): RpcProxy<ChatBackend> {
  return ServiceConnectionProvider.createProxy<ChatBackend>(ctx.container, CHAT_PATH, ctx.container.get(ChatEvents));
}

const ACTIVE_SESSION_KEY = 'openspace.chat.session';
const MODEL_KEY = 'openspace.chat.model';
const AGENT_KEY = 'openspace.chat.agent';
const CHAT_AGENT_KEY = 'openspace.chat.with';

type ModelRef = { providerID: string; modelID: string };

@injectable()
export class ChatService {
  @inject(ChatBackendProxy) protected readonly backend!: RpcProxy<ChatBackend>;
  @inject(ChatEvents) protected readonly events!: ChatEvents;
  @inject(MessageService) protected readonly messages!: MessageService;
  @inject(TerminalService) protected readonly terminals!: TerminalService;
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;

  readonly model = new ChatModel();
  connection: ChatConnection = { state: 'stopped' };
  catalog: ModelCatalog = { models: [] };
  activeSessionID: string | undefined = localStorage.getItem(ACTIVE_SESSION_KEY) ?? undefined;
  chosenModel: ModelRef | undefined = parseModel(localStorage.getItem(MODEL_KEY));
  agents: AgentChoice[] = [];
  chosenAgent: string | undefined = localStorage.getItem(AGENT_KEY) ?? undefined;
  /** The agents the panel can talk to (OpenCode, ACP agents), and the one it talks to. */
  chatAgents: ChatAgentChoice[] = [];
  chosenChatAgent: string = localStorage.getItem(CHAT_AGENT_KEY) ?? OPENCODE_AGENT;
  private lastSeq = 0;
  private creating: Promise<string | undefined> | undefined;
  private attached = false;
  private backendLost = false;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly asked = new Emitter<PermissionRequest>();
  /** A permission request the person has to answer (one no "always" rule answered). */
  readonly onPermissionAsked = this.asked.event;
  private readonly questionAsked = new Emitter<QuestionRequest>();
  /** A question the agent waits on. */
  readonly onQuestionAsked = this.questionAsked.event;

  /**
   * Listens to the backend, and loads if OpenCode is already connected (a reload): the window hears
   * of permission requests even with the panel closed. Starts nothing.
   */
  async attach(): Promise<void> {
    if (this.attached) return;
    this.attached = true;
    this.events.events.event((e) => this.receive(e));
    this.events.connections.event((c) => this.connectionChanged(c));
    this.backend.onDidCloseConnection(() => (this.backendLost = true));
    this.backend.onDidOpenConnection(() => {
      if (this.backendLost) void this.catchUp();
    });
    const connection = await this.backend.connection();
    if (this.connection.state === 'stopped') this.connectionChanged(connection);
  }

  /** Connects (starting the chosen agent if need be) and loads; the panel calls it when first shown, Retry again. */
  async start(): Promise<void> {
    await this.attach();
    this.connectionChanged({ state: 'starting' });
    const settings = this.settings();
    const [connection, chatAgents] = await Promise.all([this.backend.connect(settings), this.backend.chatAgents(settings)]);
    this.chatAgents = chatAgents;
    this.connectionChanged(connection);
  }

  private settings(): ChatSettings {
    return {
      serverUrl: this.preferences.get<string>(CHAT_SERVER_URL, ''),
      opencodePath: this.preferences.get<string>(CHAT_OPENCODE_PATH, ''),
      agents: this.preferences.get<ChatSettings['agents']>(CHAT_AGENTS, []),
      agent: this.chosenChatAgent,
    };
  }

  /** Text the person put into the draft from elsewhere (the editor's selection as an @ mention); a new object each time. */
  insertion: { text: string } | undefined;

  insert(text: string): void {
    this.insertion = { text };
    this.changed.fire();
  }

  /** Talk to another agent: its sessions replace the panel's, from nothing (each agent has its own). */
  async selectChatAgent(name: string): Promise<void> {
    if (name === this.chosenChatAgent && this.connection.state === 'connected') return;
    this.chosenChatAgent = name;
    localStorage.setItem(CHAT_AGENT_KEY, name);
    this.model.clear();
    this.catalog = { models: [] };
    this.agents = [];
    this.lastSeq = 0;
    this.connection = { state: 'stopped' };
    this.setActive(undefined);
    await this.start();
  }

  private connectionChanged(connection: ChatConnection): void {
    const was = this.connection.state;
    this.connection = connection;
    // Connected anew, or back after the stream to OpenCode dropped: what happened meanwhile is unknown.
    if (connection.state === 'connected' && was !== 'connected') void this.load();
    this.changed.fire();
  }

  private receive({ seq, event }: SequencedEvent): void {
    if (seq <= this.lastSeq) return;
    this.lastSeq = seq;
    if (event.type === 'permission.asked' && this.answerByRule(event.properties)) return;
    if (this.model.apply(event)) {
      if (event.type === 'permission.asked') this.asked.fire(event.properties);
      if (event.type === 'question.asked') this.questionAsked.fire(event.properties);
      this.changed.fire();
    }
  }

  /** After the backend connection came back: the events missed, or everything afresh. */
  private async catchUp(): Promise<void> {
    this.backendLost = false;
    const replay = await this.backend.replay(this.lastSeq);
    if (!replay.complete) return this.load();
    for (const event of replay.events) this.receive(event);
    this.connectionChanged(await this.backend.connection());
  }

  /** Everything from OpenCode: sessions, statuses, pending permissions, models, the active session's messages. */
  async load(): Promise<void> {
    const { seq } = await this.backend.replay(Number.MAX_SAFE_INTEGER);
    this.lastSeq = Math.max(this.lastSeq, seq);
    // What the person does while this loads (a session made by sending at once) must survive it.
    const known = new Set(this.model.sessions.keys());
    const active = this.activeSessionID;
    const talkingTo = this.chosenChatAgent;
    const [sessions, statuses, permissions, catalog, agents, questions] = await Promise.all([
      this.backend.sessions(),
      this.backend.statuses(),
      this.backend.permissions(),
      this.backend.models(),
      this.backend.agents(),
      this.backend.questions(),
    ]);
    // The person picked another agent meanwhile: this is the previous one's, and that one's load follows.
    if (talkingTo !== this.chosenChatAgent) return;
    if (questions.ok) {
      const known = new Set(this.model.questions.keys());
      this.model.setQuestions(questions.value);
      for (const request of questions.value) if (!known.has(request.id)) this.questionAsked.fire(request);
    }
    if (agents.ok) this.agents = agents.value;
    if (sessions.ok) this.model.setSessions(sessions.value, known);
    if (statuses.ok) this.model.setStatuses(statuses.value);
    if (permissions.ok) {
      const known = new Set(this.model.permissions.keys());
      this.model.setPermissions(permissions.value.filter((p) => !this.answerByRule(p)));
      for (const request of this.model.permissions.values()) if (!known.has(request.id)) this.asked.fire(request);
    }
    if (catalog.ok) this.catalog = catalog.value;
    if (active && active === this.activeSessionID && !this.model.sessions.has(active)) this.setActive(undefined);
    if (this.activeSessionID) await this.loadMessages(this.activeSessionID);
    this.changed.fire();
  }

  private async loadMessages(sessionID: string): Promise<void> {
    const entries = await this.backend.messages(sessionID);
    if (this.ok(entries)) this.model.setMessages(sessionID, entries.value);
  }

  get activeSession(): Session | undefined {
    return this.activeSessionID ? this.model.sessions.get(this.activeSessionID) : undefined;
  }

  /** The model a prompt goes to: the person's pick while OpenCode still offers it, else OpenCode's default. */
  get currentModel(): ModelRef | undefined {
    const chosen = this.chosenModel;
    if (chosen && this.catalog.models.some((m) => m.providerID === chosen.providerID && m.modelID === chosen.modelID)) return chosen;
    return this.catalog.default;
  }

  /** The agent a prompt goes to: the person's pick while OpenCode still has it, else OpenCode's default. */
  get currentAgent(): string | undefined {
    return this.agents.some((a) => a.name === this.chosenAgent) ? this.chosenAgent : undefined;
  }

  selectAgent(name: string): void {
    this.chosenAgent = name;
    localStorage.setItem(AGENT_KEY, name);
    this.changed.fire();
  }

  private setActive(sessionID: string | undefined): void {
    this.activeSessionID = sessionID;
    if (sessionID) localStorage.setItem(ACTIVE_SESSION_KEY, sessionID);
    else localStorage.removeItem(ACTIVE_SESSION_KEY);
    this.changed.fire();
  }

  /** A failed call is a message to the person (with the sign-in to run when that is why); nothing else changes. */
  private ok<T>(result: ChatResult<T>): result is { ok: true; value: T } {
    if (result.ok) return true;
    const { signIn } = result;
    if (!signIn) void this.messages.error(`Chat: ${result.message}`);
    else
      void this.messages.error(`Chat: ${result.message}`, SIGN_IN).then(async (chosen) => {
        if (chosen === SIGN_IN) await this.signInTerminal(signIn);
      });
    return false;
  }

  /** The agent's terminal sign-in, run in a terminal for the person (as Zed does); they send again once it is done. */
  private async signInTerminal({ agent, command, args, env }: TerminalSignIn): Promise<void> {
    const widget = await this.terminals.newTerminal({
      title: `Sign in: ${agent}`,
      shellPath: command,
      shellArgs: args,
      env,
      cwd: this.workspace.tryGetRoots()[0]?.resource.toString(),
      useServerTitle: false,
    });
    await widget.start();
    await this.terminals.open(widget, { mode: 'activate' });
  }

  private remember(session: Session): void {
    this.model.sessions.set(session.id, session);
    this.setActive(session.id);
  }

  async send(text: string, images: PromptImage[] = []): Promise<void> {
    if (!text.trim()) return;
    const sessionID = await this.sessionToSend();
    const sent =
      sessionID !== undefined && this.ok(await this.backend.prompt(sessionID, text, this.currentModel, this.currentAgent, images));
    // What could not be sent goes back into the draft, to send again (after a sign-in, say).
    if (!sent) this.insert(text);
  }

  /** The active session, or the one being made for it: what is sent right after "New session" goes there. */
  private sessionToSend(): Promise<string | undefined> {
    if (this.activeSessionID) return Promise.resolve(this.activeSessionID);
    this.creating ??= this.backend.createSession().then((created) => {
      this.creating = undefined;
      if (!this.ok(created)) return undefined;
      this.model.setMessages(created.value.id, []);
      this.remember(created.value);
      // An ACP agent says its modes only with a session: the mode picker fills now.
      if (this.agents.length === 0)
        void this.backend.agents().then((agents) => agents.ok && ((this.agents = agents.value), this.changed.fire()));
      return created.value.id;
    });
    return this.creating;
  }

  async newSession(): Promise<void> {
    this.setActive(undefined);
    await this.sessionToSend();
  }

  async selectSession(sessionID: string): Promise<void> {
    this.setActive(sessionID);
    await this.loadMessages(sessionID);
    this.changed.fire();
  }

  async deleteSession(sessionID: string): Promise<void> {
    if (!this.ok(await this.backend.deleteSession(sessionID))) return;
    this.model.sessions.delete(sessionID);
    if (this.activeSessionID === sessionID) this.setActive(this.model.sessionList()[0]?.id);
    if (this.activeSessionID) await this.loadMessages(this.activeSessionID);
    this.changed.fire();
  }

  async fork(messageID?: string): Promise<void> {
    if (!this.activeSessionID) return;
    const forked = await this.backend.forkSession(this.activeSessionID, messageID);
    if (!this.ok(forked)) return;
    this.remember(forked.value);
    await this.loadMessages(forked.value.id);
    this.changed.fire();
  }

  async revert(messageID: string): Promise<void> {
    if (!this.activeSessionID) return;
    const reverted = await this.backend.revert(this.activeSessionID, messageID);
    if (this.ok(reverted)) this.model.sessions.set(reverted.value.id, reverted.value);
    this.changed.fire();
  }

  async unrevert(): Promise<void> {
    if (!this.activeSessionID) return;
    const restored = await this.backend.unrevert(this.activeSessionID);
    if (this.ok(restored)) this.model.sessions.set(restored.value.id, restored.value);
    this.changed.fire();
  }

  async abort(): Promise<void> {
    if (this.activeSessionID) this.ok(await this.backend.abort(this.activeSessionID));
  }

  async compact(): Promise<void> {
    const model = this.currentModel;
    if (!this.activeSessionID) return;
    if (!model) return void this.messages.error('Chat: choose a model to compact the session with.');
    this.ok(await this.backend.compact(this.activeSessionID, model));
  }

  selectModel(model: ModelRef): void {
    this.chosenModel = model;
    localStorage.setItem(MODEL_KEY, `${model.providerID}/${model.modelID}`);
    this.changed.fire();
  }

  /** The person's answer; "always" is also kept as rules in the user setting openspace.chat.alwaysAllow. */
  async reply(request: PermissionRequest, reply: PermissionReply): Promise<void> {
    if (reply === 'always') {
      const rules = this.preferences.get<string[]>(CHAT_ALWAYS_ALLOW, []);
      const added = alwaysRules(request).filter((r) => !rules.includes(r));
      if (added.length > 0) await this.preferences.set(CHAT_ALWAYS_ALLOW, [...rules, ...added], PreferenceScope.User);
    }
    if (this.ok(await this.backend.replyPermission(request.id, reply))) {
      this.model.permissions.delete(request.id);
      this.changed.fire();
    }
  }

  async answerQuestion(requestID: string, answers: string[][]): Promise<void> {
    if (this.ok(await this.backend.answerQuestion(requestID, answers))) this.forgetQuestion(requestID);
  }

  async dismissQuestion(requestID: string): Promise<void> {
    if (this.ok(await this.backend.dismissQuestion(requestID))) this.forgetQuestion(requestID);
  }

  private forgetQuestion(requestID: string): void {
    this.model.questions.delete(requestID);
    this.changed.fire();
  }

  /** A request a kept "always" rule covers is answered at once, without asking. */
  private answerByRule(request: PermissionRequest): boolean {
    const rules = this.preferences.get<string[]>(CHAT_ALWAYS_ALLOW, []);
    if (!rules.some((rule) => matchesRule(rule, request))) return false;
    void this.backend.replyPermission(request.id, 'always');
    return true;
  }

  /** One line for the hub's instructions ("Right panel"): the chat's connection, session and whether it is busy. */
  statusLine(): string {
    const state = CONNECTION_WORDS[this.connection.state];
    const session = this.activeSession;
    const busy = session && this.model.busy(session.id) ? ', busy' : session ? ', idle' : '';
    return `${this.chosenChatAgent} chat ${state}${session ? `, session "${session.title}"` : ', no session'}${busy}`;
  }
}

const CONNECTION_WORDS: Record<ChatConnection['state'], string> = {
  connected: 'connected',
  failed: 'not connected (failed)',
  reconnecting: 'reconnecting',
  starting: 'starting',
  stopped: 'not started',
};

function parseModel(text: string | null): ModelRef | undefined {
  const slash = text?.indexOf('/') ?? -1;
  return text && slash > 0 ? { providerID: text.slice(0, slash), modelID: text.slice(slash + 1) } : undefined;
}
