import { failure } from '../src/contract/index.js';
import { COMMANDS, runCommand, type CommandResult } from '../src/commands/index.js';
import type { Disposable, IdePort } from '../src/commands/port.js';
import type { CommandBridge } from '../src/hub/bridge.js';

export interface CommandInfo {
  id: string;
  label: string;
}

interface Registered extends CommandInfo {
  execute(args: unknown): Promise<CommandResult>;
}

/**
 * The simulated IDE's command registry, the counterpart of Theia's CommandRegistry: the command
 * palette and the agent (through the bridge) run the same registered commands.
 */
export class SimCommandRegistry {
  private readonly commands = new Map<string, Registered>();

  registerCommand(command: CommandInfo, handler: { execute(args: unknown): Promise<CommandResult> }): Disposable {
    if (this.commands.has(command.id)) throw new Error(`Command ${command.id} is already registered`);
    this.commands.set(command.id, { ...command, execute: handler.execute });
    return { dispose: () => this.commands.delete(command.id) };
  }

  /** What the command palette lists. */
  getCommands(): CommandInfo[] {
    return [...this.commands.values()].map(({ id, label }) => ({ id, label }));
  }

  async executeCommand(id: string, args?: unknown): Promise<CommandResult> {
    const command = this.commands.get(id);
    if (!command) return failure('UNKNOWN_TOOL', `No command "${id}" is registered in the IDE.`);
    return command.execute(args);
  }
}

/** Register every openspace.* command against an IDE port, labelled for the palette. */
export function registerOpenSpaceCommands(registry: SimCommandRegistry, ide: IdePort): void {
  for (const command of COMMANDS.values()) {
    registry.registerCommand(
      { id: command.tool.name, label: `OpenSpace: ${command.tool.title}` },
      { execute: (args) => runCommand(command, ide, args) },
    );
  }
}

/** The in-process CommandBridge: hub requests become executeCommand calls on the registry. */
export function registryBridge(registry: SimCommandRegistry): CommandBridge {
  return { execute: (commandId, args) => registry.executeCommand(commandId, args) };
}
