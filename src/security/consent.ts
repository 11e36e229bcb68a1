/**
 * The agent-consent notice (NFR-3.8.2, TECHSPEC §17.8): what a person is told before an agent's first
 * command, and the version under which "Don't show this again" is stored. Shared by the IDEs that ask
 * and by test harnesses that preconfigure consent the way a person's answer stores it.
 */

/** Theia's user-scope preference holding the notice version the person accepted for good ('' = ask). */
export const AGENT_CONSENT_SETTING = 'openspace.security.agentConsent';

/** Bump when the notice says something new (agents may do more): everyone is asked again. */
export const CONSENT_VERSION = '2';

/** The notice, naming the agent when its MCP client gave a name. */
export function consentNotice(clientName: string | undefined): { title: string; lines: string[] } {
  const agent = clientName ? `The AI agent "${clientName}"` : 'An AI agent';
  return {
    title: 'OpenSpace: allow an AI agent to control this IDE?',
    lines: [
      `${agent} wants to control your IDE. If you allow it, agents connected to OpenSpace can:`,
      '• open, read and edit files in this workspace, and propose edits for you to accept or reject',
      '• create terminals and run commands in them (reading the output of terminals you opened yourself needs your permission, asked per terminal)',
      '• see what you have open and select, and what you open, save and edit',
      '• arrange panes and layouts, highlight code',
      'Commands are validated and sandboxed to your workspace: sensitive files (.env, keys, credentials) ' +
        'stay unreadable, and dangerous terminal commands wait for your confirmation.',
    ],
  };
}

/** The notice as one message, for an agent's MCP client to show its person (elicitation). */
export function consentMessage(clientName: string | undefined): string {
  const notice = consentNotice(clientName);
  return [notice.title, ...notice.lines].join('\n');
}

/**
 * Ask once, share the answer: agent calls that arrive while the question is open wait for the same
 * answer; a yes holds for as long as the gate lives (a window, a simulated IDE), a no asks again on
 * the next call.
 */
export class ConsentGate<Context> {
  private pending: Promise<boolean> | undefined;

  constructor(
    /** Ask the person; true for Allow. */
    private readonly ask: (context: Context) => Promise<boolean>,
    private allowed = false,
  ) {}

  /** Whether a yes holds: no question needed. */
  get granted(): boolean {
    return this.allowed;
  }

  check(context: Context): Promise<boolean> {
    if (this.allowed) return Promise.resolve(true);
    this.pending ??= this.ask(context)
      .then((allowed) => (this.allowed = allowed))
      .finally(() => (this.pending = undefined));
    return this.pending;
  }
}
