import type { Disposable, Listener } from '../../contract/port.js';

/** A position in an LSP document: 0-based line and UTF-16 character. */
export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** A place a language server answered; `path` is undefined when it lies outside the workspace. */
export interface LspLocation {
  path: string | undefined;
  range: LspRange;
}

export interface LspDiagnostic {
  range: LspRange;
  /** 1 error, 2 warning, 3 information, 4 hint (LSP's DiagnosticSeverity). */
  severity: 1 | 2 | 3 | 4;
  message: string;
  source?: string;
  code?: string | number;
}

/** LSP's DocumentSymbol (range: the whole declaration; selectionRange: its name). */
export interface LspDocumentSymbol {
  name: string;
  detail?: string;
  kind: number;
  range: LspRange;
  selectionRange: LspRange;
  children?: LspDocumentSymbol[];
}

export interface LspWorkspaceSymbol {
  name: string;
  kind: number;
  containerName?: string;
  location: LspLocation;
}

/** A completion a server offers: what to show, and the text that replaces `range` (the word at the position when absent). */
export interface LspCompletion {
  label: string;
  kind?: number;
  detail?: string;
  documentation?: string;
  sortText?: string;
  filterText?: string;
  insertText: string;
  range?: LspRange;
}

/**
 * Code intelligence from the workspace's language servers, in LSP's terms (0-based positions) with
 * workspace-relative paths. Every file asked about is given to its server with the text the person
 * sees (an editor's unsaved changes included). Throws LANGUAGE_NOT_SUPPORTED for a file no server
 * handles, LSP_NOT_READY while its server starts.
 */
export interface CodePort {
  /** The file-name endings the language servers handle (".ts", ".py" …). */
  fileEndings(): Promise<string[]>;
  /** Diagnostics of the file's current text, settled. */
  diagnostics(path: string): Promise<LspDiagnostic[]>;
  /** Workspace symbols matching a query, from every server of a language the workspace has. */
  workspaceSymbols(query: string): Promise<LspWorkspaceSymbol[]>;
  documentSymbols(path: string): Promise<LspDocumentSymbol[]>;
  definition(path: string, position: LspPosition): Promise<LspLocation[]>;
  references(path: string, position: LspPosition, includeDeclaration: boolean): Promise<LspLocation[]>;
  /** Markdown, and the range it is about; undefined when the server has nothing to say. */
  hover(path: string, position: LspPosition): Promise<{ contents: string; range?: LspRange } | undefined>;
  /** What happened to a server since the last answer (a crash and restart), once. */
  takeNotice(): string | undefined;
  /** Errors and warnings of the files checked so far, for the live instructions. */
  problemCounts(): { errors: number; warnings: number; files: number };
  onProblemsChanged(listener: Listener): Disposable;
}
