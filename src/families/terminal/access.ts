import { ToolError, type CallContext, type TerminalInfo } from '../../contract/index.js';
import type { IdePort } from '../index.js';

/**
 * The person's own terminals (issue 14, inspect document): an agent reads the output of a terminal
 * the person opened themselves only after they allowed it; terminals OpenSpace opened stay
 * readable, and a person running a command from the palette (no context) reads any.
 */
export async function requireReadable(ide: IdePort, terminal: TerminalInfo, context: CallContext | undefined): Promise<void> {
  if (!context || !terminal.personal || !ide.security?.terminalReadConsent) return;
  if (await ide.security.terminalReadConsent(terminal, context)) return;
  throw new ToolError(
    'CONSENT_REQUIRED',
    `Terminal "${terminal.title}" (${terminal.terminalId}) is one the person opened themselves, and they have not allowed agents to read it. ` +
      'Ask them to allow it, or run the command in a terminal of your own (openspace.terminal.create or openspace.terminal.run).',
  );
}
