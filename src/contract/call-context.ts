/**
 * Who is calling a command. The hub passes one with every agent call; a person running a command
 * from the palette or a keybinding passes none. It crosses the IDE's RPC channel as plain data
 * (`ask` is dropped there: Theia asks the person with its own dialogs).
 */
export interface CallContext {
  /** The MCP session the call came in on. */
  sessionId: string;
  /** The MCP client's name from `initialize` (e.g. "claude-code"), when it gave one. */
  clientName?: string;
  /**
   * Ask the person at the agent's side a yes/no question (MCP elicitation), when the client
   * supports it: true for an explicit yes, false for a no, undefined when no answer came within
   * timeoutMs (default 25 s) or the person dismissed the question.
   */
  ask?: (message: string, timeoutMs?: number) => Promise<boolean | undefined>;
  /**
   * Ask the person at the agent's side to pick one of `options` (MCP elicitation), when the client
   * supports it: the option picked, or undefined when no answer came within timeoutMs or they
   * dismissed the question.
   */
  choose?: <T extends string>(message: string, options: readonly T[], timeoutMs?: number) => Promise<T | undefined>;
  /**
   * Ask the person at the agent's side yes or no to each of `items` in one form (MCP elicitation), when
   * the client supports it: each key's answer (a no to all when they declined), or undefined when no
   * answer came within timeoutMs or they dismissed the form.
   */
  askEach?: <K extends string>(
    message: string,
    items: readonly { key: K; title: string }[],
    timeoutMs?: number,
  ) => Promise<Record<K, boolean> | undefined>;
  /** Aborted when the agent's client cancels the call (MCP notifications/cancelled); a long call (a test run) stops then. */
  signal?: AbortSignal;
  /** Set on the calls the hub makes itself to clean up after the session ended (audited as such). */
  cleanup?: boolean;
}

/** The part of a CallContext that can cross a process boundary. */
export function serializableContext(context: CallContext | undefined): CallContext | undefined {
  return context && { sessionId: context.sessionId, clientName: context.clientName };
}
