import type {
  CallContext,
  ErrorCode,
  PaneStateSnapshot,
  ToolResult,
  AgentLaunch,
  ConnectedSession,
  SandboxSettings,
  BoxVerdict,
  ActionQuestion,
  DebugLanguageName,
  DebugLaunch,
  LaunchTarget,
} from '../../../../src/browser.js';

export type { ConnectedSession };

/** RPC path of the CommandBridge: the backend (hub) calls into a frontend window. */
export const BRIDGE_PATH = '/services/openspace/bridge';

/** Implemented by each frontend window: run a command in its CommandRegistry. */
export interface BridgeFrontend {
  /**
   * `context` arrives without `ask` or `signal` (functions do not cross RPC); a call the agent's
   * client may cancel comes with a `callId`, and notifyCancelled(callId) aborts its signal here.
   */
  execute(commandId: string, args: unknown, context?: CallContext, callId?: number): Promise<ToolResult>;
  /** The agent's client cancelled that call (MCP notifications/cancelled): a long command (a task) stops. */
  notifyCancelled(callId: number): Promise<void>;
  /** The agents connected to the hub now (on connecting, and whenever one connects or ends). */
  sessionsChanged(sessions: ConnectedSession[]): Promise<void>;
  /**
   * What a command running beside the files (in the backend) asks of the window: the editor of a
   * file it shows (whether it has unsaved changes), the unsaved text of those that do, throwing an
   * editor's changes away, and showing a file the backend just wrote before the call answers.
   */
  editor(path: string): Promise<{ isDirty: boolean } | undefined>;
  unsavedBuffers(): Promise<Record<string, string>>;
  discard(path: string): Promise<void>;
  fileWritten(path: string, text: string): Promise<void>;
  /** Whether the person lets agents act in this workspace (asking them, as for a call run here). */
  agentConsent(context: CallContext): Promise<boolean>;
  /** Whether the person allows an agent's action (a commit, discarding changes), asked in a dialog. */
  confirmAction(question: ActionQuestion): Promise<boolean>;
  /**
   * An agent's call ran beside the files: the window shows it (status bar, failure notification,
   * event log). A notification (Theia's RPC sends a `notify…` method without waiting for an answer).
   */
  notifyAgentCall(call: BackendCall): Promise<void>;
}

/** An agent's call the backend runs, as the window is told of it: still running after a while, or done. */
export interface BackendCall {
  callId: number;
  tool: string;
  context: CallContext;
  startedAt: number;
  /** Absent while it runs. */
  result?: ToolResult;
  /** Its failure goes in the window's event log (agent.call_failed). */
  logFailure?: boolean;
}

/**
 * What the backend keeps of a window for the commands that run beside the files, published by the
 * window when it changes: the files it shows (in a text editor, with whether it has unsaved changes,
 * or in a deck or board view), the person's file-pattern settings, and whether they consented to
 * agents in this window.
 */
export interface WindowView {
  /** The workspace folder the window has open (absent: none). */
  root?: string;
  editors: { path: string; isDirty: boolean }[];
  views: string[];
  policy: FilePolicySettings;
  consented: boolean;
  /** Whether an agent's risky actions wait for the person's yes (openspace.security.confirmDangerousCommands). */
  confirms: boolean;
  /** The agent sandbox's settings as every scope says now (for test runs), or what is wrong with them. */
  sandbox: Omit<SandboxPlace, 'cwd'> | { problem: string };
  /** openspace.test.runners, when the person set it. */
  testRunners?: string[];
}

/**
 * Implemented by the backend per window connection. The window reaches the hub over this RPC
 * channel rather than HTTP, so it needs no access token.
 */
export interface BridgeBackend {
  /** Make this window the one that serves agent calls (on load and whenever it gets focus). */
  register(): Promise<void>;
  /** The agents connected to the hub now. */
  sessions(): Promise<ConnectedSession[]>;
  /** The window's layout, for the hub's instructions (throttled by the window). */
  publishState(snapshot: PaneStateSnapshot): Promise<void>;
  /** What the commands beside the files need to know of this window; on connecting, and whenever it changes. */
  publishView(view: WindowView): Promise<void>;
  /** Run a command of a family that runs beside the files (the person's palette; the agent's calls come through the hub). */
  run(commandId: string, args: unknown, context?: CallContext): Promise<ToolResult>;
  /** For the source-control view and the editor's change markers: files' staged or committed texts (undefined: none), read together. */
  gitOriginals(wanted: { path: string; ref: 'index' | 'HEAD' }[]): Promise<(string | undefined)[]>;
  /** The person stages one change from the editor's change markers: this text becomes the file's staged text. */
  gitStageText(path: string, text: string): Promise<void>;
  /**
   * The language of a running program an agent attaches the debugger to (its process's executable,
   * or what answers on the port), once something is there; its ToolError's code and message when not.
   */
  debugAttachLanguage(
    target: { pid?: number; port?: number },
    language?: DebugLanguageName,
  ): Promise<{ language: DebugLanguageName } | { code: ErrorCode; message: string }>;
  /**
   * What an agent's debug.start runs (its program, or the command line read beside the files it
   * names: src/families/debug/command-line.ts) in the workspace at `root`; its ToolError's code and
   * message when it cannot run.
   */
  debugLaunchTarget(launch: DebugLaunch, root: string): Promise<LaunchTarget | { code: ErrorCode; message: string }>;
}

/** RPC path of the workspace file service (the path guard runs on the Node side). */
export const FILES_PATH = '/services/openspace/files';

export type FilesMethod = 'resolve' | 'stat' | 'readText' | 'writeText' | 'patch' | 'snapshots' | 'restore' | 'list' | 'search';

export type FilesOutcome = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string; details: Record<string, unknown> };

/**
 * The person's file-policy preferences (openspace.security.sensitiveFilePatterns and
 * protectedFilePatterns), merged by the window from every settings scope; `problems` names invalid
 * entries, which make file calls fail rather than be ignored.
 */
export interface FilePolicySettings {
  sensitivePatterns: string[];
  protectedPatterns: string[];
  problems: string[];
}

export interface FilesBackend {
  /** `policy` absent: the built-in patterns only. */
  call(root: string, method: FilesMethod, args: unknown[], policy?: FilePolicySettings): Promise<FilesOutcome>;
}

/** RPC path of code intelligence: the language servers run on the Node side, beside the files. */
export const CODE_PATH = '/services/openspace/code';

/** The agent tools' methods (CodePort's), and what the person's editors ask besides: the languages and completions. */
export type CodeMethod =
  | 'fileEndings'
  | 'languages'
  | 'diagnostics'
  | 'workspaceSymbols'
  | 'documentSymbols'
  | 'definition'
  | 'references'
  | 'hover'
  | 'completion';

/** A code call's answer, with what the servers want said (a restart) and the problem counts after it. */
export type CodeOutcome = FilesOutcome & { notice?: string; problems: { errors: number; warnings: number; files: number } };

export interface CodeBackend {
  /** `buffers`: the window's open editors and their text, unsaved changes included, for the servers to see. */
  call(root: string, method: CodeMethod, args: unknown[], buffers: Record<string, string>): Promise<CodeOutcome>;
  /** Files that changed on disk (workspace-relative): the servers read again those they have open. */
  filesChanged(root: string, paths: string[]): Promise<void>;
}

/** RPC path of the agent pane's launcher: where the agent CLI is, and the hub's config for it. */
export const AGENT_PANE_PATH = '/services/openspace/agent-pane';

export interface AgentPaneBackend {
  /** `command` as the person set it (a name on PATH or a path), with its extra arguments. */
  launch(command: string, args: string[]): Promise<AgentLaunch>;
}

/** RPC path of the sandbox agent terminals start in (bubblewrap runs on the Node side). */
export const SANDBOX_PATH = '/services/openspace/sandbox';

/** What Theia's terminal runs for a sandboxed shell, or why there is no sandbox here. */
export type SandboxedShell = { shellPath: string; shellArgs: string[] } | { unavailable: string };

/**
 * What a window sends with every sandbox call: its sandbox settings, the person's protected file
 * patterns (read-only inside the sandbox too), and `cwd` relative to the workspace Theia opened.
 */
export interface SandboxPlace {
  cwd: string;
  settings: SandboxSettings;
  protectedPatterns: string[];
}

export interface SandboxBackend {
  /** The shell (`shellPath`, or Theia's default shell) in the sandbox the settings describe, starting in `cwd`. */
  shell(options: SandboxPlace & { shellPath?: string }): Promise<SandboxedShell>;
  /**
   * End the sandbox of a terminal being closed, whose process (`pid`) is its bwrap: everything in
   * that bwrap's session. A hangup alone can miss a sandbox bwrap is still setting up.
   */
  end(pid: number): Promise<void>;
  /** Why bubblewrap cannot make a sandbox on this machine (then agent programs run without one, asking first), or undefined. */
  unavailable(): Promise<string | undefined>;
  /**
   * What `text`, typed at a sandboxed shell, needs beyond the sandbox (src/security/box-check.ts):
   * judged here, beside the files git tracks, in the directory the shell of the terminal's process
   * `pid` is in now (else in `cwd`, where it started).
   */
  assess(options: SandboxPlace & { text: string; pid?: number }): Promise<BoxVerdict>;
  /** The person allowed a command reaching these hosts once: the sandboxes reach them for a while. */
  grantHosts(hosts: string[]): Promise<void>;
}
