import { z } from 'zod';
import { Column, Line, LineRange, VisibleRange, WorkspacePath } from './common.js';
import { defineTool } from './tool.js';

const HighlightId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, 'letters, digits, "_", ".", ":" and "-" only')
  .describe('Your name for the highlight, e.g. "fix-1"');

export const editorOpen = defineTool({
  name: 'openspace.editor.open',
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

export default [editorOpen, editorReadFile, editorClose, editorScrollTo, editorHighlight, editorClearHighlight];
