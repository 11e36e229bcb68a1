/**
 * What every part of the IDE port shares, and the security port. Each family's own port (what its
 * commands need from an IDE) is in its folder (src/families/<family>/port.ts); IdePort, all of them
 * together, is in src/families/index.ts. Browser-safe: no Node built-ins here or in anything this
 * imports.
 *
 * Paths crossing the port are workspace-relative, '/'-separated and already checked by the path
 * guard (WorkspacePort.resolve), so ports never see `..` or absolute paths.
 * Ports signal failures by throwing ToolError with a code from src/contract/result.ts.
 */
import type { CallContext } from './call-context.js';
import type { TerminalInfo } from './common.js';

export interface Disposable {
  dispose(): void;
}

export type Listener = () => void;

/** An agent's command the person is asked about, and the rule "always allow" would remember. */
export interface CommandQuestion {
  /** "Agent wants to run: … — why it asks". */
  message: string;
  /** Program and leading arguments ("npm run build"); absent when no rule would be safe to remember. */
  rule?: string;
}

export type CommandAnswer = 'once' | 'always' | 'deny';

/** An agent's action the person confirms before it happens (a commit, discarding changes). */
export interface ActionQuestion {
  /** "Commit to main?" */
  title: string;
  /** What happens, in a sentence or two. */
  message: string;
  /** What to look at before saying yes (the staged diff, what is lost): plain text, maybe long. */
  detail?: string;
  /** The button that says yes: "Commit", "Discard". */
  accept: string;
}

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
   * Ask the person whether an agent may do this (a commit, discarding changes): yes or no. No answer
   * in time is a no. Absent when there is no one at the IDE to ask.
   */
  confirmAction?(question: ActionQuestion): Promise<boolean>;
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
