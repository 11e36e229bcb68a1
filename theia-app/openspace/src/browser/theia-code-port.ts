import { Emitter } from '@theia/core/lib/common/event';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { inject, injectable, type interfaces } from '@theia/core/shared/inversify';
import { ToolError } from '../../../../src/browser.js';
import type {
  CodePort,
  Disposable,
  LspCompletion,
  LspDiagnostic,
  LspDocumentSymbol,
  LspLocation,
  LspPosition,
  LspRange,
  LspWorkspaceSymbol,
} from '../../../../src/browser.js';
import { CODE_PATH, type CodeBackend, type CodeMethod } from '../common/protocol.js';
import { ContentIds } from './content-ids.js';
import { TheiaEditorPort } from './theia-editor-port.js';

export const CodeBackendProxy = Symbol('CodeBackendProxy');

export function createCodeBackendProxy(ctx: interfaces.Context): CodeBackend {
  return ServiceConnectionProvider.createProxy<CodeBackend>(ctx.container, CODE_PATH);
}

/**
 * Code intelligence in Theia, for the agent's tools and the person's editors (CodeFeatures): the language servers run in the backend (the
 * simulated IDE's LSP client, src/lsp); each call brings the window's editor buffers along, so the
 * answers are about the text the person sees.
 */
@injectable()
export class TheiaCodePort implements CodePort {
  @inject(CodeBackendProxy) protected readonly backend!: CodeBackend;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(TheiaEditorPort) protected readonly editors!: TheiaEditorPort;
  private notice: string | undefined;
  private endings: Promise<string[]> | undefined;
  private problems = { errors: 0, warnings: 0, files: 0 };
  private readonly problemsChanged = new Emitter<void>();

  /** Asked of the backend once: its servers are fixed when it starts. */
  fileEndings(): Promise<string[]> {
    this.endings ??= this.call<string[]>('fileEndings', []).catch((err: unknown) => {
      this.endings = undefined;
      throw err;
    });
    return this.endings;
  }

  diagnostics(path: string): Promise<LspDiagnostic[]> {
    return this.call('diagnostics', [path]);
  }

  workspaceSymbols(query: string): Promise<LspWorkspaceSymbol[]> {
    return this.call('workspaceSymbols', [query]);
  }

  documentSymbols(path: string): Promise<LspDocumentSymbol[]> {
    return this.call('documentSymbols', [path]);
  }

  definition(path: string, position: LspPosition): Promise<LspLocation[]> {
    return this.call('definition', [path, position]);
  }

  references(path: string, position: LspPosition, includeDeclaration: boolean): Promise<LspLocation[]> {
    return this.call('references', [path, position, includeDeclaration]);
  }

  hover(path: string, position: LspPosition): Promise<{ contents: string; range?: LspRange } | undefined> {
    return this.call('hover', [path, position]);
  }

  /** The language ID of each file ending the servers handle. */
  languages(): Promise<Record<string, string>> {
    return this.call('languages', []);
  }

  completion(path: string, position: LspPosition): Promise<{ incomplete: boolean; items: LspCompletion[] }> {
    return this.call('completion', [path, position]);
  }

  /** Files changed on disk, workspace-relative: the servers read again those they have open. */
  filesChanged(paths: string[]): Promise<void> {
    return this.backend.filesChanged(this.ids.rootPath, paths);
  }

  takeNotice(): string | undefined {
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  problemCounts(): { errors: number; warnings: number; files: number } {
    return this.problems;
  }

  onProblemsChanged(listener: () => void): Disposable {
    return this.problemsChanged.event(listener);
  }

  private async call<T>(method: CodeMethod, args: unknown[]): Promise<T> {
    const buffers: Record<string, string> = {};
    for (const editor of this.editors.list()) {
      const text = this.editors.text(editor.path);
      if (text !== undefined) buffers[editor.path] = text;
    }
    const outcome = await this.backend.call(this.ids.rootPath, method, args, buffers);
    if (outcome.notice) this.notice = outcome.notice;
    const { errors, warnings, files } = outcome.problems;
    if (errors !== this.problems.errors || warnings !== this.problems.warnings || files !== this.problems.files) {
      this.problems = outcome.problems;
      this.problemsChanged.fire();
    }
    if (!outcome.ok) throw new ToolError(outcome.code, outcome.message, outcome.details);
    return outcome.value as T;
  }
}
