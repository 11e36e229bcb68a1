import { ToolError, type CallContext } from '../contract/index.js';
import type { SecurityPort } from '../contract/port.js';

/**
 * Agent-run code (tests, a program under the debugger) runs in the agent sandbox as a terminal
 * command does; where there is none, an agent's call waits for the person's yes, as every command
 * typed there does. A person's own call (no context) is not asked.
 */
export async function confirmOutsideSandbox(
  security: Partial<Pick<SecurityPort, 'confirmAction' | 'confirmDangerousCommands'>> | undefined,
  sandboxed: boolean,
  context: CallContext | undefined,
  question: { title: string; message: string; accept: string },
): Promise<void> {
  if (sandboxed || !context || security?.confirmDangerousCommands?.() === false) return;
  const answer = security?.confirmAction
    ? await security.confirmAction(question)
    : context.ask
      ? await context.ask(`${question.title} ${question.message}`)
      : undefined;
  if (answer === undefined && !security?.confirmAction && !context.ask)
    throw new ToolError('CONFIRMATION_REQUIRED', `${question.title} A person must confirm it and none can be asked here; nothing ran.`);
  if (answer !== true) throw new ToolError('CONFIRMATION_DENIED', `The person did not allow it: ${question.title} Nothing ran.`);
}
