import { z } from 'zod';
import { Column, Line, WorkspacePath } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

/**
 * Code intelligence from the workspace's language servers (LSP): diagnostics, symbols, definitions,
 * references, hover. Lines and columns are 1-based as everywhere else; a range's end is exclusive.
 */

export const CodeRange = z.object({
  startLine: z.number().int(),
  startColumn: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int().describe('Exclusive'),
});
export type CodeRange = z.infer<typeof CodeRange>;

export const Severity = z.enum(['error', 'warning', 'info', 'hint']);
export type Severity = z.infer<typeof Severity>;

export const SymbolKind = z.enum([
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enumMember',
  'struct',
  'event',
  'operator',
  'typeParameter',
]);
export type SymbolKind = z.infer<typeof SymbolKind>;

/** A place in the workspace's code, with the text of its first line so an agent need not read the file. */
export const CodeLocation = z.object({
  path: z.string(),
  range: CodeRange,
  lineText: z.string().describe('The text of the range’s first line (at most 300 characters)'),
});
export type CodeLocation = z.infer<typeof CodeLocation>;

const Notice = z
  .string()
  .optional()
  .describe('Something about the language server the agent should know, e.g. that it crashed and was restarted');

/** The most diagnostics, symbols or references one answer holds. */
export const MAX_CODE_RESULTS = 1000;
/** The most files a diagnostics.list of a directory (or the workspace) checks. */
export const MAX_DIAGNOSTIC_FILES = 200;

const Limit = (fallback: number) =>
  z.number().int().min(1).max(MAX_CODE_RESULTS).optional().describe(`The most results to answer (default ${fallback}); truncated tells`);

/** A place in code given by position or by a symbol's name, since agents rarely know columns. */
const Target = z.strictObject({
  path: WorkspacePath.optional().describe('The file; with line and column'),
  line: Line.optional(),
  column: Column.optional().describe('1-based; any column inside the identifier'),
  symbol: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('Instead of a position: a symbol by name, e.g. "createTask" or "TaskStore.add" (container, dot, name)'),
});

function requireTarget(target: { path?: string; line?: number; column?: number; symbol?: string }, ctx: z.RefinementCtx): void {
  const position = target.path !== undefined || target.line !== undefined || target.column !== undefined;
  if (target.symbol !== undefined && position) {
    ctx.addIssue({ code: 'custom', path: ['symbol'], message: 'give either symbol or path, line and column, not both' });
  } else if (target.symbol === undefined) {
    for (const field of ['path', 'line', 'column'] as const) {
      if (target[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'required unless symbol is given' });
    }
  }
}

/** Which declaration a symbol name resolved to, when the call named a symbol. */
const Resolved = z
  .object({
    name: z.string(),
    kind: SymbolKind,
    containerName: z.string().optional(),
    path: z.string(),
    line: z.number().int(),
    otherMatches: z.number().int().describe('Other declarations with this name; pass a position to pick one of them'),
  })
  .optional();

const TargetEffects = { budget: 'simple', effect: 'read-only' } as const;

export const diagnosticsList = defineTool({
  name: 'openspace.diagnostics.list',
  core: true,
  title: 'List Problems',
  description:
    "Errors, warnings, infos and hints from the workspace's language servers, as the person's editor shows them (unsaved changes included). " +
    'Prefer it to running the compiler: it answers at once, structured. path: a file, or a directory to check every file in it ' +
    `(default: the whole workspace; at most ${MAX_DIAGNOSTIC_FILES} files). After a write it answers for the new content. ` +
    'severity: the least severe to include (default hint: all). Errors come first.',
  input: z.strictObject({
    path: WorkspacePath.optional(),
    severity: Severity.optional(),
    limit: Limit(100),
  }),
  output: z.object({
    diagnostics: z.array(
      z.object({
        path: z.string(),
        range: CodeRange,
        severity: Severity,
        message: z.string(),
        source: z.string().optional(),
        code: z.union([z.string(), z.number()]).optional(),
        lineText: z.string(),
      }),
    ),
    counts: z.object({ error: z.number().int(), warning: z.number().int(), info: z.number().int(), hint: z.number().int() }),
    filesChecked: z.number().int(),
    truncated: z.boolean().describe('Some diagnostics (over limit) or files (over the cap) were left out'),
    notice: Notice,
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const symbolsSearch = defineTool({
  name: 'openspace.symbols.search',
  title: 'Go to Symbol in Workspace',
  description:
    'Find functions, classes, methods, interfaces, variables … by name across the workspace (the language server’s workspace symbols; ' +
    'fuzzy, exact names first). Prefer it to grepping for a definition. kind narrows it, e.g. "class" or "function".',
  input: z.strictObject({ query: z.string().min(1).max(500), kind: SymbolKind.optional(), limit: Limit(50) }),
  output: z.object({
    symbols: z.array(z.object({ name: z.string(), kind: SymbolKind, containerName: z.string().optional() }).extend(CodeLocation.shape)),
    truncated: z.boolean(),
    notice: Notice,
  }),
  budget: 'complex',
  effect: 'read-only',
});

export interface OutlineSymbol {
  name: string;
  kind: SymbolKind;
  detail?: string;
  range: CodeRange;
  children?: OutlineSymbol[];
}
const OutlineSymbol: z.ZodType<OutlineSymbol> = z.lazy(() =>
  z.object({
    name: z.string(),
    kind: SymbolKind,
    detail: z.string().optional(),
    range: CodeRange,
    children: z.array(OutlineSymbol).optional(),
  }),
);

export const symbolsOutline = defineTool({
  name: 'openspace.symbols.outline',
  title: 'Outline',
  description: "A file's symbols, nested (a class's methods are its children), with their ranges: the outline the person's IDE shows.",
  input: z.strictObject({ path: WorkspacePath }),
  output: z.object({ path: z.string(), symbols: z.array(OutlineSymbol), truncated: z.boolean(), notice: Notice }),
  ...TargetEffects,
});

export const codeDefinition = defineTool({
  name: 'openspace.code.definition',
  title: 'Go to Definition',
  description:
    'Where a symbol is defined, from a use of it (path, line, column) or by name (symbol). Answers each definition’s path, range and line text; ' +
    'definitions outside the workspace (e.g. the standard library) are counted, not shown.',
  input: Target.superRefine(requireTarget),
  output: z.object({ definitions: z.array(CodeLocation), outsideWorkspace: z.number().int(), symbol: Resolved, notice: Notice }),
  ...TargetEffects,
});

export const codeReferences = defineTool({
  name: 'openspace.code.references',
  title: 'Find All References',
  description:
    'Every use of a symbol across the workspace, from a position or by name (symbol), with each hit’s path, range and line text. ' +
    'includeDeclaration (default true) counts the declaration itself.',
  input: Target.extend({ includeDeclaration: z.boolean().optional(), limit: Limit(200) }).superRefine(requireTarget),
  output: z.object({
    references: z.array(CodeLocation),
    total: z.number().int().describe('All references found in the workspace, also those over limit'),
    truncated: z.boolean(),
    outsideWorkspace: z.number().int(),
    symbol: Resolved,
    notice: Notice,
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const codeHover = defineTool({
  name: 'openspace.code.hover',
  title: 'Show Hover',
  description: 'The type and documentation of a symbol, as the editor’s hover shows them (markdown), from a position or by name (symbol).',
  input: Target.superRefine(requireTarget),
  output: z.object({
    contents: z.string().describe('Markdown; empty when the server has nothing to say at the position'),
    range: CodeRange.optional(),
    symbol: Resolved,
    notice: Notice,
  }),
  ...TargetEffects,
});

export default [diagnosticsList, symbolsSearch, symbolsOutline, codeDefinition, codeReferences, codeHover];
