import type { z } from 'zod';
import { parseArguments, toFailure, type Failure, type ToolArgs, type ToolDefinition } from '../contract/index.js';
import type { IdePort } from './port.js';

/** A command implementation: the tool it implements and what it does, written once against the IDE port. */
export interface Command<T extends ToolDefinition = ToolDefinition> {
  tool: T;
  run(ide: IdePort, args: ToolArgs<T>): Promise<z.output<T['output']>>;
}

export function defineCommand<T extends ToolDefinition>(
  tool: T,
  run: (ide: IdePort, args: ToolArgs<T>) => Promise<z.output<T['output']>>,
): Command<T> {
  return { tool, run };
}

export type CommandResult = ({ success: true } & Record<string, unknown>) | Failure;

/**
 * Run a command the way every caller does (the hub through a bridge, the command palette, a test):
 * arguments checked against the tool's schema, every failure turned into a structured result.
 */
export async function runCommand(command: Command, ide: IdePort, args: unknown): Promise<CommandResult> {
  const parsed = parseArguments(command.tool, args);
  if (!parsed.ok) return parsed.failure;
  try {
    const result = await command.run(ide, parsed.args);
    return { success: true, ...result };
  } catch (err) {
    return toFailure(err);
  }
}
