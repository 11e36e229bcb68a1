/**
 * What to do when an ACP agent asks for a sign-in (`session/new` answered "auth required"): let it
 * sign in its own way (`authenticate` with its one method: it opens a browser if it must); else,
 * where it has a terminal method, the command the person runs in a terminal (SignInNeeded: the
 * panel offers to run it); else what to do, in words.
 */
import type { AuthMethod, AuthMethodTerminal } from '@agentclientprotocol/sdk';
import type { AcpAgentSetting, TerminalSignIn } from '../../common/chat-protocol.js';

/** The agent needs a sign-in the person runs in a terminal: the command to run. */
export class SignInNeeded extends Error {
  constructor(
    message: string,
    readonly signIn: TerminalSignIn,
  ) {
    super(message);
  }
}

/** The method to `authenticate` with; throws what the person must do where the agent cannot sign in itself. */
export function signInMethod(agent: AcpAgentSetting, methods: AuthMethod[]): string {
  const byAgent = methods.filter((m) => !('type' in m) || m.type !== 'terminal');
  if (methods.length === 1 && byAgent.length === 1) return byAgent[0]!.id;
  const { name, command, args = [], env = {} } = agent;
  const terminal = methods.find((m): m is AuthMethodTerminal & { type: 'terminal' } => 'type' in m && m.type === 'terminal');
  if (terminal) {
    const signIn = { agent: name, command, args: [...args, ...(terminal.args ?? [])], env: { ...env, ...terminal.env } };
    throw new SignInNeeded(`${name} needs you to sign in first (${terminal.name}): run it in a terminal, then send again.`, signIn);
  }
  const ways = methods.map((m) => `${m.name}${m.description ? ` (${m.description})` : ''}`).join('; ');
  throw new Error(`${name} needs you to sign in first${ways ? `: ${ways}` : ''}. Then start a new session.`);
}
