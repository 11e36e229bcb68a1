import type { Disposable } from '../../contract/port.js';
import type { LineRange, VisibleRange } from '../../contract/index.js';
import type { Placement } from '../pane/port.js';

export interface Position {
  line: number;
  column: number;
}

export interface EditorState {
  path: string;
  editorId: string;
  paneId: string;
  lineCount: number;
  cursor: Position;
  selection: { start: Position; end: Position };
  visibleRange: VisibleRange;
  isDirty: boolean;
}

export interface Highlight {
  highlightId: string;
  path: string;
  ranges: LineRange[];
  color: string;
}

/** A change to a buffer's text: `text` replaces start..end (editor positions, 1-based; end exclusive column). */
export interface TextEdit {
  start: Position;
  end: Position;
  text: string;
}

/** What a person did in an editor (an agent's changes fire too; src/commands/event-log.ts tells them apart). */
export type EditorActivity =
  | { kind: 'saved' | 'edited'; path: string }
  | { kind: 'selection'; path: string; selection: { start: Position; end: Position } };

export interface EditorPort {
  /**
   * Open (or reveal) the editor for an existing file. With `selection`, put the cursor at its start,
   * select it and centre its start line. Placement applies when the editor is not yet open, or when
   * a split is asked for.
   */
  open(path: string, options: { placement?: Placement; selection?: { start: Position; end: Position } }): Promise<EditorState>;
  /**
   * Open (or reveal) the editor for an existing file, as `open` without a selection, and answer with
   * the pane that shows it: the IDE may create, show and focus the editor after the command has
   * answered, before the next command runs (for callers that need no view state from it).
   */
  show(path: string, placement: Placement): Promise<{ paneId: string }>;
  get(path: string): EditorState | undefined;
  list(): EditorState[];
  /** The path of the current editor: the one focused last, even while focus is elsewhere. */
  current(): string | undefined;
  /** Close the editor; the caller has checked for unsaved changes. Removes its highlights. */
  close(path: string): Promise<void>;
  /** Centre a line and put the cursor there. */
  reveal(path: string, position: Position): Promise<EditorState>;
  /** The editor's buffer, unsaved changes included; undefined when the file is not open. */
  text(path: string): string | undefined;
  /** Throw away the buffer's unsaved changes: it shows the file on disk again. Nothing when the file is not open. */
  discard(path: string): Promise<void>;
  /** Apply an edit to the open editor's buffer as one step Ctrl+Z undoes; it stays unsaved. */
  applyEdit(path: string, edit: TextEdit): Promise<void>;
  /** Fires when a buffer is saved, its text changes, or its selection (or cursor) moves. */
  onActivity(listener: (activity: EditorActivity) => void): Disposable;
  /** Create or replace highlight `highlightId` (it may have been on another file before). */
  setHighlight(highlight: Highlight): Promise<void>;
  removeHighlight(highlightId: string): Promise<void>;
  highlights(): Highlight[];
}

/** One file of an agent's proposal, as a review shows it: a diff with a choice above each hunk. */
export interface ProposalView {
  proposalId: string;
  path: string;
  title: string;
  /** This file's place in the proposal: file `file` of `files`. */
  file: number;
  files: number;
  /** The file now ('' for a file that does not exist yet); of a change already made, the file before it. */
  original: string;
  /** A change already made (the file on disk is `proposed`): Reject puts back what `original` had. */
  applied?: boolean;
  /** The file as the proposal leaves it with the decisions so far: a rejected hunk is taken out. */
  proposed: string;
  /** The hunks shown: where each starts in `proposed` (1-based; a hunk that only removes lines: the line after them) and what was decided. */
  hunks: { hunk: number; line: number; added: number; removed: number; decision: 'accepted' | 'pending' }[];
}

/** A person's decision: one hunk of one file, the undecided hunks of one file (no hunk), or of the whole proposal (no path). */
export interface ReviewDecision {
  proposalId: string;
  path?: string;
  hunk?: number;
  accepted: boolean;
}

/**
 * Where a person reviews proposed edits (src/families/editor/review.ts keeps the proposals and applies the
 * decisions): a diff view per file with Accept and Reject for each hunk and for the whole. Theia: its Monaco diff editor.
 */
export interface ReviewPort {
  /** Open (or update and reveal) the diff of a proposal's file. */
  show(file: ProposalView): Promise<void>;
  /** Close a proposal's diff of `path`, if open. */
  close(proposalId: string, path: string): Promise<void>;
  /** Fires when a person accepts or rejects in a diff view. */
  onDecision(listener: (decision: ReviewDecision) => void): Disposable;
  /** Whether the person decides at the agent's side (MCP elicitation) rather than in the IDE; the simulated IDE's case. */
  readonly decidesAtAgent?: boolean;
  /** Without a person to ask: what a proposal's decision is at once (the simulated IDE's setting); undefined waits. */
  readonly autoDecision?: 'accept' | 'reject';
}
