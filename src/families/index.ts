/**
 * The registration list: every family the IDE serves, in the order tools/list shows them. A family is
 * a folder (src/families/<family>/: its tools, commands, port, phrases and preferences; see
 * docs/architecture.md, "Adding a family"); adding one edits this file only, besides what each IDE
 * must implement of a new port.
 */
import type { SecurityPort } from '../contract/port.js';
import type { IdeState } from '../commands/ide-state.js';
import { toolsEnableTool, type ToolDefinition } from '../contract/index.js';
import type { Command, NodeCommand } from '../commands/command.js';
import type { Describe } from './phrases.js';
import pane, { type ShellPort } from './pane/index.js';
import editor, { type EditorPort, type ReviewPort } from './editor/index.js';
import terminal, { type TerminalPort } from './terminal/index.js';
import file, { type WorkspacePort } from './file/index.js';
import presentation, { type PresentationPort } from './presentation/index.js';
import whiteboard, { type WhiteboardPort } from './whiteboard/index.js';
import modality from './modality/index.js';
import code, { type CodePort } from './code/index.js';
import context from './context/index.js';
import events from './events/index.js';
import git, { type GitPort, type SourceControlSummary } from './git/index.js';
import test, { type TestPort } from './test/index.js';
import task from './task/index.js';
import debug, { type DebugPort } from './debug/index.js';

export * from './pane/index.js';
export * from './editor/index.js';
export * from './terminal/index.js';
export * from './file/index.js';
export * from './presentation/index.js';
export * from './whiteboard/index.js';
export * from './modality/index.js';
export * from './code/index.js';
export * from './context/index.js';
export * from './events/index.js';
export * from './git/index.js';
export * from './test/index.js';
export * from './task/index.js';
export * from './debug/index.js';

export const FAMILIES = [
  pane,
  editor,
  terminal,
  file,
  presentation,
  whiteboard,
  modality,
  code,
  context,
  events,
  git,
  test,
  task,
  debug,
] as const;

/**
 * What the commands that run in the window (defineCommand) need from an IDE: each family's port. sim/ and the Theia window implement it.
 */
export interface IdePort {
  readonly shell: ShellPort;
  readonly editors: EditorPort;
  readonly terminals: TerminalPort;
  readonly workspace: WorkspacePort;
  readonly presentations: PresentationPort;
  readonly whiteboards: WhiteboardPort;
  readonly code: CodePort;
  readonly review: ReviewPort;
  readonly debug: DebugPort;
  /** The repository's branch and changed files, for the live state; absent outside a repository. */
  readonly sourceControl?: SourceControlSummary;
  readonly security?: SecurityPort;
  /** What the commands keep for this IDE between calls (src/commands/ide-state.ts). */
  readonly state: IdeState;
}

/**
 * What the commands that run beside the files (defineNodeCommand: files, code intelligence, git,
 * tests, a board's shapes) may use of an IDE. On Theia they run in the backend, next to the hub, the
 * store, the language servers and git, and ask the window only about the editors and views it shows
 * and the person's answers. The simulated IDE is both (a FullIde).
 */
export interface NodeIde {
  readonly workspace: WorkspacePort;
  readonly code: CodePort;
  readonly git: GitPort;
  readonly tests: TestPort;
  readonly editors: NodeEditors;
  /** The files shown in a view of their own (a deck's slides, a board's scene), by workspace path. */
  openViews(): readonly string[];
  readonly security?: Pick<SecurityPort, 'agentConsent' | 'confirmAction'> & Partial<Pick<SecurityPort, 'confirmDangerousCommands'>>;
}

/** An IDE whose commands all run in one process, window's and Node's alike: the simulated IDE. */
export type FullIde = IdePort & NodeIde;

/**
 * The editors as a command beside the files sees them: which are open, and of one, whether it has
 * unsaved changes, its text, and throwing its changes away. Asked of the window, hence promises.
 */
export interface NodeEditors {
  get(path: string): { isDirty: boolean } | undefined | Promise<{ isDirty: boolean } | undefined>;
  list(): readonly { path: string }[];
  /** The buffer's text, unsaved changes included; undefined when the file is not open (or, beside the files, has none: it is the file). */
  text(path: string): string | undefined | Promise<string | undefined>;
  discard(path: string): Promise<void>;
}

type Tools = (typeof FAMILIES)[number]['tools'];

/** Every tool the hub serves, in the order tools/list shows them. */
export const TOOLS: readonly Tools[number][] = FAMILIES.flatMap<Tools[number]>((f) => f.tools);

/** The name of every tool the IDE serves: a table keyed by it (Record<ToolName, …>) that misses one does not compile. */
export type ToolName = Tools[number]['name'];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/** Each catalog family's one line (a tool name's second part: `symbols` for openspace.symbols.search). */
export const SUMMARIES: Readonly<Record<string, string>> = Object.assign({}, ...FAMILIES.map((f) => f.summaries));

/** openspace.tools.enable: served by the hub itself (src/contract/tools.ts). */
export const TOOLS_ENABLE = toolsEnableTool(TOOLS, SUMMARIES);

const ALL_COMMANDS = FAMILIES.flatMap<Command | NodeCommand>((f) => f.commands);
const runsBesideFiles = (c: Command | NodeCommand): c is NodeCommand => 'side' in c && c.side === 'node';

/** Every command implementation, keyed by its tool (and command) name. */
export const COMMANDS: ReadonlyMap<string, Command | NodeCommand> = new Map(ALL_COMMANDS.map((c) => [c.tool.name, c]));

/** The commands that run in the window (defineCommand), by tool name. */
export const WINDOW_COMMANDS: ReadonlyMap<string, Command> = new Map(
  ALL_COMMANDS.filter((c): c is Command => !runsBesideFiles(c)).map((c) => [c.tool.name, c]),
);

/** The commands that run beside the files (defineNodeCommand; on Theia, in the backend next to the hub), by tool name. */
export const NODE_COMMANDS: ReadonlyMap<string, NodeCommand> = new Map(ALL_COMMANDS.filter(runsBesideFiles).map((c) => [c.tool.name, c]));

/** How a call of each tool (openspace.tools.enable included) reads in the chat. */
export const PHRASES: Readonly<Record<ToolName | (typeof TOOLS_ENABLE)['name'], Describe>> = Object.assign(
  {
    'openspace.tools.enable': (input: Record<string, unknown>) => ({
      verb: 'enable',
      rest: `${Array.isArray(input.families) ? input.families.join(', ') : 'more'} tools`,
    }),
  },
  ...FAMILIES.map((f) => f.phrases),
);

/** The tools to use instead of what an agent would do without them, family by family. */
export const PREFERENCES = FAMILIES.flatMap((f) => f.preferences ?? []);
