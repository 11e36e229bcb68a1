import { z } from 'zod';

/** A workspace-relative path (an absolute path inside the workspace is accepted too). */
export const WorkspacePath = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[^\u0000]*$/, 'must not contain NUL bytes')
  .describe('Workspace-relative path, e.g. "src/index.ts"');

/** 1-based line number. */
export const Line = z.number().int().min(1).max(100_000_000);
/** 1-based column number. */
export const Column = z.number().int().min(1).max(1_000_000);

export const LineRange = z.strictObject({
  startLine: Line,
  endLine: Line,
  startColumn: Column.optional(),
  endColumn: Column.optional(),
});
export type LineRange = z.infer<typeof LineRange>;

/** The lines an editor shows, 1-based, inclusive. */
export const VisibleRange = z.object({ startLine: Line, endLine: Line });
export type VisibleRange = z.infer<typeof VisibleRange>;

export const PaneArea = z.enum(['main', 'left', 'right', 'bottom']);
export type PaneArea = z.infer<typeof PaneArea>;

export const ContentType = z.enum(['editor', 'terminal', 'presentation', 'whiteboard', 'view']);
export type ContentType = z.infer<typeof ContentType>;

/** Percentages of the IDE window, 0–100. */
export const Geometry = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type Geometry = z.infer<typeof Geometry>;

export const TabInfo = z.object({
  contentId: z.string().describe('Workspace path for editors, terminal ID for terminals, view ID otherwise'),
  type: ContentType,
  title: z.string(),
  isDirty: z.boolean(),
  pinned: z.boolean().optional().describe('A person pinned the tab: it stays open when the agent session that opened it ends'),
  status: z.string().optional().describe("What a view says of itself: the chat panel's connection, session and whether it is busy"),
});
export type TabInfo = z.infer<typeof TabInfo>;

export const PaneInfo = z.object({
  id: z.string(),
  area: PaneArea,
  tabs: z.array(TabInfo),
  activeTabIndex: z.number().int().describe('-1 when the pane has no tabs'),
  geometry: Geometry,
});
export type PaneInfo = z.infer<typeof PaneInfo>;

/** What the IDE publishes to the hub on every layout change (throttled). */
export const PaneStateSnapshot = z.object({
  panes: z.array(PaneInfo),
  activePaneId: z.string().optional(),
  activeContentId: z.string().optional(),
  /** The file of the current editor: the one focused last, even while a terminal has focus. */
  activeEditor: z.string().optional(),
  /** The open decks: the slide each shows (from 0) and its playback. */
  presentations: z.array(z.object({ deckPath: z.string(), slideIndex: z.number().int(), playback: z.string() })).optional(),
  /** Errors and warnings the language servers reported in the files checked so far. */
  problems: z.object({ errors: z.number().int(), warnings: z.number().int(), files: z.number().int() }).optional(),
  /** The git repository the workspace is in: its branch (null: detached HEAD) and how many files have changes. */
  git: z.object({ branch: z.string().nullable(), changed: z.number().int() }).optional(),
  /** The debug sessions an agent started: what each debugs and whether it runs, stopped (and why) or exited. */
  debug: z.array(z.object({ sessionId: z.string(), program: z.string(), status: z.string(), reason: z.string().optional() })).optional(),
  /** The seq of the IDE's newest event (openspace.events.query), so the hub can tell subscribers something happened. */
  eventsCursor: z.number().int().optional(),
  timestamp: z.string(),
});
export type PaneStateSnapshot = z.infer<typeof PaneStateSnapshot>;

export const TerminalInfo = z.object({
  terminalId: z.string(),
  title: z.string(),
  cwd: z.string().describe('Workspace-relative working directory at creation ("" is the root)'),
  running: z.boolean(),
  exitCode: z.number().int().optional(),
  sandboxed: z
    .boolean()
    .optional()
    .describe(
      "Whether its shell runs in OpenSpace's sandbox (Linux, bubblewrap): the workspace writable, the rest read-only, a private /tmp, the person's secrets hidden",
    ),
  personal: z
    .literal(true)
    .optional()
    .describe("Set on a terminal the person opened themselves (not through OpenSpace): reading its output needs the person's permission"),
});
export type TerminalInfo = z.infer<typeof TerminalInfo>;

export const FileInfo = z.object({
  path: z.string().describe('Workspace-relative path'),
  name: z.string(),
  type: z.enum(['file', 'directory', 'symlink']),
  size: z.number().int().optional(),
  sensitive: z.literal(true).optional().describe('Set on files agents may not read (keys, credentials, .env)'),
});
export type FileInfo = z.infer<typeof FileInfo>;

export const SearchMatch = z.object({
  path: z.string(),
  line: Line,
  column: Column,
  text: z.string().describe('The matching line, trimmed to 500 characters'),
});
export type SearchMatch = z.infer<typeof SearchMatch>;
