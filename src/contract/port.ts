/**
 * The IDE port: what the command implementations need from an IDE. The simulated IDE (sim/)
 * implements it in memory; the Theia extension implements it over ApplicationShell, EditorManager,
 * Monaco and TerminalService. Browser-safe: no Node built-ins here or in anything this imports.
 * It lives beside the catalog so that the commands, the store and both IDEs import it without an
 * arrow running back up.
 *
 * Paths crossing the port are workspace-relative, '/'-separated and already checked by the path
 * guard (WorkspacePort.resolve), so ports never see `..` or absolute paths.
 * Ports signal failures by throwing ToolError with a code from src/contract/result.ts.
 */
import type {
  CallContext,
  ContentType,
  FileInfo,
  LineRange,
  PaneArea,
  PaneInfo,
  PatchOperation,
  SearchMatch,
  SnapshotInfo,
  TerminalInfo,
  VisibleRange,
} from './index.js';

export interface Disposable {
  dispose(): void;
}

export type Listener = () => void;

/** The smallest share of the window, in percent, a resize leaves any pane (both IDEs clamp to it). */
export const MIN_PANE_PERCENT = 5;

/** Where content goes when its placement names no area: terminals to the bottom panel, the rest to the main area. */
export function defaultArea(type: ContentType): PaneArea {
  return type === 'terminal' ? 'bottom' : 'main';
}

/** Where new content goes. Omitted fields mean: the content type's default area, its active pane, no split. */
export interface Placement {
  area?: PaneArea;
  targetPaneId?: string;
  /** 'vertical': a new pane to the right of the target; 'horizontal': a new pane below it. */
  splitDirection?: 'horizontal' | 'vertical';
}

export interface PaneLayout {
  panes: PaneInfo[];
  activePaneId?: string;
  activeContentId?: string;
}

/** PaneService (TECHSPEC §3.3): the layout of the IDE window. */
export interface ShellPort {
  /** Every pane with its tabs and geometry (which an IDE may have to measure). */
  layout(): PaneLayout;
  /** Whether a tab shows this content now; measures nothing. */
  isOpen(contentId: string): boolean;
  /**
   * Show content. If it is already open and no split is asked for, its tab is activated where it is;
   * with a split, it moves to the new pane. Returns the pane that shows it.
   */
  openContent(request: { type: ContentType; contentId: string; title: string } & Placement): Promise<{ paneId: string }>;
  /** Close the tab showing contentId. Throws PANE_NOT_FOUND if no tab shows it. */
  closeContent(contentId: string): Promise<void>;
  /** Close a pane and every tab in it; returns the content IDs closed. Throws PANE_NOT_FOUND. */
  closePane(paneId: string): Promise<string[]>;
  focusPane(paneId: string): Promise<void>;
  /** Activate and focus the tab showing contentId; returns its pane. Throws PANE_NOT_FOUND. */
  focusContent(contentId: string): Promise<{ paneId: string }>;
  /** Resize to percentages of the window; clamps so no pane falls under 5%. Throws PANE_NOT_FOUND. */
  resizePane(paneId: string, size: { width?: number; height?: number }): Promise<void>;
  /** Fires after every layout change: open, close, focus, resize, split, dirty state, title. */
  onLayoutChanged(listener: Listener): Disposable;
}

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

/** What a person did in an editor (an agent's changes fire too; src/commands/events.ts tells them apart). */
export type EditorActivity =
  { kind: 'saved' | 'edited'; path: string } | { kind: 'selection'; path: string; selection: { start: Position; end: Position } };

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

/**
 * Terminals. A port never answers with output itself: it hands every terminal's raw output to
 * `onOutput`, and shared code (src/commands/terminal-output.ts) sanitizes, redacts and keeps it, so
 * no IDE can give an agent output that skipped either.
 */
export interface TerminalPort {
  /** Create a terminal with a caller-chosen ID; `cwd` is workspace-relative ("" = root). */
  create(options: { terminalId: string; title: string; cwd: string; shellPath?: string }): Promise<TerminalInfo>;
  /** Every terminal, the person's too; one whose process exited stays listed (running: false) until closed. */
  list(): TerminalInfo[];
  activeTerminalId(): string | undefined;
  /** Write to the terminal's input as if typed. Throws TERMINAL_EXITED when its process ended. */
  send(terminalId: string, data: string): Promise<void>;
  close(terminalId: string): Promise<void>;
  /**
   * Fires with what a terminal's process printed, exactly as printed (escape sequences, secrets and
   * all), for every terminal from its first output on, whoever created it.
   */
  onOutput(listener: (terminalId: string, data: string) => void): Disposable;
}

export interface FileStat {
  type: 'file' | 'directory' | 'other';
  size: number;
}

export interface SearchOptions {
  query: string;
  path: string;
  includePattern?: string;
  excludePattern?: string;
  isRegex: boolean;
  caseSensitive: boolean;
  maxResults: number;
}

/** Who changes a file and how, for the audit log and the snapshot ring; plain data (it crosses the IDE's RPC). */
export interface WriteOptions {
  /** The agent's call, when an agent writes (see serializableContext); absent when a person does. */
  context?: CallContext;
  /** The tool (or IDE action) that writes, e.g. "openspace.file.write". */
  tool?: string;
}

/** What writeText takes besides who writes. */
export interface WriteTextOptions extends WriteOptions {
  /** Write only if the file is at this version now (checked in the file's write queue), else CONFLICT with currentVersion. */
  baseVersion?: string;
}

/** The workspace's files, with the path guard applied on the side that owns the disk. */
export interface WorkspacePort {
  /** The workspace's absolute path; undefined when the IDE has no folder open. */
  rootPath(): string | undefined;
  /**
   * Check a path an agent gave and return it workspace-relative and normalised ("" is the root).
   * Throws PATH_OUTSIDE_WORKSPACE (also for symlinks leading out) or INVALID_ARGUMENT.
   */
  resolve(path: string): Promise<string>;
  /** Throws FILE_NOT_FOUND. */
  stat(path: string): Promise<FileStat>;
  /** Throws FILE_NOT_FOUND, NOT_A_FILE, BINARY_FILE. `version`: the content hash of the whole file. */
  readText(path: string): Promise<{ text: string; size: number; version: string }>;
  /** Atomic create-or-replace, creating parent directories; kept as a snapshot and audited. */
  writeText(path: string, text: string, options?: WriteTextOptions): Promise<{ bytes: number; created: boolean; version: string }>;
  /**
   * Apply patch operations to the file if it is still at baseVersion (else CONFLICT with
   * currentVersion), atomically; RANGE_INVALID when an operation does not fit the base version.
   */
  patch(
    path: string,
    request: { baseVersion: string; operations: PatchOperation[] },
    options?: WriteOptions,
  ): Promise<{ version: string; bytes: number; totalLines: number }>;
  /** The kept versions of a file, newest first, and its version now (null when it does not exist). */
  snapshots(path: string): Promise<{ currentVersion: string | null; snapshots: SnapshotInfo[] }>;
  /** Write a kept version back; with baseVersion only if the file is at it now (else CONFLICT). Throws SNAPSHOT_NOT_FOUND. */
  restore(
    path: string,
    request: { version: string; baseVersion?: string },
    options?: WriteOptions,
  ): Promise<{ version: string; bytes: number }>;
  /** Throws FILE_NOT_FOUND, NOT_A_DIRECTORY. */
  list(path: string, options: { recursive: boolean; limit: number }): Promise<{ files: FileInfo[]; truncated: boolean }>;
  search(options: SearchOptions): Promise<{ matches: SearchMatch[]; truncated: boolean }>;
  /**
   * Fires with the workspace-relative path and the new text after writeText, patch or restore changed
   * a file, and, where the IDE watches the disk for it, after an edit made outside OpenSpace. On
   * Theia a writeText answers once what its listeners return has settled (an open editor shows the text).
   */
  onFileWritten(listener: (path: string, text: string) => unknown): Disposable;
}

/** An agent's command the person is asked about, and the rule "always allow" would remember. */
export interface CommandQuestion {
  /** "Agent wants to run: … — why it asks". */
  message: string;
  /** Program and leading arguments ("npm run build"); absent when no rule would be safe to remember. */
  rule?: string;
}

export type CommandAnswer = 'once' | 'always' | 'deny';

/** What the IDE's person decides about risky agent actions. */
/** What a command in a sandboxed terminal needs beyond the sandbox (src/security/box-check.ts). */
export interface BoxVerdict {
  ask: boolean;
  reasons: { command: string; rule: string; why: string }[];
  /** Workspace paths it writes that the sandbox keeps read-only: refused. */
  readOnly: string[];
  /** Hosts it names that the sandbox does not let through. */
  hosts: string[];
}

export interface SecurityPort {
  /** Whether agents' terminal commands not known to be safe wait for a person's confirmation (default: yes). */
  confirmDangerousCommands(): boolean;
  /**
   * The protected paths as the settings say now (the built-in patterns and the person's): a check that
   * answers the pattern keeping agents from writing a workspace-relative path, or undefined. Terminal
   * commands writing there need a confirmation. Throws, as the file tools fail, when a pattern setting
   * is invalid. Absent: the built-in patterns only.
   */
  protectedPaths?(): (path: string) => string | undefined;
  /**
   * Ask the person whether an agent may run a command ("Agent wants to run: rm -rf build — deletes
   * files recursively"): once, always (commands like `question.rule`, in this workspace; offered only
   * with a rule), or not. No answer in time is a deny. Absent when there is no one at the IDE to ask.
   */
  confirmCommand?(question: CommandQuestion): Promise<CommandAnswer>;
  /**
   * What text typed into this terminal needs beyond its sandbox (src/security/box-check.ts), judged
   * where the workspace is (the files git tracks, the hosts the sandbox lets through); undefined when
   * the terminal's shell is not contained (no sandbox), so every command asks.
   */
  assessInBox?(terminal: TerminalInfo, text: string): Promise<BoxVerdict | undefined>;
  /** Let the terminal sandboxes reach these hosts for a while: the person allowed a command once. */
  grantHosts?(hosts: string[]): Promise<void>;
  /** The rules of the commands the person always allows in this workspace ("npm run build"), from their own settings. */
  allowedCommands?(): readonly string[];
  /** Remember an "always allow" rule for this workspace in the person's own (user) settings. */
  rememberCommand?(rule: string): Promise<void>;
  /**
   * Whether the person lets the agent read the output of a terminal they opened themselves
   * (`personal`), asking them if the IDE can: for that terminal, or for all. Absent: allowed.
   */
  terminalReadConsent?(terminal: TerminalInfo, context: CallContext): Promise<boolean>;
  /**
   * NFR-3.8.2: whether the person allows agents to run commands in this workspace, asking them the
   * first time if the IDE can (a dialog, or `context.ask` at the agent's side). Absent: always allowed.
   */
  agentConsent?(context: CallContext): Promise<boolean>;
}

/** A deck's playback: `playing` advances every intervalMs; `paused` keeps the slide; `stopped` is not playing (stop returns to slide 0). */
export type Playback = 'playing' | 'paused' | 'stopped';

/** What a deck's open view shows. */
export interface DeckView {
  deckPath: string;
  /** The pane whose tab shows the deck. */
  paneId: string;
  /** 0-based. */
  slideIndex: number;
  playback: Playback;
  /** The auto-advance interval of the last play. */
  intervalMs: number;
}

/**
 * The views of `.deck.md` decks (TECHSPEC §5.2). The deck itself is the file: a view renders it
 * from the workspace and renders again when the file changes (WorkspacePort.onFileWritten). While
 * a deck plays, its view advances every intervalMs by itself and stops on the last slide.
 */
export interface PresentationPort {
  /** Open the deck's view (or reveal the open one) at a slide; placement applies when it is not open yet. */
  open(deckPath: string, options: { slideIndex: number; placement?: Placement }): Promise<{ paneId: string }>;
  /** The deck's view, or undefined when no tab shows it. */
  view(deckPath: string): DeckView | undefined;
  views(): DeckView[];
  /** Show a slide of an open deck (the caller checked the index against the deck). */
  navigate(deckPath: string, slideIndex: number): Promise<void>;
  /** Start, pause or stop an open deck's playback; stop also returns to slide 0. */
  setPlayback(deckPath: string, playback: Playback, intervalMs?: number): Promise<void>;
  /** Fires when an open deck shows another slide or its playback changes, whoever changed it. */
  onViewChanged(listener: Listener): Disposable;
}

/** A whiteboard view's camera: the scene point at the centre of the view, and the zoom (1 = 100%). */
export interface Camera {
  x: number;
  y: number;
  zoom: number;
}

/**
 * The views of `.whiteboard.json` boards (TECHSPEC §5.3). The board is the file (an Excalidraw
 * scene): a view shows it, renders again when the file changes, and writes a person's edits to it
 * through the WorkspacePort, so agent and person edit one versioned file.
 */
export interface WhiteboardPort {
  /** Open the board's view (or reveal the open one); placement applies when it is not open yet. */
  open(whiteboardId: string, placement?: Placement): Promise<{ paneId: string }>;
  /** The boards open in a view. */
  openBoards(): string[];
  /** The view's camera, or undefined when no tab shows the board. */
  camera(whiteboardId: string): Camera | undefined;
  /** The size of the view in screen pixels (for fitting), or undefined when not open. */
  viewport(whiteboardId: string): { width: number; height: number } | undefined;
  /** Point the view; it holds while the view is resized, until a person moves it. */
  setCamera(whiteboardId: string, camera: Camera): Promise<void>;
  /**
   * Show these scene bounds whole (see fitCamera in src/models/board-layout.ts), and keep them
   * fitted while the view is resized, until a person moves it.
   */
  fitCamera(whiteboardId: string, bounds: { x: number; y: number; width: number; height: number } | undefined): Promise<void>;
}

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

/** An agent's proposed change to a file, as a review shows it. */
export interface ProposalView {
  proposalId: string;
  path: string;
  title: string;
  /** The file now ('' for a file that does not exist yet) and the file as proposed. */
  original: string;
  proposed: string;
}

/**
 * Where a person reviews proposed edits (src/commands/review.ts keeps the proposals and applies the
 * decisions): a diff view per proposal with Accept and Reject. Theia: its Monaco diff editor.
 */
export interface ReviewPort {
  /** Open (or update and reveal) the diff of a proposal. */
  show(proposal: ProposalView): Promise<void>;
  /** Close a proposal's diff, if open. */
  close(proposalId: string): Promise<void>;
  /** Fires when a person accepts or rejects a proposal in its diff view. */
  onDecision(listener: (proposalId: string, accepted: boolean) => void): Disposable;
  /** Whether the person decides at the agent's side (MCP elicitation) rather than in the IDE; the simulated IDE's case. */
  readonly decidesAtAgent?: boolean;
  /** Without a person to ask: what a proposal's decision is at once (the simulated IDE's setting); undefined waits. */
  readonly autoDecision?: 'accept' | 'reject';
}

export interface IdePort {
  readonly shell: ShellPort;
  readonly editors: EditorPort;
  readonly terminals: TerminalPort;
  readonly workspace: WorkspacePort;
  readonly presentations: PresentationPort;
  readonly whiteboards: WhiteboardPort;
  readonly code: CodePort;
  readonly review: ReviewPort;
  readonly security?: SecurityPort;
}
