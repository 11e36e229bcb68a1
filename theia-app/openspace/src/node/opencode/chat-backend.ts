/**
 * The chat panel's backend: one OpenCodeProxy per Theia backend, shared by every window, each
 * window's connection a ChatBackend whose client receives the events until the window goes.
 */
import type { RpcProxy } from '@theia/core/lib/common/messaging';
import type { ChatBackend, ChatClient, ChatSettings } from '../../common/chat-protocol.js';
import { OpenCodeProxy } from './opencode-proxy.js';
import { findOpenCode, serveOpenCode } from './opencode-server.js';

export interface ChatHost {
  /** The opened workspace's directory, if any. */
  workspace(): Promise<string | undefined>;
  /** The hub OpenCode's agent drives, once it listens. */
  hub(): { mcpUrl: string | undefined; token: string | undefined };
  /** Ends the hub sessions of the OpenCode labelled so (its process is gone), as any ended session. */
  endSessions(label: string): Promise<void>;
}

let servers = 0;

export class ChatService {
  private proxy: OpenCodeProxy | undefined;
  private directory: string | undefined;

  constructor(private readonly host: ChatHost) {}

  /** The proxy for the opened workspace; made on first use, since Theia opens the workspace after the backend starts. */
  async current(): Promise<OpenCodeProxy> {
    const directory = (await this.host.workspace()) ?? process.cwd();
    if (this.proxy && this.directory === directory) return this.proxy;
    this.proxy?.dispose();
    this.directory = directory;
    this.proxy = new OpenCodeProxy({ directory, start: () => this.start(directory) });
    return this.proxy;
  }

  private settings: ChatSettings = { serverUrl: '', opencodePath: '' };

  async connect(settings: ChatSettings) {
    this.settings = settings;
    return (await this.current()).connect(settings.serverUrl.trim() || undefined);
  }

  private start(directory: string) {
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
    const label = `chat-opencode-${process.pid}-${++servers}`;
    const server = await serveOpenCode({ bin, cwd, hub, label });
    void server.exited.then(() => this.host.endSessions(label));
    return server;
  }

  dispose(): void {
    this.proxy?.dispose();
  }
}

/** A window that went away while a notice was on its way is no error. */
const quietly = (call: unknown) => void Promise.resolve(call).catch(() => undefined);

/** One window's end of the chat: its calls go to the shared proxy, the proxy's events to it. */
export function chatBackendFor(service: ChatService, client: RpcProxy<ChatClient>): ChatBackend {
  let removeClient: (() => void) | undefined;
  const proxy = service.current().then((p) => {
    removeClient = p.addClient({
      onEvent: (event) => quietly(client.onEvent(event)),
      onConnection: (connection) => quietly(client.onConnection(connection)),
    });
    return p;
  });
  client.onDidCloseConnection(() => void proxy.then(() => removeClient?.()));
  return {
    connection: async () => (await proxy).connection(),
    connect: (settings) => service.connect(settings),
    replay: async (seq) => (await proxy).replay(seq),
    sessions: async () => (await proxy).sessions(),
    createSession: async (title) => (await proxy).createSession(title),
    deleteSession: async (id) => (await proxy).deleteSession(id),
    forkSession: async (id, messageID) => (await proxy).forkSession(id, messageID),
    revert: async (id, messageID) => (await proxy).revert(id, messageID),
    unrevert: async (id) => (await proxy).unrevert(id),
    abort: async (id) => (await proxy).abort(id),
    compact: async (id, model) => (await proxy).compact(id, model),
    messages: async (id) => (await proxy).messages(id),
    statuses: async () => (await proxy).statuses(),
    prompt: async (id, text, model, agent) => (await proxy).prompt(id, text, model, agent),
    agents: async () => (await proxy).agents(),
    models: async () => (await proxy).models(),
    permissions: async () => (await proxy).permissions(),
    replyPermission: async (id, reply) => (await proxy).replyPermission(id, reply),
    questions: async () => (await proxy).questions(),
    answerQuestion: async (id, answers) => (await proxy).answerQuestion(id, answers),
    dismissQuestion: async (id) => (await proxy).dismissQuestion(id),
  };
}
