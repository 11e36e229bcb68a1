import {
  codeDefinition,
  codeHover,
  codeReferences,
  diagnosticsList,
  MAX_DIAGNOSTIC_FILES,
  symbolsOutline,
  symbolsSearch,
  SymbolKind,
  type CodeLocation,
  type CodeRange,
  type OutlineSymbol,
  type Severity,
} from './tools.js';
import { ToolError } from '../../contract/index.js';
import type { CodePort, LspDocumentSymbol, LspLocation, LspPosition, LspRange, LspWorkspaceSymbol } from './port.js';
import type { NodeIde } from '../index.js';
import { defineNodeCommand } from '../../commands/command.js';

const SEVERITIES: Severity[] = ['error', 'warning', 'info', 'hint'];
const KINDS = SymbolKind.options;
/** The most characters of a line an answer quotes. */
const MAX_LINE_TEXT = 300;
/** The most outline symbols one answer holds. */
const MAX_OUTLINE_SYMBOLS = 2000;

function kindName(kind: number): SymbolKind {
  return KINDS[kind - 1] ?? 'variable';
}

function toRange(range: LspRange): CodeRange {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/**
 * The lines of workspace files as the person sees them (an editor's unsaved text first), read once
 * per answer. A file the agent may not read (a sensitive one) has none, even while a person has it
 * open: hits in it are left out.
 */
class Lines {
  private readonly files = new Map<string, Promise<string[] | undefined>>();
  constructor(private readonly ide: NodeIde) {}

  of(path: string): Promise<string[] | undefined> {
    let lines = this.files.get(path);
    if (!lines) {
      // The read is the check (SENSITIVE_FILE by the person's settings); the buffer, if any, is what they see.
      lines = this.ide.workspace.readText(path).then(
        async ({ text }) => ((await this.ide.editors.text(path)) ?? text).split(/\r?\n/),
        () => undefined,
      );
      this.files.set(path, lines);
    }
    return lines;
  }

  /** A location as answered, or undefined when it is outside the workspace or in a file agents may not read. */
  async locate(location: LspLocation): Promise<CodeLocation | undefined> {
    if (location.path === undefined) return undefined;
    const lines = await this.of(location.path);
    if (!lines) return undefined;
    return {
      path: location.path,
      range: toRange(location.range),
      lineText: (lines[location.range.start.line] ?? '').slice(0, MAX_LINE_TEXT),
    };
  }

  async locateAll(locations: LspLocation[]): Promise<{ found: CodeLocation[]; outsideWorkspace: number }> {
    const answered = await Promise.all(locations.map((l) => this.locate(l)));
    return {
      found: answered.filter((l): l is CodeLocation => l !== undefined),
      outsideWorkspace: locations.filter((l) => l.path === undefined).length,
    };
  }
}

/**
 * Check an agent's path: inside the workspace, a file, readable by agents (not sensitive, by the
 * person's settings). Whether a server handles it, the code port says (LANGUAGE_NOT_SUPPORTED).
 */
async function codeFile(ide: NodeIde, input: string): Promise<string> {
  const path = await ide.workspace.resolve(input);
  await ide.workspace.readText(path);
  return path;
}

function notice(ide: NodeIde): { notice?: string } {
  const text = ide.code.takeNotice();
  return text ? { notice: text } : {};
}

interface Resolved {
  path: string;
  position: LspPosition;
  symbol?: { name: string; kind: SymbolKind; containerName?: string; path: string; line: number; otherMatches: number };
}

/** Kinds an agent most likely means by a bare name, first; local variables last. */
const KIND_RANK: SymbolKind[] = [
  'class',
  'interface',
  'function',
  'method',
  'enum',
  'struct',
  'module',
  'namespace',
  'constructor',
  'property',
  'field',
];
function rank(kind: SymbolKind): number {
  const i = KIND_RANK.indexOf(kind);
  return i === -1 ? KIND_RANK.length : i;
}

function contains(outer: LspRange, inner: LspRange): boolean {
  const before = (a: LspPosition, b: LspPosition) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

/**
 * The declaration a workspace symbol stands for in its file's outline, and the names of what
 * encloses it ("TaskStore" for a method add): workspace symbols cover the whole declaration and
 * not every server names their container.
 */
function declarationIn(
  outline: LspDocumentSymbol[],
  name: string,
  range: LspRange,
  enclosing: string[] = [],
): { symbol: LspDocumentSymbol; container: string[] } | undefined {
  for (const s of outline) {
    if (!contains(s.range, range) && !contains(range, s.selectionRange)) continue;
    const inner = declarationIn(s.children ?? [], name, range, [...enclosing, s.name]);
    if (inner) return inner;
    if (s.name === name) return { symbol: s, container: enclosing };
  }
  return undefined;
}

/** Files' outlines, asked once per answer. */
class Outlines {
  private readonly files = new Map<string, Promise<LspDocumentSymbol[]>>();
  constructor(private readonly code: CodePort) {}

  /** Where a workspace symbol is declared in its file's outline, and what encloses it. */
  async declaration(s: LspWorkspaceSymbol): Promise<{ symbol: LspDocumentSymbol; container: string[] } | undefined> {
    const path = s.location.path;
    if (path === undefined) return undefined;
    if (!this.files.has(path)) this.files.set(path, this.code.documentSymbols(path));
    return declarationIn(await this.files.get(path)!, s.name, s.location.range);
  }
}

interface Candidate {
  name: string;
  kind: SymbolKind;
  path: string;
  position: LspPosition;
  container: string[];
}

/** Where a call points: its position, or the declaration of the symbol it names ("createTask", "TaskStore.add"). */
async function resolveTarget(ide: NodeIde, args: { path?: string; line?: number; column?: number; symbol?: string }): Promise<Resolved> {
  if (args.symbol === undefined) {
    const path = await codeFile(ide, args.path!);
    return { path, position: { line: args.line! - 1, character: args.column! - 1 } };
  }
  const parts = args.symbol.split('.');
  const name = parts.pop()!;
  const code = ide.code;
  const lines = new Lines(ide);
  const outlines = new Outlines(code);
  const found = await code.workspaceSymbols(name);
  const candidates: Candidate[] = [];
  for (const s of found) {
    const path = s.location.path;
    if (s.name !== name || path === undefined || !(await lines.of(path))) continue;
    const declared = await outlines.declaration(s);
    const container = declared?.container ?? (s.containerName ? s.containerName.split('.') : []);
    if (parts.length && container.slice(-parts.length).join('.') !== parts.join('.')) continue;
    candidates.push({
      name,
      kind: kindName(s.kind),
      path,
      position: declared?.symbol.selectionRange.start ?? s.location.range.start,
      container,
    });
  }
  if (candidates.length === 0) {
    const near = [...new Set(found.filter((s) => s.location.path !== undefined).map((s) => s.name))].slice(0, 8);
    throw new ToolError(
      'SYMBOL_NOT_FOUND',
      `No symbol named "${args.symbol}" is declared in the workspace${near.length ? `; near names: ${near.join(', ')}` : ''}.`,
      { near },
    );
  }
  candidates.sort((a, b) => rank(a.kind) - rank(b.kind));
  const best = candidates[0]!;
  return {
    path: best.path,
    position: best.position,
    symbol: {
      name,
      kind: best.kind,
      ...(best.container.length ? { containerName: best.container.join('.') } : {}),
      path: best.path,
      line: best.position.line + 1,
      otherMatches: candidates.length - 1,
    },
  };
}

/**
 * The files a diagnostics.list covers: one file, or the files under a directory that a server
 * handles and agents may read, those open in an editor first.
 */
async function diagnosticFiles(ide: NodeIde, input: string | undefined): Promise<{ files: string[]; capped: boolean }> {
  const path = input === undefined ? '' : await ide.workspace.resolve(input);
  if (path !== '' && (await ide.workspace.stat(path)).type === 'file') return { files: [await codeFile(ide, path)], capped: false };
  const [listed, endings] = await Promise.all([ide.workspace.list(path, { recursive: true, limit: 100_000 }), ide.code.fileEndings()]);
  const open = new Set(ide.editors.list().map((e) => e.path));
  const all = listed.files
    .filter((f) => f.type === 'file' && !f.sensitive && endings.some((e) => f.path.endsWith(e)))
    .map((f) => f.path)
    .sort((a, b) => Number(open.has(b)) - Number(open.has(a)));
  return { files: all.slice(0, MAX_DIAGNOSTIC_FILES), capped: listed.truncated || all.length > MAX_DIAGNOSTIC_FILES };
}

export default [
  defineNodeCommand(diagnosticsList, async (ide, args) => {
    const code = ide.code;
    const { files, capped } = await diagnosticFiles(ide, args.path);
    const least = SEVERITIES.indexOf(args.severity ?? 'hint');
    const limit = args.limit ?? 100;
    const lines = new Lines(ide);
    const counts = { error: 0, warning: 0, info: 0, hint: 0 };
    const found = [];
    for (const file of files) {
      for (const d of await code.diagnostics(file)) {
        const severity = SEVERITIES[d.severity - 1] ?? 'error';
        counts[severity] += 1;
        if (SEVERITIES.indexOf(severity) > least) continue;
        const at = await lines.locate({ path: file, range: d.range });
        found.push({
          path: file,
          range: toRange(d.range),
          severity,
          message: d.message,
          ...(d.source ? { source: d.source } : {}),
          ...(d.code !== undefined ? { code: d.code } : {}),
          lineText: at?.lineText ?? '',
        });
      }
    }
    found.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
    return {
      diagnostics: found.slice(0, limit),
      counts,
      filesChecked: files.length,
      truncated: capped || found.length > limit,
      ...notice(ide),
    };
  }),

  defineNodeCommand(symbolsSearch, async (ide, args) => {
    const limit = args.limit ?? 50;
    const symbols = (await ide.code.workspaceSymbols(args.query))
      .map((s) => ({ ...s, kindName: kindName(s.kind) }))
      .filter((s) => !args.kind || s.kindName === args.kind);
    const query = args.query.toLowerCase();
    const closeness = (name: string) =>
      name === args.query ? 0 : name.toLowerCase() === query ? 1 : name.toLowerCase().startsWith(query) ? 2 : 3;
    symbols.sort((a, b) => closeness(a.name) - closeness(b.name) || rank(a.kindName) - rank(b.kindName));
    const lines = new Lines(ide);
    const outlines = new Outlines(ide.code);
    const answered = [];
    for (const s of symbols) {
      const at = await lines.locate(s.location);
      if (!at) continue;
      if (answered.length === limit) return { symbols: answered, truncated: true, ...notice(ide) };
      // Not every server names a symbol's container; its file's outline does.
      const containerName = s.containerName ?? (await outlines.declaration(s))?.container.join('.');
      answered.push({ name: s.name, kind: s.kindName, ...(containerName ? { containerName } : {}), ...at });
    }
    return { symbols: answered, truncated: false, ...notice(ide) };
  }),

  defineNodeCommand(symbolsOutline, async (ide, args) => {
    const path = await codeFile(ide, args.path);
    const budget = { left: MAX_OUTLINE_SYMBOLS };
    const symbols = outline(await ide.code.documentSymbols(path), budget);
    return { path, symbols, truncated: budget.left === 0, ...notice(ide) };
  }),

  defineNodeCommand(codeDefinition, async (ide, args) => {
    const target = await resolveTarget(ide, args);
    const { found, outsideWorkspace } = await new Lines(ide).locateAll(await ide.code.definition(target.path, target.position));
    return { definitions: found, outsideWorkspace, ...(target.symbol ? { symbol: target.symbol } : {}), ...notice(ide) };
  }),

  defineNodeCommand(codeReferences, async (ide, args) => {
    const target = await resolveTarget(ide, args);
    const limit = args.limit ?? 200;
    const locations = await ide.code.references(target.path, target.position, args.includeDeclaration ?? true);
    const { found, outsideWorkspace } = await new Lines(ide).locateAll(locations);
    return {
      references: found.slice(0, limit),
      total: found.length,
      truncated: found.length > limit,
      outsideWorkspace,
      ...(target.symbol ? { symbol: target.symbol } : {}),
      ...notice(ide),
    };
  }),

  defineNodeCommand(codeHover, async (ide, args) => {
    const target = await resolveTarget(ide, args);
    const hover = await ide.code.hover(target.path, target.position);
    return {
      contents: hover?.contents ?? '',
      ...(hover?.range ? { range: toRange(hover.range) } : {}),
      ...(target.symbol ? { symbol: target.symbol } : {}),
      ...notice(ide),
    };
  }),
];

/** Document symbols as answered, nested, at most budget.left of them in all. */
function outline(symbols: LspDocumentSymbol[], budget: { left: number }): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  // In the order of the file, as an IDE's outline shows them (servers may sort by name).
  const inOrder = [...symbols].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  for (const s of inOrder) {
    if (budget.left === 0) break;
    budget.left -= 1;
    const children = outline(s.children ?? [], budget);
    out.push({
      name: s.name,
      kind: kindName(s.kind),
      ...(s.detail ? { detail: s.detail } : {}),
      range: toRange(s.range),
      ...(children.length ? { children } : {}),
    });
  }
  return out;
}
