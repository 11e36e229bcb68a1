import type { z } from 'zod';
import {
  failure,
  parseArguments,
  toFailure,
  type CallContext,
  type ToolResult,
  type ToolArgs,
  type ToolDefinition,
} from '../contract/index.js';
import type { FullIde, IdePort, NodeIde } from '../families/index.js';
import { ideEvents, type IdeEvents } from './event-log.js';

/**
 * A command implementation: the tool it implements and what it does, written once against the IDE
 * port (`P`: all of it, or for a command that runs beside the files, the part NodeIde names).
 */
export interface Command<T extends ToolDefinition = ToolDefinition, P extends IdePort | NodeIde = IdePort> {
  tool: T;
  /** `context` is present when an agent calls (through the hub), absent when a person runs the command. */
  run: (ide: P, args: ToolArgs<T>, context?: CallContext) => Promise<z.output<T['output']>>;
}

/**
 * A command that runs beside the files (on Theia, in the backend next to the hub): its work is in
 * Node (the files, the language servers, git, the test runners), so it may use only what NodeIde
 * offers. Any other command runs in the window.
 */
export interface NodeCommand<T extends ToolDefinition = ToolDefinition> extends Command<T, NodeIde> {
  side: 'node';
}

export function defineCommand<T extends ToolDefinition>(
  tool: T,
  run: (ide: IdePort, args: ToolArgs<T>, context?: CallContext) => Promise<z.output<T['output']>>,
): Command<T> {
  return { tool, run };
}

/** A command that runs beside the files: the compiler holds it to NodeIde. */
export function defineNodeCommand<T extends ToolDefinition>(
  tool: T,
  run: (ide: NodeIde, args: ToolArgs<T>, context?: CallContext) => Promise<z.output<T['output']>>,
): NodeCommand<T> {
  return { tool, run, side: 'node' };
}

/** Where what an agent's call does is told: the IDE's event log, or, beside the files, the window that keeps it. */
export type AgentCallEvents = Pick<IdeEvents, 'duringAgentCall' | 'agentCallFailed'>;

/**
 * Run a command the way every caller does (the hub through a bridge, the command palette, a test):
 * arguments checked against the tool's schema, an agent's call (one with a context) only after the
 * person consented, every failure turned into a structured result.
 */
/** A window command on its IDE; on the simulated IDE (a FullIde) any command. */
export function runCommand(command: Command, ide: IdePort, args: unknown, context?: CallContext): Promise<ToolResult>;
export function runCommand(command: Command | NodeCommand, ide: FullIde, args: unknown, context?: CallContext): Promise<ToolResult>;
export function runCommand(command: Command | NodeCommand, ide: IdePort, args: unknown, context?: CallContext): Promise<ToolResult> {
  return runWith(command as Command<ToolDefinition, IdePort>, ide, args, context, () => ideEvents(ide));
}

/**
 * The same for a command that runs beside the files, on an IDE port made there
 * (Theia's backend): `events` is where its agent calls are told (the window's event log).
 */
export function runNodeCommand(
  command: NodeCommand,
  ide: NodeIde,
  args: unknown,
  context: CallContext | undefined,
  events: AgentCallEvents,
): Promise<ToolResult> {
  return runWith(command, ide, args, context, () => events);
}

async function runWith<P extends IdePort | NodeIde>(
  command: Command<ToolDefinition, P>,
  ide: P,
  args: unknown,
  context: CallContext | undefined,
  eventsOf: () => AgentCallEvents,
): Promise<ToolResult> {
  const parsed = parseArguments(command.tool, args);
  if (!parsed.ok) return parsed.failure;
  if (!context) return runChecked(command, ide, parsed.args);
  const events = eventsOf();
  // A call that only reads leaves the layout alone: what changes meanwhile is the person's (an agent
  // polling events.query must not hide the file they open).
  const run = () => runChecked(command, ide, parsed.args, context);
  const result = await (command.tool.effect === 'read-only' ? run() : events.duringAgentCall(run));
  if (!result.success && !context.cleanup) events.agentCallFailed(command.tool.name, result.code);
  return result;
}

async function runChecked<P extends IdePort | NodeIde>(
  command: Command<ToolDefinition, P>,
  ide: P,
  args: unknown,
  context?: CallContext,
): Promise<ToolResult> {
  try {
    if (context && ide.security?.agentConsent && !(await ide.security.agentConsent(context))) {
      return failure(
        'CONSENT_REQUIRED',
        'The person has not allowed AI agents to run commands in this workspace; nothing was done. ' +
          'Ask them to allow it (the IDE asks on the first agent command), then retry.',
      );
    }
    const result = await command.run(ide, args as never, context);
    return { success: true, ...result };
  } catch (err) {
    return toFailure(err);
  }
}
