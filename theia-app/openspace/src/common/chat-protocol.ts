/**
 * The chat panel's RPC between the browser and Theia's backend, which talks to an OpenCode server
 * (`opencode serve`) through @opencode-ai/sdk (TECHSPEC §3.1, §14). OpenCode's own types travel as
 * they are: the panel renders what OpenCode says, not a copy of it.
 */
import type { Event, Message, Part, PermissionRequest, QuestionRequest, Session, SessionStatus } from '@opencode-ai/sdk/v2';

export type {
  AssistantMessage,
  Event,
  Message,
  Part,
  PermissionRequest,
  QuestionRequest,
  ReasoningPart,
  Session,
  SessionStatus,
  TextPart,
  ToolPart,
  UserMessage,
} from '@opencode-ai/sdk/v2';

export const CHAT_PATH = '/services/openspace/chat';

/** A message with its parts, as OpenCode lists them. */
export interface MessageEntry {
  info: Message;
  parts: Part[];
}

/**
 * Where the connection to OpenCode stands. `failed` carries what the person reads in the panel (a
 * missing binary, a crash, a refused URL) and the panel offers Retry.
 */
export type ChatConnection =
  | { state: 'stopped' }
  | { state: 'starting'; url?: string }
  | { state: 'connected'; url: string; version?: string; started: boolean; can?: ChatAbilities }
  | { state: 'reconnecting'; url: string; message: string }
  | { state: 'failed'; message: string };

/**
 * What the panel offers with the agent it talks to, so that it shows no button that can only fail:
 * OpenCode does all of it (no `can`); an ACP agent what its capabilities say (a fork of a whole
 * session, `session/fork`; deleting a session, `session/delete`), and neither revert nor compact.
 */
export interface ChatAbilities {
  revert: boolean;
  compact: boolean;
  /** From any message, or only the whole session. */
  fork: 'message' | 'session' | false;
  deleteSession: boolean;
}

export const OPENCODE_ABILITIES: ChatAbilities = { revert: true, compact: true, fork: 'message', deleteSession: true };

/** One event from OpenCode's stream, numbered by the backend so a frontend can ask for what it missed. */
export interface SequencedEvent {
  seq: number;
  event: Event;
}

/**
 * What a frontend missed since `seq`: the events, or `complete: false` when some are gone from the
 * backend's buffer (or the stream to OpenCode dropped in between) and the frontend must load afresh.
 */
export interface Replay {
  events: SequencedEvent[];
  seq: number;
  complete: boolean;
}

/** A model as the picker offers it: OpenCode's provider and model IDs. */
export interface ModelChoice {
  providerID: string;
  modelID: string;
  name: string;
  providerName: string;
}

/** One of OpenCode's primary agents (build, plan, the person's own), or an ACP agent's mode (its ID as name), as the picker offers it. */
export interface AgentChoice {
  name: string;
  /** What the picker shows, when not the name. */
  label?: string;
  description?: string;
}

export interface ModelCatalog {
  models: ModelChoice[];
  /** OpenCode's default model, if it has one. */
  default?: { providerID: string; modelID: string };
}

/** An agent the panel can run over the Agent Client Protocol (the setting openspace.chat.agents). */
export interface AcpAgentSetting {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/**
 * A file an ACP agent's tool call changed (kept in the call's `state.metadata.changes`): its
 * workspace path and its text before the call (null: it did not exist), for "Review changes".
 */
export interface FileChange {
  path: string;
  before: string | null;
}

/**
 * A file a turn changed, as "Review changes" takes it: its text before (an ACP agent's calls), or
 * the unified diffs of OpenCode's edits to it in order (its edit tool's `metadata.filediff.patch`),
 * which the review undoes on the file as it is to find its text before.
 */
export type TurnChange = FileChange | { path: string; patches: string[] };

/** An image the person pasted into the prompt, as a data URL (`data:image/png;base64,…`). */
export interface PromptImage {
  name: string;
  mime: string;
  dataUrl: string;
}

/** An ACP session's usage as its agent last said it (`usage_update`), kept in `metadata.usage`. */
export interface AcpUsage {
  /** Tokens of the model's context in use, of `size`. */
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/** A slash command an ACP agent offers (kept in its session's `metadata.commands`); the person sends `/name input` as text. */
export interface ChatCommand {
  name: string;
  description: string;
  /** What to type after the name, when it takes input. */
  hint?: string;
}

/** The agent the panel talks to: OpenCode (through its own server and SDK), or one over ACP. */
export const OPENCODE_AGENT = 'OpenCode';

/** An agent the person can pick: its name, what runs it, and whether it was found here. */
export interface ChatAgentChoice {
  name: string;
  /** The command line, or for OpenCode its server. */
  detail: string;
  protocol: 'opencode' | 'acp';
}

/**
 * The person's settings the backend needs: a running OpenCode's URL (empty: start one), which
 * opencode to start, the ACP agents they set, and the agent the panel talks to (default OpenCode).
 */
export interface ChatSettings {
  serverUrl: string;
  opencodePath: string;
  agents?: AcpAgentSetting[];
  agent?: string;
}

export type PermissionReply = 'once' | 'always' | 'reject';

/** The result of an operation the person asked for: ok, or what went wrong, in words. */
export type ChatResult<T> = { ok: true; value: T } | { ok: false; message: string; signIn?: TerminalSignIn };

/** A sign-in the person runs in a terminal (an ACP agent's terminal auth method): the agent's command with the method's arguments. */
export interface TerminalSignIn {
  agent: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface ChatBackend {
  /** Where the connection stands; `connect` starts OpenCode (or reaches the configured URL) if it is not up. */
  connection(): Promise<ChatConnection>;
  connect(settings: ChatSettings): Promise<ChatConnection>;
  /** Events after `seq` (0: none yet); the frontend calls this after a reconnect or a reload. */
  replay(seq: number): Promise<Replay>;

  sessions(): Promise<ChatResult<Session[]>>;
  createSession(title?: string): Promise<ChatResult<Session>>;
  deleteSession(sessionID: string): Promise<ChatResult<boolean>>;
  forkSession(sessionID: string, messageID?: string): Promise<ChatResult<Session>>;
  revert(sessionID: string, messageID: string): Promise<ChatResult<Session>>;
  unrevert(sessionID: string): Promise<ChatResult<Session>>;
  abort(sessionID: string): Promise<ChatResult<boolean>>;
  compact(sessionID: string, model: { providerID: string; modelID: string }): Promise<ChatResult<boolean>>;
  messages(sessionID: string): Promise<ChatResult<MessageEntry[]>>;
  statuses(): Promise<ChatResult<Record<string, SessionStatus>>>;
  /** Sends the person's text and pasted images; the answer arrives as events. */
  prompt(
    sessionID: string,
    text: string,
    model?: { providerID: string; modelID: string },
    agent?: string,
    images?: PromptImage[],
  ): Promise<ChatResult<boolean>>;

  models(): Promise<ChatResult<ModelCatalog>>;
  /** OpenCode's primary agents (its modes: build, plan…); none for an ACP agent. */
  agents(): Promise<ChatResult<AgentChoice[]>>;
  /** The agents the panel can talk to: OpenCode, the ACP agents found on PATH and the person's (`settings` as connect takes them). */
  chatAgents(settings: ChatSettings): Promise<ChatAgentChoice[]>;
  permissions(): Promise<ChatResult<PermissionRequest[]>>;
  replyPermission(requestID: string, reply: PermissionReply): Promise<ChatResult<boolean>>;
  /** The questions the agent waits on (its `question` tool), and the person's answer (one per question) or refusal. */
  questions(): Promise<ChatResult<QuestionRequest[]>>;
  answerQuestion(requestID: string, answers: string[][]): Promise<ChatResult<boolean>>;
  dismissQuestion(requestID: string): Promise<ChatResult<boolean>>;
}

export interface ChatClient {
  onEvent(event: SequencedEvent): void;
  onConnection(connection: ChatConnection): void;
}
