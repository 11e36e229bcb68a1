/**
 * The CodePort over real language servers (LSP), for an IDE whose files Node can reach: the
 * simulated IDE (and its in-memory workspace through a mirror on disk). Node only.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ToolError } from '../contract/result.js';
import type {
  CodePort,
  LspCompletion,
  LspDiagnostic,
  LspDocumentSymbol,
  LspLocation,
  LspPosition,
  LspRange,
  LspWorkspaceSymbol,
} from '../families/code/port.js';
import type { WorkspacePort } from '../families/file/port.js';
import type { Disposable } from '../contract/port.js';
import { LanguageServer, type LanguageServerConfig } from './language-server.js';

/** How long a call waits for a starting server before it answers LSP_NOT_READY. */
export const READY_WAIT_MS = 3000;

export interface LspCodePortOptions {
  /** The directory the servers see as the workspace (the workspace itself, or its mirror, made when a server first starts). */
  serverRoot: string | (() => string);
  workspace: WorkspacePort;
  /** The editors' buffers: the text a person sees, unsaved changes included. */
  buffers: Buffers;
  servers: LanguageServerConfig[];
  readyWaitMs?: number;
}

export interface Buffers {
  /** The buffer of an open editor, or undefined when the file is not open. */
  text(path: string): string | undefined;
  /** The files open in editors. */
  paths(): string[];
}

type LspLocationLike = { uri: string; range: LspRange } | { targetUri: string; targetRange: LspRange; targetSelectionRange: LspRange };

export class LspCodePort implements CodePort, Disposable {
  private readonly servers = new Map<LanguageServerConfig, LanguageServer>();
  /** Files a server has open whose text may have changed since it last saw them (written, changed on disk, or an editor closed unsaved). */
  private readonly stale = new Set<string>();
  /** The files open in editors at the last sync. */
  private bufferPaths = new Set<string>();
  /** Servers whose workspace has no file of theirs to load a project from (checked once). */
  private readonly projectless = new Set<LanguageServer>();
  private readonly problems = new Map<string, { errors: number; warnings: number }>();
  private readonly problemListeners = new Set<() => void>();
  private readonly subscription: Disposable;
  private readonly readyWaitMs: number;
  private root: string | undefined;

  constructor(private readonly options: LspCodePortOptions) {
    this.readyWaitMs = options.readyWaitMs ?? READY_WAIT_MS;
    this.subscription = options.workspace.onFileWritten((path) => this.filesChanged([path]));
  }

  /** Files changed outside the editors (on disk, by another program): the servers that have them open read them again. */
  filesChanged(paths: string[]): void {
    for (const path of paths) {
      const config = this.configFor(path);
      // A file no server has open is read when it is first asked about.
      if (config && this.servers.get(config)?.synced(this.absolute(path)) !== undefined) this.stale.add(path);
    }
  }

  private configFor(path: string): LanguageServerConfig | undefined {
    return this.options.servers.find((c) => c.extensions.some((e) => path.endsWith(e)));
  }

  async fileEndings(): Promise<string[]> {
    return this.options.servers.flatMap((c) => c.extensions);
  }

  /** The language ID of each file ending a server handles (for an editor to name the files' language). */
  async languages(): Promise<Record<string, string>> {
    return Object.fromEntries(this.options.servers.flatMap((c) => c.extensions.map((e) => [e, c.languageIds?.[e] ?? e.slice(1)])));
  }

  /** Start the servers now rather than on the first call, and let each load its project (for `npm start`). */
  async warmUp(): Promise<void> {
    await Promise.all(
      this.options.servers.map(async (config) => {
        const server = this.serverOf(config);
        await server.start();
        await this.ensureProject(server);
      }),
    );
  }

  private serverOf(config: LanguageServerConfig): LanguageServer {
    let server = this.servers.get(config);
    if (!server) {
      server = new LanguageServer(config, this.serverRoot);
      this.servers.set(config, server);
    }
    return server;
  }

  /** The file's server, started and with every changed file synced to it. */
  private async ready(config: LanguageServerConfig): Promise<LanguageServer> {
    const server = this.serverOf(config);
    if (server.failure) throw new ToolError('INTERNAL', server.failure);
    if (server.state !== 'ready') {
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        server.start().then(
          () => 'ready' as const,
          (err: Error) => err,
        ),
        new Promise<'waiting'>((resolve) => (timer = setTimeout(() => resolve('waiting'), this.readyWaitMs))),
      ]);
      clearTimeout(timer);
      if (waited instanceof Error) throw new ToolError('INTERNAL', server.failure ?? waited.message);
      if (waited === 'waiting') {
        throw new ToolError('LSP_NOT_READY', `The ${config.name} language server is still starting; retry in a second.`, {
          retryAfterMs: 1000,
        });
      }
    }
    await this.syncChanged(server);
    return server;
  }

  private get serverRoot(): string {
    const root = this.options.serverRoot;
    return (this.root ??= typeof root === 'string' ? root : root());
  }

  private absolute(path: string): string {
    return path === '' ? this.serverRoot : `${this.serverRoot}/${path}`;
  }

  private pathOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    const rel = relative(this.serverRoot, fileURLToPath(uri));
    if (rel === '' || rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) return undefined;
    return rel.split(sep).join('/');
  }

  private uri(path: string): string {
    return pathToFileURL(this.absolute(path)).href;
  }

  /** The text a person sees: the editor's buffer, unsaved changes included, else the file. */
  private async textOf(path: string): Promise<string> {
    return this.options.buffers.text(path) ?? (await this.options.workspace.readText(path)).text;
  }

  private async open(server: LanguageServer, path: string): Promise<void> {
    server.sync(this.absolute(path), await this.textOf(path));
    this.stale.delete(path);
  }

  /** Give the server what changed since it last looked: files changed, editors closed, and editors' buffers. */
  private async syncChanged(server: LanguageServer): Promise<void> {
    const open = new Set(this.options.buffers.paths());
    // A closed editor's file is what is on disk again, whatever its buffer held.
    this.filesChanged([...this.bufferPaths].filter((path) => !open.has(path)));
    this.bufferPaths = open;
    for (const path of this.stale) {
      if (this.configFor(path) !== server.config) continue;
      this.stale.delete(path);
      // Unless the server restarted meanwhile, and opens the file afresh when asked about it.
      if (server.synced(this.absolute(path)) === undefined) continue;
      const text = await this.textOf(path).catch(() => undefined);
      // A deleted file stays as the server last saw it; nothing asks about it by path any more.
      if (text !== undefined) server.sync(this.absolute(path), text);
    }
    for (const path of open) {
      const text = this.options.buffers.text(path);
      if (text !== undefined && server.synced(this.absolute(path)) !== undefined) server.sync(this.absolute(path), text);
    }
  }

  /** Servers answer workspace-wide requests for the projects of the files they have open: open one if none is. */
  private async ensureProject(server: LanguageServer): Promise<void> {
    if (server.hasDocuments() || this.projectless.has(server)) return;
    const listed = await this.options.workspace.list('', { recursive: true, limit: 100_000 });
    const first = listed.files.find((f) => f.type === 'file' && !f.sensitive && this.configFor(f.path) === server.config);
    if (first) await this.open(server, first.path);
    else this.projectless.add(server);
  }

  private async serverFor(path: string): Promise<LanguageServer> {
    const config = this.configFor(path);
    if (!config) {
      throw new ToolError(
        'LANGUAGE_NOT_SUPPORTED',
        `No language server handles ${path}; there are servers for ${this.options.servers.map((c) => c.extensions.join(' ')).join(', ')}. ` +
          'Others are added by configuration (see docs/architecture.md, "Language servers").',
      );
    }
    const server = await this.ready(config);
    await this.open(server, path);
    return server;
  }

  private location(l: LspLocationLike): LspLocation {
    if ('targetUri' in l) return { path: this.pathOf(l.targetUri), range: l.targetSelectionRange ?? l.targetRange };
    return { path: this.pathOf(l.uri), range: l.range };
  }

  async diagnostics(path: string): Promise<LspDiagnostic[]> {
    const server = await this.serverFor(path);
    const found = (await server.diagnostics(this.absolute(path))) as LspDiagnostic[];
    const errors = found.filter((d) => (d.severity ?? 1) === 1).length;
    const warnings = found.filter((d) => d.severity === 2).length;
    const before = this.problems.get(path);
    if (errors + warnings > 0) this.problems.set(path, { errors, warnings });
    else this.problems.delete(path);
    if ((before?.errors ?? 0) !== errors || (before?.warnings ?? 0) !== warnings) this.problemListeners.forEach((l) => l());
    return found.map((d) => ({ ...d, severity: d.severity ?? 1 }));
  }

  async workspaceSymbols(query: string): Promise<LspWorkspaceSymbol[]> {
    const answers = await Promise.all(
      this.options.servers.map(async (config) => {
        const server = await this.ready(config);
        await this.ensureProject(server);
        const symbols =
          (await server.request<Array<{
            name: string;
            kind: number;
            containerName?: string;
            location: { uri: string; range?: LspRange };
          }> | null>('workspace/symbol', { query })) ?? [];
        return symbols.map((s) => ({
          name: s.name,
          kind: s.kind,
          ...(s.containerName ? { containerName: s.containerName } : {}),
          location: {
            path: this.pathOf(s.location.uri),
            range: s.location.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          },
        }));
      }),
    );
    return answers.flat();
  }

  async documentSymbols(path: string): Promise<LspDocumentSymbol[]> {
    const server = await this.serverFor(path);
    const symbols =
      (await server.request<Array<LspDocumentSymbol | { name: string; kind: number; location: { range: LspRange } }> | null>(
        'textDocument/documentSymbol',
        { textDocument: { uri: this.uri(path) } },
      )) ?? [];
    // Servers without hierarchy answer flat SymbolInformation: each its own range.
    return symbols.map((s) =>
      'location' in s ? { name: s.name, kind: s.kind, range: s.location.range, selectionRange: s.location.range } : s,
    );
  }

  async definition(path: string, position: LspPosition): Promise<LspLocation[]> {
    const server = await this.serverFor(path);
    const answer = await server.request<LspLocationLike | LspLocationLike[] | null>('textDocument/definition', {
      textDocument: { uri: this.uri(path) },
      position,
    });
    return (answer ? (Array.isArray(answer) ? answer : [answer]) : []).map((l) => this.location(l));
  }

  async references(path: string, position: LspPosition, includeDeclaration: boolean): Promise<LspLocation[]> {
    const server = await this.serverFor(path);
    const answer = await server.request<LspLocationLike[] | null>('textDocument/references', {
      textDocument: { uri: this.uri(path) },
      position,
      context: { includeDeclaration },
    });
    return (answer ?? []).map((l) => this.location(l));
  }

  async hover(path: string, position: LspPosition): Promise<{ contents: string; range?: LspRange } | undefined> {
    const server = await this.serverFor(path);
    type Marked = string | { language: string; value: string };
    const answer = await server.request<{ contents: Marked | Marked[] | { kind: string; value: string }; range?: LspRange } | null>(
      'textDocument/hover',
      { textDocument: { uri: this.uri(path) }, position },
    );
    if (!answer) return undefined;
    const part = (m: Marked) => (typeof m === 'string' ? m : `\`\`\`${m.language}\n${m.value}\n\`\`\``);
    const contents = Array.isArray(answer.contents)
      ? answer.contents.map(part).join('\n\n')
      : typeof answer.contents === 'object' && 'kind' in answer.contents
        ? answer.contents.value
        : part(answer.contents as Marked);
    return { contents: contents.trim(), ...(answer.range ? { range: answer.range } : {}) };
  }

  /** Completions at a position, for a person's editor (no tool answers them). */
  async completion(path: string, position: LspPosition): Promise<{ incomplete: boolean; items: LspCompletion[] }> {
    const server = await this.serverFor(path);
    type Edit = { newText: string; range?: LspRange; insert?: LspRange; replace?: LspRange };
    type Item = Omit<LspCompletion, 'documentation' | 'insertText' | 'range'> & {
      documentation?: string | { value: string };
      insertText?: string;
      textEdit?: Edit;
    };
    const answer = await server.request<Item[] | { isIncomplete: boolean; items: Item[] } | null>('textDocument/completion', {
      textDocument: { uri: this.uri(path) },
      position,
    });
    const items = Array.isArray(answer) ? answer : (answer?.items ?? []);
    return {
      incomplete: !Array.isArray(answer) && !!answer?.isIncomplete,
      items: items.map(({ label, kind, detail, documentation, sortText, filterText, insertText, textEdit }) => ({
        label,
        ...(kind !== undefined ? { kind } : {}),
        ...(detail ? { detail } : {}),
        ...(documentation ? { documentation: typeof documentation === 'string' ? documentation : documentation.value } : {}),
        ...(sortText ? { sortText } : {}),
        ...(filterText ? { filterText } : {}),
        insertText: textEdit?.newText ?? insertText ?? label,
        ...(textEdit ? { range: textEdit.range ?? textEdit.replace ?? textEdit.insert } : {}),
      })),
    };
  }

  takeNotice(): string | undefined {
    const notices = [...this.servers.values()].map((s) => s.takeNotice()).filter((n): n is string => n !== undefined);
    return notices.length ? notices.join(' ') : undefined;
  }

  problemCounts(): { errors: number; warnings: number; files: number } {
    let errors = 0;
    let warnings = 0;
    for (const p of this.problems.values()) {
      errors += p.errors;
      warnings += p.warnings;
    }
    return { errors, warnings, files: this.problems.size };
  }

  onProblemsChanged(listener: () => void): Disposable {
    this.problemListeners.add(listener);
    return { dispose: () => this.problemListeners.delete(listener) };
  }

  /** The process IDs of the running servers, by name (for tests that crash one). */
  pids(): Record<string, number> {
    return Object.fromEntries([...this.servers.values()].filter((s) => s.pid !== undefined).map((s) => [s.config.name, s.pid!]));
  }

  async dispose(): Promise<void> {
    this.subscription.dispose();
    await Promise.all([...this.servers.values()].map((s) => s.dispose()));
  }
}
