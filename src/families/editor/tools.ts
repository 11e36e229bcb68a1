import { z } from 'zod';
import { Column, Line, LineRange, VisibleRange, WorkspacePath } from '../../contract/common.js';
import { PatchOperation, Version } from '../file/tools.js';
import { defineTool } from '../../contract/tool.js';

const HighlightId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, 'letters, digits, "_", ".", ":" and "-" only')
  .describe('Your name for the highlight, e.g. "fix-1"');

export const editorOpen = defineTool({
  name: 'openspace.editor.open',
  core: true,
  title: 'Open Editor',
  description:
    'Open a file in an editor so the person sees it, optionally at a line (centred, cursor placed there) or selecting a range. ' +
    'Pass highlight:true to also highlight line..endLine. Fails with FILE_NOT_FOUND if the file does not exist.',
  input: z.strictObject({
    path: WorkspacePath,
    line: Line.optional().describe('Line to reveal and put the cursor on'),
    column: Column.optional(),
    endLine: Line.optional().describe('With line: select line..endLine'),
    endColumn: Column.optional(),
    highlight: z.boolean().optional().describe('Highlight the line..endLine range as well'),
    highlightId: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\w.:-]+$/)
      .optional()
      .describe('ID for that highlight'),
  }),
  output: z.object({
    path: z.string(),
    editorId: z.string(),
    paneId: z.string(),
    lineCount: z.number().int(),
    visibleRange: VisibleRange,
    highlightId: z.string().optional(),
  }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: { creates: (r) => (r.highlightId ? [{ kind: 'highlight', id: r.highlightId }] : []) },
});

export const editorReadFile = defineTool({
  name: 'openspace.editor.read_file',
  core: true,
  title: 'Read Editor Content',
  description:
    'Read what an editor holds for a file, including unsaved changes a person typed (falls back to the file on disk when it is not open). ' +
    'Pass startLine/endLine for a slice; content lines are joined with "\\n".',
  input: z.strictObject({
    path: WorkspacePath,
    startLine: Line.optional(),
    endLine: Line.optional(),
  }),
  output: z.object({
    path: z.string(),
    content: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    totalLines: z.number().int(),
    isOpen: z.boolean(),
    isDirty: z.boolean(),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const editorClose = defineTool({
  name: 'openspace.editor.close',
  title: 'Close Editor',
  description:
    'Close the editor showing a file. If a person left unsaved changes in it the call fails with DIRTY_BUFFER unless force:true (which discards them).',
  input: z.strictObject({
    path: WorkspacePath,
    force: z.boolean().optional().describe('Discard unsaved changes'),
  }),
  output: z.object({ path: z.string() }),
  budget: 'simple',
  effect: 'destructive',
  // Its tab goes, and the highlights on it.
  session: { releases: (r) => [{ kind: 'tab', id: r.path }] },
});

export const editorScrollTo = defineTool({
  name: 'openspace.editor.scroll_to',
  title: 'Scroll Editor to Line',
  description: 'Scroll an open editor so a line is centred and put the cursor on it. The file must be open (openspace.editor.open).',
  input: z.strictObject({
    path: WorkspacePath,
    line: Line,
    column: Column.optional(),
  }),
  output: z.object({ path: z.string(), visibleRange: VisibleRange }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export const editorHighlight = defineTool({
  name: 'openspace.editor.highlight',
  title: 'Highlight Code',
  description:
    'Highlight line ranges in an open editor so the person sees what you are talking about. ' +
    'Give it a highlightId to clear or replace it later; several highlights coexist. It stays until cleared or the person presses Escape.',
  input: z.strictObject({
    path: WorkspacePath,
    ranges: z.array(LineRange).min(1).max(100),
    highlightId: HighlightId.optional().describe('Reusing an ID replaces that highlight; omitted, one is generated'),
    color: z
      .string()
      .max(50)
      .regex(/^(#[0-9a-fA-F]{3,8}|[a-zA-Z]+|rgba?\([\d\s.,%]+\))$/, 'a CSS colour: name, #hex or rgb()/rgba()')
      .optional()
      .describe('Background colour; defaults to a translucent green'),
  }),
  output: z.object({ highlightId: z.string(), path: z.string(), ranges: z.array(LineRange) }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: { creates: (r) => [{ kind: 'highlight', id: r.highlightId }] },
});

export const editorClearHighlight = defineTool({
  name: 'openspace.editor.clear_highlight',
  title: 'Clear Highlight',
  description: 'Remove a highlight by highlightId, or every agent highlight in a file by path (pass one or both). Returns the IDs removed.',
  input: z.strictObject({
    highlightId: HighlightId.optional(),
    path: WorkspacePath.optional(),
  }),
  output: z.object({ cleared: z.array(z.string()) }),
  budget: 'simple',
  effect: 'write',
  session: { releases: (r) => r.cleared.map((id) => ({ kind: 'highlight', id })) },
});

/** How long propose_edit waits for the person by default, and at most (the hub's limit for the call grows by as much). */
export const PROPOSAL_WAIT_MS = 20_000;
export const PROPOSAL_WAIT_MAX_MS = 120_000;

const BufferVersion = Version.describe(
  'The version the text in the editor must be at (from file.read while the buffer was saved, or an earlier replace_range); else CONFLICT',
);

export const editorReplaceRange = defineTool({
  name: 'openspace.editor.replace_range',
  title: 'Replace Lines in Editor',
  description:
    'Replace whole lines startLine..endLine of the file as the editor holds it (the live buffer, with unsaved changes) by newText, ' +
    'opening the file if needed. The change is not saved: the person sees it highlighted, can undo it with Ctrl+Z, and saves it. ' +
    'newText "" deletes the lines; to insert before line n without replacing, pass startLine n and endLine n-1. ' +
    'Answers the lines newText now occupies and the buffer version. Prefer openspace.editor.propose_edit when the person should approve first.',
  input: z.strictObject({
    path: WorkspacePath,
    startLine: Line,
    endLine: z.number().int().min(0).max(100_000_000).describe('Last line replaced (inclusive); startLine-1 inserts before startLine'),
    newText: z.string().max(1_000_000).describe('The new lines, "\\n"-separated, without a trailing newline'),
    baseVersion: BufferVersion.optional(),
  }),
  output: z.object({
    path: z.string(),
    startLine: z.number().int().describe('First line of newText now'),
    endLine: z.number().int().describe('Last line of newText now (startLine-1 when newText was "")'),
    lineCount: z.number().int(),
    version: z.string().describe("The buffer's version now; pass as baseVersion to the next replace_range"),
    isDirty: z.boolean(),
  }),
  budget: 'simple',
  effect: 'write',
  // The change is the person's to keep or undo.
  session: {},
});

const ProposalId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/);

const ProposedFile = z.strictObject({
  path: WorkspacePath.describe('The file to change; may be a file that does not exist yet'),
  newText: z.string().max(1_000_000).optional().describe('Its whole new content'),
  operations: z
    .array(PatchOperation)
    .min(1)
    .max(1000)
    .optional()
    .describe('Or patch operations, as openspace.file.patch takes, against the file now'),
});

const HunkAnswer = z.object({
  hunk: z.number().int().describe('1-based, in file order'),
  oldStart: z.number().int(),
  oldLines: z.number().int(),
  newStart: z.number().int(),
  newLines: z.number().int(),
  decision: z.enum(['accepted', 'rejected', 'pending']),
});

const Decision = z.enum(['accepted', 'rejected', 'partial', 'pending']);

const ProposalAnswer = z.object({
  proposalId: z.string(),
  status: Decision,
  path: z.string().optional().describe('With a proposal of one file: that file'),
  version: z.string().optional().describe('With a proposal of one file, once written: the version written'),
  added: z.number().int().describe('Lines added by the proposal, all hunks'),
  removed: z.number().int().describe('Lines removed by the proposal, all hunks'),
  files: z.array(
    z.object({
      path: z.string(),
      status: Decision,
      version: z.string().optional().describe('The version written, when a hunk was accepted'),
      hunks: z.array(HunkAnswer),
    }),
  ),
});

export const editorProposeEdit = defineTool({
  name: 'openspace.editor.propose_edit',
  title: 'Propose Edits for Review',
  description:
    'Show the person a change to one file (path with newText or operations) or a change set across files (edits), as diffs they ' +
    'accept or reject hunk by hunk, or whole, and wait for their decisions. Each file is written (atomically, versioned) once all its hunks are decided, ' +
    "with the accepted hunks only; a rejected hunk leaves its lines as they were. The answer gives each file's hunks with their decision and the " +
    "version written; status 'accepted', 'rejected', 'partial', or 'pending' after timeoutMs " +
    `(default ${PROPOSAL_WAIT_MS / 1000} s, at most ${PROPOSAL_WAIT_MAX_MS / 1000} s, within your MCP client's own limit): the diffs stay open, and calling again with the proposalId ` +
    'asks again (pass new edits with it to revise the proposal). A file that changed before its decision answers CONFLICT, naming what was written.',
  input: z.strictObject({
    path: WorkspacePath.optional().describe('The file to change (a new proposal of one file); may be a file that does not exist yet'),
    newText: z.string().max(1_000_000).optional(),
    operations: z.array(PatchOperation).min(1).max(1000).optional(),
    edits: z.array(ProposedFile).min(1).max(100).optional().describe('A change set: several files, reviewed together (instead of path)'),
    proposalId: ProposalId.optional().describe('An earlier proposal to ask about again (or revise); or your name for a new one'),
    title: z.string().max(200).optional().describe('What the change does, shown above the diff'),
    timeoutMs: z.number().int().min(0).max(PROPOSAL_WAIT_MAX_MS).optional(),
  }),
  output: ProposalAnswer,
  budget: 'simple',
  effect: 'write',
  waitsUpTo: (args) => args.timeoutMs ?? PROPOSAL_WAIT_MS,
  // A pending proposal stays for the person to decide, after the session too.
  session: {},
});

export const searchReplace = defineTool({
  name: 'openspace.search.replace',
  title: 'Search and Replace, Reviewed',
  description:
    'Replace text (or a regular expression with isRegex:true; $1 in the replacement is its first group) in every file it occurs in, ' +
    'with the ignore and sensitive-file rules of openspace.file.search, as a change set the person reviews hunk by hunk like ' +
    "openspace.editor.propose_edit: nothing is written until accepted, and the answer is the same as propose_edit's (ask again with " +
    'propose_edit and the proposalId), with the number of matches. NO_MATCHES when nothing matches.',
  input: z.strictObject({
    query: z.string().min(1).max(1000),
    replacement: z.string().max(100_000).describe('What replaces each match ("" removes it)'),
    isRegex: z.boolean().optional(),
    caseSensitive: z.boolean().optional().describe('Default false'),
    path: WorkspacePath.optional().describe('Directory to replace in; defaults to the root'),
    includePattern: z.string().min(1).max(1000).optional().describe('Glob of files to change, e.g. "**/*.ts"'),
    excludePattern: z.string().min(1).max(1000).optional().describe('Glob of files to leave alone'),
    title: z.string().max(200).optional().describe('What the change does, shown above the diffs'),
    proposalId: ProposalId.optional().describe('Your name for the change set'),
    timeoutMs: z.number().int().min(0).max(PROPOSAL_WAIT_MAX_MS).optional(),
  }),
  output: ProposalAnswer.extend({ matches: z.number().int().describe('Matches replaced in the proposal, all files') }),
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => args.timeoutMs ?? PROPOSAL_WAIT_MS,
  session: {},
});

export default [
  editorOpen,
  editorReadFile,
  editorClose,
  editorScrollTo,
  editorHighlight,
  editorClearHighlight,
  editorReplaceRange,
  editorProposeEdit,
  searchReplace,
];
