/**
 * The chat panel's backend, shared by every window: the agent the panel talks to, OpenCode through
 * its own server and SDK (../opencode/) or an agent over the Agent Client Protocol (../acp/), each
 * made on first use for the opened workspace. A window's calls go to the agent picked last (the
 * panel picks for all windows: they show one conversation), and its events come from that agent
 * until another is picked.
 *
 * OpenCode keeps its own path rather than `opencode acp`: the panel's session list with revert,
 * fork and compact, OpenCode's model and mode pickers and its questions come from OpenCode's server
 * API, which ACP has no methods for. An ACP agent gets what ACP has: sessions made here, streamed
 * answers, tool calls, plans, permission cards and stop.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { RpcProxy } from '@theia/core/lib/common/messaging';
import {
  OPENCODE_AGENT,
  type AcpAgentSetting,
  type ChatAgentChoice,
  type ChatBackend,
  type ChatClient,
  type ChatConnection,
  type ChatResult,
  type ChatSettings,
} from '../../common/chat-protocol.js';
import { AcpChat } from '../acp/acp-chat.js';
import { SignInNeeded } from '../acp/acp-sign-in.js';
import { OpenCodeProxy } from '../opencode/opencode-proxy.js';
import { findOpenCode, serveOpenCode } from '../opencode/opencode-server.js';

export interface ChatHost {
  /** The opened workspace's directory, if any. */
  workspace(): Promise<string | undefined>;
  /** The hub the chat's agents drive, once it listens. */
  hub(): { mcpUrl: string | undefined; token: string | undefined };
  /** Ends the hub sessions labelled so (the agent's process is gone), as any ended session. */
  endSessions(label: string): Promise<void>;
}

/** ACP agents offered when their command is on PATH (the person's openspace.chat.agents adds to or replaces them by name). */
const KNOWN_ACP_AGENTS: AcpAgentSetting[] = [
  { name: 'Claude', command: 'claude-agent-acp' },
  { name: 'Codex', command: 'codex-acp' },
  { name: 'Gemini CLI', command: 'gemini', args: ['--acp'] },
];

function onPath(command: string): boolean {
  if (command.includes('/')) return existsSync(command);
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

/** The ACP agents to offer: the known ones found here, then the person's (theirs win a name). */
export function acpAgents(settings: Pick<ChatSettings, 'agents'>): AcpAgentSetting[] {
  const theirs = settings.agents ?? [];
  const names = new Set(theirs.map((a) => a.name));
  return [...KNOWN_ACP_AGENTS.filter((a) => !names.has(a.name) && onPath(a.command)), ...theirs.filter((a) => a.name !== OPENCODE_AGENT)];
}

let processes = 0;

/** The calls a window makes, as both kinds of agent answer them. */
type AgentBackend = Omit<ChatBackend, 'connect' | 'chatAgents' | 'connection'> & {
  connection(): ChatConnection;
  addClient(client: ChatClient): () => void;
  dispose(): void;
};

export class ChatService {
  private directory: string | undefined;
  private opencode: OpenCodeProxy | undefined;
  private readonly acp = new Map<string, { chat: AcpChat; backend: AgentBackend; setting: string }>();
  private settings: ChatSettings = { serverUrl: '', opencodePath: '' };
  private chosen = OPENCODE_AGENT;
  /** The windows' clients, each registered with the chosen agent's backend (`serving`). */
  private readonly clients = new Map<ChatClient, () => void>();
  private serving: AgentBackend | undefined;

  constructor(private readonly host: ChatHost) {}

  /**
   * The chosen agent for the opened workspace, the windows' clients registered with it: a pick, a
   * changed setting or another workspace makes it another object, and every window follows.
   */
  async current(): Promise<AgentBackend> {
    const backend = await this.chosenBackend();
    if (backend !== this.serving) {
      this.serving = backend;
      for (const [client, remove] of this.clients) {
        remove();
        this.clients.set(client, backend.addClient(client));
      }
    }
    return backend;
  }

  /** The chosen agent's backend; every agent is made anew when the workspace changed. */
  private async chosenBackend(): Promise<AgentBackend> {
    const directory = (await this.host.workspace()) ?? process.cwd();
    if (this.directory !== directory) {
      this.disposeAgents();
      this.directory = directory;
    }
    if (this.chosen === OPENCODE_AGENT) {
      this.opencode ??= new OpenCodeProxy({ directory, start: () => this.startOpenCode(directory) });
      return this.opencode;
    }
    const setting = acpAgents(this.settings).find((a) => a.name === this.chosen);
    if (!setting) return unknownAgent(this.chosen);
    const key = JSON.stringify(setting);
    const made = this.acp.get(setting.name);
    if (made && made.setting === key) return made.backend;
    made?.backend.dispose();
    const label = `chat-acp-${process.pid}-${++processes}`;
    const chat = new AcpChat({
      agent: setting,
      directory,
      hub: () => this.host.hub(),
      label,
      exited: () => void this.host.endSessions(label),
    });
    const backend = acpBackend(chat);
    this.acp.set(setting.name, { chat, backend, setting: key });
    return backend;
  }

  chatAgents(settings: ChatSettings): ChatAgentChoice[] {
    return [
      { name: OPENCODE_AGENT, detail: settings.serverUrl.trim() || 'opencode serve', protocol: 'opencode' },
      ...acpAgents(settings).map((a) => ({ name: a.name, detail: [a.command, ...(a.args ?? [])].join(' '), protocol: 'acp' as const })),
    ];
  }

  /** Talk to the agent the settings pick (connecting it if need be); every window follows. */
  async connect(settings: ChatSettings): Promise<ChatConnection> {
    this.settings = settings;
    const wanted = settings.agent?.trim() || OPENCODE_AGENT;
    this.chosen = wanted;
    const made = await this.current();
    if (made === this.opencode) return this.opencode.connect(settings.serverUrl.trim() || undefined);
    const acp = this.acp.get(this.chosen);
    return made === acp?.backend ? acp.chat.connect() : made.connection();
  }

  /** A window's client: told of the chosen agent's events until the window goes. */
  async addClient(client: ChatClient): Promise<() => void> {
    this.clients.set(client, (await this.current()).addClient(client));
    return () => {
      this.clients.get(client)?.();
      this.clients.delete(client);
    };
  }

  private startOpenCode(directory: string) {
    const { mcpUrl, token } = this.host.hub();
    if (!mcpUrl) throw new Error('The OpenSpace hub is not listening yet; try again in a moment.');
    const bin = findOpenCode(this.settings.opencodePath.trim());
    if (!bin) {
      throw new Error(
        `OpenCode was not found${this.settings.opencodePath ? ` at "${this.settings.opencodePath}"` : ' (neither installed with this app nor on PATH)'}. ` +
          'Install it (npm i -g opencode-ai), or set openspace.chat.opencodePath, or the URL of a running server in openspace.chat.serverUrl.',
      );
    }
    return this.serve(bin, directory, { mcpUrl, token });
  }

  /** OpenCode under a label of its own: when it ends (stopped, crashed), so does its MCP session and what it opened. */
  private async serve(bin: string, cwd: string, hub: { mcpUrl: string; token: string | undefined }) {
    const label = `chat-opencode-${process.pid}-${++processes}`;
    const server = await serveOpenCode({ bin, cwd, hub, label });
    void server.exited.then(() => this.host.endSessions(label));
    return server;
  }

  private disposeAgents(): void {
    this.opencode?.dispose();
    this.opencode = undefined;
    for (const { backend } of this.acp.values()) backend.dispose();
    this.acp.clear();
  }

  dispose(): void {
    this.disposeAgents();
  }
}

/** A call's answer, or what went wrong in words. */
async function result<T>(call: () => T | Promise<T>): Promise<ChatResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, ...(error instanceof SignInNeeded && { signIn: error.signIn }) };
  }
}

const cannot = (what: string) => async (): Promise<ChatResult<never>> => ({ ok: false, message: `An agent over ACP cannot ${what}.` });

/** An ACP agent as a window calls it: what ACP has, and for the rest (revert, compact) a clear no. */
function acpBackend(chat: AcpChat): AgentBackend {
  return {
    addClient: (client) => chat.addClient(client),
    dispose: () => chat.dispose(),
    connection: () => chat.connection(),
    replay: async (seq) => chat.replay(seq),
    sessions: () => result(() => chat.sessions()),
    createSession: (title) => result(() => chat.createSession(title)),
    deleteSession: (id) => result(() => chat.deleteSession(id)),
    forkSession: (id, messageID) => result(() => chat.forkSession(id, messageID)),
    revert: cannot('revert a message'),
    unrevert: cannot('restore a reverted message'),
    abort: (id) => result(() => chat.abort(id)),
    compact: cannot('compact a session'),
    messages: (id) => result(() => chat.messages(id)),
    statuses: () => result(() => chat.statuses()),
    prompt: (id, text, _model, mode, images) => result(() => chat.prompt(id, text, mode, images).then(() => true)),
    models: async () => ({ ok: true, value: { models: [] } }),
    agents: async () => ({ ok: true, value: chat.agentModes() }),
    permissions: () => result(() => chat.permissions()),
    replyPermission: (id, reply) => result(() => chat.replyPermission(id, reply)),
    questions: async () => ({ ok: true, value: [] }),
    answerQuestion: cannot('ask questions'),
    dismissQuestion: cannot('ask questions'),
  };
}

/** A pick that is no longer in the settings: every call says so. */
function unknownAgent(name: string): AgentBackend {
  const message = `No chat agent named "${name}": pick another, or add it to openspace.chat.agents.`;
  const no = async (): Promise<ChatResult<never>> => ({ ok: false, message });
  return {
    addClient: () => () => {},
    dispose: () => {},
    connection: () => ({ state: 'failed', message }),
    replay: async (seq) => ({ events: [], seq, complete: true }),
    sessions: no,
    createSession: no,
    deleteSession: no,
    forkSession: no,
    revert: no,
    unrevert: no,
    abort: no,
    compact: no,
    messages: no,
    statuses: no,
    prompt: no,
    models: no,
    agents: no,
    permissions: no,
    replyPermission: no,
    questions: no,
    answerQuestion: no,
    dismissQuestion: no,
  };
}

/** A window that went away while a notice was on its way is no error. */
const quietly = (call: unknown) => void Promise.resolve(call).catch(() => undefined);

/** One window's end of the chat: its calls go to the chosen agent, the agent's events to it. */
export function chatBackendFor(service: ChatService, client: RpcProxy<ChatClient>): ChatBackend {
  const removed = service.addClient({
    onEvent: (event) => quietly(client.onEvent(event)),
    onConnection: (connection) => quietly(client.onConnection(connection)),
  });
  client.onDidCloseConnection(() => void removed.then((remove) => remove()));
  const agent = () => service.current();
  return {
    connection: async () => (await agent()).connection(),
    connect: (settings) => service.connect(settings),
    chatAgents: async (settings) => service.chatAgents(settings),
    replay: async (seq) => (await agent()).replay(seq),
    sessions: async () => (await agent()).sessions(),
    createSession: async (title) => (await agent()).createSession(title),
    deleteSession: async (id) => (await agent()).deleteSession(id),
    forkSession: async (id, messageID) => (await agent()).forkSession(id, messageID),
    revert: async (id, messageID) => (await agent()).revert(id, messageID),
    unrevert: async (id) => (await agent()).unrevert(id),
    abort: async (id) => (await agent()).abort(id),
    compact: async (id, model) => (await agent()).compact(id, model),
    messages: async (id) => (await agent()).messages(id),
    statuses: async () => (await agent()).statuses(),
    prompt: async (id, text, model, mode, images) => (await agent()).prompt(id, text, model, mode, images),
    agents: async () => (await agent()).agents(),
    models: async () => (await agent()).models(),
    permissions: async () => (await agent()).permissions(),
    replyPermission: async (id, reply) => (await agent()).replyPermission(id, reply),
    questions: async () => (await agent()).questions(),
    answerQuestion: async (id, answers) => (await agent()).answerQuestion(id, answers),
    dismissQuestion: async (id) => (await agent()).dismissQuestion(id),
  };
}
