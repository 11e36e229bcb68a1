/**
 * The backend's side of the chat panel (TECHSPEC §3.1): one OpenCode server per Theia backend,
 * started on demand (`opencode serve`) or reached at a URL the person set, talked to through
 * @opencode-ai/sdk. Its event stream is numbered and kept in a ring, so a browser that lost its
 * connection (a reload, a network blip) asks for what it missed; when the stream to OpenCode itself
 * drops, the proxy reconnects and tells every browser to load afresh. A missing or crashed server is
 * a `failed` connection with the reason, which the panel shows with Retry.
 */
import { createOpencodeClient, type Event, type OpencodeClient } from '@opencode-ai/sdk/v2';
import type {
  AgentChoice,
  ChatBackend,
  ChatClient,
  ChatConnection,
  ChatResult,
  MessageEntry,
  ModelCatalog,
  PermissionReply,
  PromptImage,
  Replay,
} from '../../common/chat-protocol.js';
import { EventRing } from '../chat/event-ring.js';

/** An OpenCode server this proxy started: its URL, how to stop it, and its end. */
export interface StartedServer {
  url: string;
  stop(): void;
  /** Settles when the process ends, with what it said last. */
  exited: Promise<string>;
}

export interface ProxyOptions {
  /** The workspace: OpenCode's project directory. */
  directory: string;
  /** Starts `opencode serve` (opencode-server.ts); absent when only a URL may be used. */
  start?: () => Promise<StartedServer>;
  /** How many events a browser can catch up on after a reconnect. */
  bufferSize?: number;
  /** Waits between attempts to reach the event stream again (ms), the last repeated. */
  retryDelaysMs?: number[];
  /** How long the stream may stay down before the connection counts as failed. */
  giveUpAfterMs?: number;
}

/** The events the panel shows something of (OpenCode also streams plugins, catalogs, heartbeats…). */
const PANEL_EVENTS = ['session.', 'message.', 'permission.', 'question.'];

type SdkResult<T> = { data?: T; error?: unknown; response?: Response };

/** What an error from OpenCode's API says, in a sentence. */
function describeError(error: unknown, status?: number): string {
  const data = (error as { data?: { message?: string }; message?: string; name?: string; _tag?: string } | undefined) ?? {};
  const message = data.data?.message ?? data.message ?? data.name ?? data._tag ?? JSON.stringify(error);
  return status ? `OpenCode answered ${status}: ${message}` : String(message);
}

export class OpenCodeProxy implements Omit<ChatBackend, 'connection' | 'connect' | 'chatAgents'> {
  private client: OpencodeClient | undefined;
  private state: ChatConnection = { state: 'stopped' };
  private server: StartedServer | undefined;
  private stream: AbortController | undefined;
  private connecting: Promise<ChatConnection> | undefined;
  private readonly events: EventRing;
  private readonly retryDelays: number[];
  private readonly giveUpAfterMs: number;

  constructor(private readonly options: ProxyOptions) {
    this.events = new EventRing(options.bufferSize ?? 5000);
    this.retryDelays = options.retryDelaysMs ?? [250, 500, 1000, 2000, 4000];
    this.giveUpAfterMs = options.giveUpAfterMs ?? 30_000;
  }

  addClient(client: ChatClient): () => void {
    return this.events.addClient(client);
  }

  connection(): ChatConnection {
    return this.state;
  }

  /**
   * Reaches OpenCode: at `url` when given, else a server this proxy starts. Connected means the
   * event stream answered, so nothing said after it is missed.
   */
  connect(url?: string): Promise<ChatConnection> {
    if (this.state.state === 'connected' || this.state.state === 'reconnecting') return Promise.resolve(this.state);
    this.connecting ??= this.open(url).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(url: string | undefined): Promise<ChatConnection> {
    this.setState({ state: 'starting', url });
    let started = false;
    try {
      if (!url) {
        if (!this.options.start) throw new Error('No OpenCode server URL is set, and none can be started here.');
        this.server = await this.options.start();
        url = this.server.url;
        started = true;
        const server = this.server;
        void server.exited.then((output) => this.serverExited(server, output));
      }
      this.client = createOpencodeClient({ baseUrl: url, directory: this.options.directory });
      const health = await this.client.global.health();
      if (health.error || !health.data) throw new Error(describeError(health.error, health.response?.status));
      await this.subscribe(url);
      return this.setState({ state: 'connected', url, version: health.data.version, started });
    } catch (err) {
      this.closeServer();
      const reason = err instanceof Error ? err.message : String(err);
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return this.setState({
        state: 'failed',
        message: url && cause === 'ECONNREFUSED' ? `Nothing answers at ${url}: is OpenCode running there?` : reason,
      });
    }
  }

  /** Opens the event stream and resolves once it answered; its events flow in the background after that. */
  private subscribe(url: string): Promise<void> {
    const controller = new AbortController();
    this.stream = controller;
    return new Promise<void>((resolve, reject) => {
      let opened = false;
      const run = async () => {
        let attempt = 0;
        let downSince = 0;
        while (!controller.signal.aborted) {
          const result = await this.client!.event.subscribe(undefined, { signal: controller.signal, sseMaxRetryAttempts: 1 });
          let failure: unknown;
          try {
            for await (const event of result.stream as AsyncGenerator<Event>) {
              if (!opened) {
                opened = true;
                resolve();
              }
              if (downSince) {
                // Back after a drop: what was said meanwhile is lost, so every browser loads afresh.
                downSince = 0;
                attempt = 0;
                this.events.gap();
                this.setState({ state: 'connected', url, started: this.server !== undefined });
              }
              this.publish(event);
            }
          } catch (err) {
            failure = err;
          }
          if (controller.signal.aborted) return;
          if (!opened) {
            reject(failure ?? new Error(`OpenCode's event stream at ${url} closed at once.`));
            return;
          }
          if (!downSince) {
            downSince = Date.now();
            this.setState({ state: 'reconnecting', url, message: "The connection to OpenCode's event stream dropped; reconnecting…" });
          } else if (Date.now() - downSince > this.giveUpAfterMs) {
            this.fail(`OpenCode at ${url} stopped answering.`);
            return;
          }
          await new Promise((done) => setTimeout(done, this.retryDelays[Math.min(attempt++, this.retryDelays.length - 1)]));
        }
      };
      run().catch((err) => (opened ? this.fail(String(err)) : reject(err)));
    });
  }

  private serverExited(server: StartedServer, output: string): void {
    if (this.server !== server) return;
    this.server = undefined;
    this.fail(`OpenCode exited.${output ? ` It said: ${output}` : ''}`);
  }

  private fail(message: string): void {
    this.stream?.abort();
    this.stream = undefined;
    this.closeServer();
    this.setState({ state: 'failed', message });
  }

  private closeServer(): void {
    const server = this.server;
    this.server = undefined;
    server?.stop();
  }

  dispose(): void {
    this.stream?.abort();
    this.closeServer();
    this.state = { state: 'stopped' };
  }

  private setState(state: ChatConnection): ChatConnection {
    this.state = state;
    this.events.connectionChanged(state);
    return state;
  }

  private publish(event: Event): void {
    if (PANEL_EVENTS.some((prefix) => event.type.startsWith(prefix))) this.events.publish(event);
  }

  async replay(seq: number): Promise<Replay> {
    return this.events.replay(seq);
  }

  /** One call to OpenCode's API, its error (or an unreachable server) as a message. */
  private async call<T, R = T>(request: (client: OpencodeClient) => Promise<SdkResult<T>>, map?: (data: T) => R): Promise<ChatResult<R>> {
    if (!this.client || this.state.state === 'failed' || this.state.state === 'stopped') {
      return { ok: false, message: 'OpenCode is not connected.' };
    }
    try {
      const { data, error, response } = await request(this.client);
      if (error !== undefined || (response && !response.ok)) return { ok: false, message: describeError(error, response?.status) };
      return { ok: true, value: map ? map(data as T) : (data as unknown as R) };
    } catch (err) {
      return { ok: false, message: `OpenCode did not answer: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  sessions() {
    return this.call((c) => c.session.list({ roots: true }));
  }
  createSession(title?: string) {
    return this.call((c) => c.session.create(title ? { title } : {}));
  }
  deleteSession(sessionID: string) {
    return this.call((c) => c.session.delete({ sessionID }));
  }
  forkSession(sessionID: string, messageID?: string) {
    return this.call((c) => c.session.fork({ sessionID, messageID }));
  }
  revert(sessionID: string, messageID: string) {
    return this.call((c) => c.session.revert({ sessionID, messageID }));
  }
  unrevert(sessionID: string) {
    return this.call((c) => c.session.unrevert({ sessionID }));
  }
  abort(sessionID: string) {
    return this.call((c) => c.session.abort({ sessionID }));
  }
  compact(sessionID: string, model: { providerID: string; modelID: string }) {
    return this.call((c) => c.session.summarize({ sessionID, providerID: model.providerID, modelID: model.modelID }));
  }
  messages(sessionID: string): Promise<ChatResult<MessageEntry[]>> {
    return this.call((c) => c.session.messages({ sessionID }));
  }
  statuses() {
    return this.call((c) => c.session.status());
  }
  prompt(sessionID: string, text: string, model?: { providerID: string; modelID: string }, agent?: string, images: PromptImage[] = []) {
    const files = images.map((i) => ({ type: 'file' as const, mime: i.mime, url: i.dataUrl, filename: i.name }));
    return this.call(
      (c) => c.session.promptAsync({ sessionID, model, agent, parts: [{ type: 'text', text }, ...files] }),
      () => true,
    );
  }
  /** The models of the providers OpenCode can use, and the one its config names (`model: "provider/model"`). */
  async models(): Promise<ChatResult<ModelCatalog>> {
    const [providers, config] = await Promise.all([this.call((c) => c.config.providers()), this.call((c) => c.config.get())]);
    if (!providers.ok) return providers;
    const models = providers.value.providers.flatMap((p) =>
      Object.values(p.models).map((m) => ({ providerID: p.id, modelID: m.id, name: m.name, providerName: p.name })),
    );
    const named = config.ok ? config.value.model : undefined;
    const slash = named?.indexOf('/') ?? -1;
    return {
      ok: true,
      value: { models, default: named && slash > 0 ? { providerID: named.slice(0, slash), modelID: named.slice(slash + 1) } : undefined },
    };
  }
  /** The agents a person picks from: OpenCode's primary ones (its subagents are the agents' own). */
  agents(): Promise<ChatResult<AgentChoice[]>> {
    return this.call(
      (c) => c.app.agents(),
      (agents) => agents.filter((a) => a.mode !== 'subagent' && !a.hidden).map((a) => ({ name: a.name, description: a.description })),
    );
  }
  permissions() {
    return this.call((c) => c.permission.list());
  }
  replyPermission(requestID: string, reply: PermissionReply) {
    return this.call((c) => c.permission.reply({ requestID, reply }));
  }
  questions() {
    return this.call((c) => c.question.list());
  }
  answerQuestion(requestID: string, answers: string[][]) {
    return this.call((c) => c.question.reply({ requestID, answers }));
  }
  dismissQuestion(requestID: string) {
    return this.call((c) => c.question.reject({ requestID }));
  }
}
