import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { Diagnostic } from '@theia/core/shared/vscode-languageserver-protocol';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { ProblemManager } from '@theia/markers/lib/browser/problem/problem-manager';
import { ProtocolToMonacoConverter } from '@theia/monaco/lib/browser/protocol-to-monaco-converter';
import * as monaco from '@theia/monaco-editor-core';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import type { LspDocumentSymbol, LspLocation, LspPosition } from '../../../../src/browser.js';
import { languageConfiguration, languageName } from './code-languages.js';
import { ContentIds } from './content-ids.js';
import { TheiaCodePort } from './theia-code-port.js';

/** The Problems view's owner of the markers, and the source it names when a server names none. */
const OWNER = 'openspace';
/** How long after the last keystroke (or change on disk) the open files' diagnostics are asked again. */
const SETTLE_MS = 250;
/** How soon to ask again when the server is still starting, or did not answer. */
const RETRY_MS = 1000;
/** How many rounds in a row may fail (not a starting server) before only an edit asks again. */
const MAX_FAILED_ROUNDS = 5;
/** LSP's completion kinds (from 1) by name, as Monaco's enum has them (from 0, in another order). */
const COMPLETION_KINDS = [
  'Text',
  'Method',
  'Function',
  'Constructor',
  'Field',
  'Variable',
  'Class',
  'Interface',
  'Module',
  'Property',
  'Unit',
  'Value',
  'Enum',
  'Keyword',
  'Snippet',
  'Color',
  'File',
  'Reference',
  'Folder',
  'EnumMember',
  'Constant',
  'Struct',
  'Event',
  'Operator',
  'TypeParameter',
] as const;

const lspPosition = (p: monaco.Position): LspPosition => ({ line: p.lineNumber - 1, character: p.column - 1 });

/**
 * A person's language support in Theia's editors, from the language servers the agent's code tools
 * use (run in the backend): errors as squiggles and in the Problems view, hover, go to definition,
 * references, completion and the outline. Without a plugin host Theia has none of its own. Every
 * request carries the window's unsaved buffers (TheiaCodePort), so the servers see what the
 * person sees.
 */
@injectable()
export class CodeFeatures implements FrontendApplicationContribution {
  @inject(TheiaCodePort) protected readonly code!: TheiaCodePort;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(ProblemManager) protected readonly problems!: ProblemManager;
  @inject(FileService) protected readonly files!: FileService;
  @inject(WorkspaceService) protected readonly workspace!: WorkspaceService;
  @inject(ProtocolToMonacoConverter) protected readonly p2m!: ProtocolToMonacoConverter;
  /** File endings the servers handle, and each one's language. */
  private languages: Record<string, string> = {};
  /** The open workspace files of those languages, whose diagnostics are kept as markers. */
  private readonly models = new Set<monaco.editor.ITextModel>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Rounds in a row that failed for another reason than a server starting. */
  private failedRounds = 0;
  /** The diagnostics rounds, one after another. */
  private rounds = Promise.resolve();

  onStart(): void {
    // Startup does not wait for the backend: the features arrive when it answers.
    void this.start().catch((err: unknown) => console.warn('OpenSpace: no language features', err));
  }

  private async start(): Promise<void> {
    // No folder open, no workspace files.
    if (!(await this.workspace.roots).length) return;
    this.languages = await this.code.languages();
    this.registerLanguages();
    const selector = [...new Set(Object.values(this.languages))].map((language) => ({ language, scheme: 'file' }));
    this.registerProviders(selector);
    monaco.editor.onDidCreateModel((model) => this.track(model));
    monaco.editor.getModels().forEach((model) => this.track(model));
    this.files.onDidFilesChange((event) => {
      const paths = event.changes.map((c) => this.pathOf(c.resource)).filter((p): p is string => p !== undefined);
      if (paths.length) void this.code.filesChanged(paths).then(() => this.refreshSoon());
    });
  }

  /** Name the servers' languages to Monaco, and give files already open theirs. */
  private registerLanguages(): void {
    const known = new Set(monaco.languages.getLanguages().map((l) => l.id));
    const endings = new Map<string, string[]>();
    for (const [ending, id] of Object.entries(this.languages)) endings.set(id, [...(endings.get(id) ?? []), ending]);
    for (const [id, extensions] of endings) {
      if (known.has(id)) continue;
      monaco.languages.register({ id, extensions, aliases: [languageName(id)] });
      const configuration = languageConfiguration(id);
      if (configuration) monaco.languages.setLanguageConfiguration(id, configuration);
    }
    for (const model of monaco.editor.getModels()) {
      const id = this.languageOf(model.uri.path);
      if (id && model.getLanguageId() !== id) monaco.editor.setModelLanguage(model, id);
    }
  }

  private languageOf(path: string): string | undefined {
    const ending = Object.keys(this.languages).find((e) => path.endsWith(e));
    return ending && this.languages[ending];
  }

  /** A workspace file's relative path, or undefined for one outside the workspace or of no server's language. */
  private pathOf(uri: URI | monaco.Uri): string | undefined {
    const theiaUri = uri instanceof URI ? uri : new URI(uri.toString());
    if (theiaUri.scheme !== 'file' || !this.languageOf(theiaUri.path.toString())) return undefined;
    const path = this.ids.pathOf(theiaUri);
    return path.startsWith('/') ? undefined : path;
  }

  private locations(found: LspLocation[]): monaco.languages.Location[] {
    return found
      .filter((l): l is LspLocation & { path: string } => l.path !== undefined)
      .map((l) => ({ uri: monaco.Uri.parse(this.ids.uriOf(l.path).toString()), range: this.p2m.asRange(l.range) }));
  }

  /** Ask the servers for a model's file; a file they do not answer for (still starting, gone) gets nothing. */
  private async ask<T>(model: monaco.editor.ITextModel, question: (path: string) => Promise<T>): Promise<T | undefined> {
    const path = this.pathOf(model.uri);
    if (path === undefined) return undefined;
    return question(path).catch(() => undefined);
  }

  private registerProviders(selector: monaco.languages.LanguageSelector): void {
    monaco.languages.registerHoverProvider(selector, {
      provideHover: async (model, position) => {
        const hover = await this.ask(model, (path) => this.code.hover(path, lspPosition(position)));
        return hover && { contents: [{ value: hover.contents }], range: hover.range && this.p2m.asRange(hover.range) };
      },
    });
    monaco.languages.registerDefinitionProvider(selector, {
      provideDefinition: async (model, position) =>
        this.locations((await this.ask(model, (path) => this.code.definition(path, lspPosition(position)))) ?? []),
    });
    monaco.languages.registerReferenceProvider(selector, {
      provideReferences: async (model, position, context) =>
        this.locations(
          (await this.ask(model, (path) => this.code.references(path, lspPosition(position), context.includeDeclaration))) ?? [],
        ),
    });
    monaco.languages.registerDocumentSymbolProvider(selector, {
      provideDocumentSymbols: async (model) => {
        const symbols = await this.ask(model, (path) => this.code.documentSymbols(path));
        const convert = (s: LspDocumentSymbol): monaco.languages.DocumentSymbol => ({
          name: s.name,
          detail: s.detail ?? '',
          // LSP counts symbol kinds from 1, Monaco from 0, in the same order.
          kind: (s.kind - 1) as monaco.languages.SymbolKind,
          tags: [],
          range: this.p2m.asRange(s.range),
          selectionRange: this.p2m.asRange(s.selectionRange),
          children: s.children?.map(convert),
        });
        return symbols?.map(convert);
      },
    });
    monaco.languages.registerCompletionItemProvider(selector, {
      triggerCharacters: ['.', '"', "'", '/', '@', '<'],
      provideCompletionItems: async (model, position) => {
        const answer = await this.ask(model, (path) => this.code.completion(path, lspPosition(position)));
        const word = model.getWordUntilPosition(position);
        const atWord = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
        return {
          incomplete: answer?.incomplete,
          suggestions: (answer?.items ?? []).map((item) => ({
            label: item.label,
            kind: monaco.languages.CompletionItemKind[COMPLETION_KINDS[(item.kind ?? 1) - 1] ?? 'Text'],
            detail: item.detail,
            documentation: item.documentation === undefined ? undefined : { value: item.documentation },
            sortText: item.sortText,
            filterText: item.filterText,
            insertText: item.insertText,
            range: item.range ? this.p2m.asRange(item.range) : atWord,
          })),
        };
      },
    });
  }

  /** Keep an open workspace file's diagnostics as markers while its model lives. */
  private track(model: monaco.editor.ITextModel): void {
    if (this.pathOf(model.uri) === undefined || this.models.has(model)) return;
    this.models.add(model);
    model.onDidChangeContent(() => this.refreshSoon());
    model.onWillDispose(() => {
      this.models.delete(model);
      this.problems.setMarkers(new URI(model.uri.toString()), OWNER, []);
    });
    this.refreshSoon(0);
  }

  private refreshSoon(delay = SETTLE_MS): void {
    clearTimeout(this.timer);
    // One round at a time; a change during a round asks for another after it.
    this.timer = setTimeout(() => (this.rounds = this.rounds.then(() => this.refresh())), delay);
  }

  /** Every open file's diagnostics as they are now: an edit in one file can put errors in another. */
  private async refresh(): Promise<void> {
    let failed = false;
    for (const model of [...this.models]) {
      const path = this.pathOf(model.uri)!;
      try {
        const found = await this.code.diagnostics(path);
        if (this.models.has(model)) {
          const markers = found.map((d) => ({ ...d, source: d.source ?? OWNER }) as Diagnostic);
          this.problems.setMarkers(new URI(model.uri.toString()), OWNER, markers);
        }
      } catch (err) {
        // A server still starting: ask again soon. Another failure (a cold server's first answer
        // timing out, say) is asked again a few times before the person's next edit asks anew.
        if ((err as { code?: string }).code === 'LSP_NOT_READY') return this.refreshSoon(RETRY_MS);
        failed = true;
      }
    }
    if (!failed) this.failedRounds = 0;
    else if (++this.failedRounds <= MAX_FAILED_ROUNDS) this.refreshSoon(RETRY_MS);
  }
}
