import { failure, type CallContext, type ToolResult } from '../src/contract/index.js';
import { COMMANDS } from '../src/families/index.js';
import { runCommand } from '../src/commands/command.js';
import { ideEvents } from '../src/commands/event-log.js';
import type { GitSummary } from '../src/families/git/summary.js';
import type { Disposable } from '../src/contract/port.js';
import type { FullIde } from '../src/families/index.js';
import type { CommandBridge } from '../src/hub/bridge.js';

export interface CommandInfo {
  id: string;
  label: string;
}

interface Handler {
  execute(args: unknown, context?: CallContext): Promise<ToolResult>;
}

type Registered = CommandInfo & Handler;

/**
 * The simulated IDE's command registry, the counterpart of Theia's CommandRegistry: the command
 * palette and the agent (through the bridge) run the same registered commands.
 */
export class SimCommandRegistry {
  private readonly commands = new Map<string, Registered>();

  registerCommand(command: CommandInfo, handler: Handler): Disposable {
    if (this.commands.has(command.id)) throw new Error(`Command ${command.id} is already registered`);
    this.commands.set(command.id, { ...command, execute: handler.execute });
    return { dispose: () => this.commands.delete(command.id) };
  }

  /** What the command palette lists. */
  getCommands(): CommandInfo[] {
    return [...this.commands.values()].map(({ id, label }) => ({ id, label }));
  }

  /** `context` is the agent's (through the bridge); a person's palette call passes none. */
  async executeCommand(id: string, args?: unknown, context?: CallContext): Promise<ToolResult> {
    const command = this.commands.get(id);
    if (!command) return failure('UNKNOWN_TOOL', `No command "${id}" is registered in the IDE.`);
    return command.execute(args, context);
  }
}

/** Register every openspace.* command against an IDE port, labelled for the palette. */
export function registerOpenSpaceCommands(registry: SimCommandRegistry, ide: FullIde): void {
  for (const command of COMMANDS.values()) {
    registry.registerCommand(
      { id: command.tool.name, label: `OpenSpace: ${command.tool.title}` },
      {
        execute: async (args, context) => {
          const result = await runCommand(command, ide, args, context);
          if (!context) ideEvents(ide).personRan(command.tool, args, result.success);
          // What a command changed in the repository shows in the live state (read at most once a second).
          if (command.tool.effect !== 'read-only') (ide.sourceControl as GitSummary | undefined)?.nudge();
          return result;
        },
      },
    );
  }
}

/** The in-process CommandBridge: hub requests become executeCommand calls on the registry. */
export function registryBridge(registry: SimCommandRegistry): CommandBridge {
  return { execute: (commandId, args, context) => registry.executeCommand(commandId, args, context) };
}
