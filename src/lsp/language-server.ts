/**
 * One language server process over LSP (stdio), through the ecosystem's own client library
 * (vscode-languageserver-protocol): started on first use, the workspace's documents synced to it
 * in full, restarted when it crashes. Node only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node';
import { pathToFileURL } from 'node:url';

export interface LanguageServerConfig {
  /** Shown to agents, e.g. "typescript". */
  name: string;
  /** The program and its arguments; it speaks LSP on stdin/stdout. */
  command: string[];
  /** File name endings it handles, e.g. [".ts", ".tsx"]. */
  extensions: string[];
  /** LSP language IDs by ending; an ending not listed uses the ending without its dot. */
  languageIds?: Record<string, string>;
  initializationOptions?: unknown;
  /**
   * Diagnostics of one open document computed now, for servers whose pushed diagnostics come late
   * (typescript-language-server waits 300–800 ms after a change before it asks tsserver).
   */
  pullDiagnostics?: (server: LanguageServer, file: string) => Promise<Diagnostic[]>;
}

export type ServerState = 'starting' | 'ready' | 'failed';

/** How long a request may take before it fails (a server busy loading a big project answers late, not never). */
export const REQUEST_TIMEOUT_MS = 20_000;
/** Restarts after crashes within a short time before giving up on a server. */
const MAX_RESTARTS = 3;
/** How long pushed diagnostics may take to arrive after a change before the last known ones are answered. */
const PUSH_SETTLE_MS = 3000;

const CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  textDocument: {
    synchronization: { didSave: false, dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    definition: { linkSupport: false },
    references: {},
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: false, documentationFormat: ['markdown', 'plaintext'] }, contextSupport: false },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
  },
  workspace: { symbol: {}, workspaceFolders: true, configuration: false },
};

interface Doc {
  version: number;
  text: string;
  /** Diagnostics the server pushed for the document, and the version they are of (the one it had then, when the server does not say). */
  pushed?: { version: number; diagnostics: Diagnostic[] };
}

/** A language server for one root directory. */
export class LanguageServer {
  private state_: ServerState | 'stopped' = 'stopped';
  private process: ChildProcess | undefined;
  private connection: ProtocolConnection | undefined;
  private ready: Promise<void> | undefined;
  private capabilities: ServerCapabilities = {};
  private readonly docs = new Map<string, Doc>();
  private readonly pushWaiters = new Map<string, Array<() => void>>();
  private crashes: number[] = [];
  private disposed = false;
  /** What happened to the server that the next answer should say (a crash and restart). */
  private notice: string | undefined;

  constructor(
    readonly config: LanguageServerConfig,
    readonly rootDir: string,
  ) {}

  get pid(): number | undefined {
    return this.process?.pid;
  }

  get state(): ServerState | 'stopped' {
    return this.state_;
  }

  /** Start the server if it is not running; resolves when it answered `initialize`. */
  start(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error(`the ${this.config.name} language server was shut down`));
    if (this.ready) return this.ready;
    this.state_ = 'starting';
    const [program, ...args] = this.config.command;
    const child = spawn(program!, args, { cwd: this.rootDir, stdio: ['pipe', 'pipe', 'pipe'] });
    this.process = child;
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.connection = connection;
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const doc = this.docs.get(params.uri);
      if (doc) doc.pushed = { version: params.version ?? doc.version, diagnostics: params.diagnostics };
      for (const wake of this.pushWaiters.get(params.uri) ?? []) wake();
      this.pushWaiters.delete(params.uri);
    });
    // What servers ask of a client, answered as an editor with no settings for them does.
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => null));
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(this.rootDir).href, name: 'workspace' }]);
    for (const method of [
      'window/workDoneProgress/create',
      'client/registerCapability',
      'client/unregisterCapability',
      'window/showMessageRequest',
    ]) {
      connection.onRequest(method, () => null);
    }
    connection.onError(() => {});
    connection.listen();
    const exited = new Promise<never>((_, reject) => {
      child.once('error', (err) => {
        // The program is missing or cannot run: restarting would not help.
        this.process = undefined;
        this.connection = undefined;
        this.state_ = 'failed';
        this.notice = `The ${this.config.name} language server could not start (${this.config.command.join(' ')}): ${err.message}`;
        reject(new Error(this.notice));
      });
      child.once('exit', (code, signal) => {
        const why = `exited (${signal ?? `code ${code}`})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`;
        this.onExit(child, why);
        reject(new Error(`the ${this.config.name} language server ${why}`));
      });
    });
    exited.catch(() => {});
    const initialize = async () => {
      const rootUri = pathToFileURL(this.rootDir).href;
      const result: InitializeResult = await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'OpenSpace' },
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
        capabilities: CAPABILITIES,
        initializationOptions: this.config.initializationOptions,
      });
      this.capabilities = result.capabilities;
      await connection.sendNotification(InitializedNotification.type, {});
    };
    this.ready = Promise.race([initialize(), exited]).then(
      () => {
        if (this.process === child) this.state_ = 'ready';
      },
      (err: Error) => {
        if (this.process === child) child.kill('SIGKILL');
        throw err;
      },
    );
    return this.ready;
  }

  private onExit(child: ChildProcess, why: string): void {
    if (this.process !== child) return;
    this.connection?.dispose();
    this.process = undefined;
    this.connection = undefined;
    this.ready = undefined;
    this.docs.clear();
    for (const wakes of this.pushWaiters.values()) wakes.forEach((wake) => wake());
    this.pushWaiters.clear();
    if (this.disposed) return;
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < 60_000), now];
    if (this.crashes.length > MAX_RESTARTS) {
      this.state_ = 'failed';
      this.notice = `The ${this.config.name} language server ${why}, ${this.crashes.length} times in a minute; it is not restarted.`;
      return;
    }
    this.notice = `The ${this.config.name} language server ${why}; it was restarted, and answers may take longer while it loads the project again.`;
    this.start().catch(() => {});
  }

  /** What happened to the server since the last answer (once). */
  takeNotice(): string | undefined {
    const notice = this.notice;
    if (this.state_ !== 'failed') this.notice = undefined;
    return notice;
  }

  /** The notice a failed server keeps answering with. */
  get failure(): string | undefined {
    return this.state_ === 'failed' ? this.notice : undefined;
  }

  languageId(file: string): string {
    const ending = this.config.extensions.find((e) => file.endsWith(e)) ?? '';
    return this.config.languageIds?.[ending] ?? ending.replace(/^\./, '');
  }

  /** Give the server a document's text now (didOpen the first time, a full didChange when it changed). */
  sync(file: string, text: string): void {
    const connection = this.requireConnection();
    const uri = pathToFileURL(file).href;
    const doc = this.docs.get(uri);
    // A server whose pipe closed under a notification (EPIPE) has exited: onExit handles that, not the sender.
    const ignore = () => {};
    if (!doc) {
      this.docs.set(uri, { version: 1, text });
      connection
        .sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: this.languageId(file), version: 1, text },
        })
        .catch(ignore);
    } else if (doc.text !== text) {
      doc.version += 1;
      doc.text = text;
      connection
        .sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version: doc.version },
          contentChanges: [{ text }],
        })
        .catch(ignore);
    }
  }

  /** The text the server has of a document, or undefined when it has not been opened. */
  synced(file: string): string | undefined {
    return this.docs.get(pathToFileURL(file).href)?.text;
  }

  /** Whether any document is synced to the server. */
  hasDocuments(): boolean {
    return this.docs.size > 0;
  }

  async request<R>(method: string, params: unknown): Promise<R> {
    const connection = this.requireConnection();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the ${this.config.name} language server did not answer ${method} within ${REQUEST_TIMEOUT_MS / 1000} s`)),
        REQUEST_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([connection.sendRequest<R>(method, params), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The diagnostics of a synced document as they are for its text now. */
  async diagnostics(file: string): Promise<Diagnostic[]> {
    if (this.config.pullDiagnostics) return this.config.pullDiagnostics(this, file);
    const uri = pathToFileURL(file).href;
    if (this.capabilities.diagnosticProvider) {
      const report = await this.request<{ kind: string; items?: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } });
      return report.items ?? [];
    }
    return this.pushedDiagnostics(uri);
  }

  /** Wait for the server to push diagnostics of the document's current version (or for a while, when it pushes nothing new). */
  private async pushedDiagnostics(uri: string): Promise<Diagnostic[]> {
    const doc = this.docs.get(uri);
    if (!doc) return [];
    if (doc.pushed?.version !== doc.version) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, PUSH_SETTLE_MS);
        const wakes = this.pushWaiters.get(uri) ?? [];
        wakes.push(() => {
          clearTimeout(timer);
          resolve();
        });
        this.pushWaiters.set(uri, wakes);
      });
    }
    return doc.pushed?.diagnostics ?? [];
  }

  private requireConnection(): ProtocolConnection {
    if (!this.connection || this.state_ !== 'ready') throw new Error(`the ${this.config.name} language server is not running`);
    return this.connection;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const child = this.process;
    const connection = this.connection;
    if (!child || !connection) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await Promise.race([connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 1000))]);
      await connection.sendNotification(ExitNotification.type);
    } catch {
      // It is going away either way.
    }
    const killer = setTimeout(() => child.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(killer);
  }
}
