import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import { claudeServer, opencodeServer, SERVER_NAME } from './agent-files.js';

/** How to start an agent CLI, or why it cannot start. */
export type AgentLaunch =
  | { ok: true; shellPath: string; shellArgs: string[]; env: Record<string, string> }
  | { ok: false; message: string };

/** The hub the agent pane's CLI is to drive. */
export interface PaneHub {
  mcpUrl: string;
  /** Undefined when the hub runs without access control. */
  token: string | undefined;
}

/** The executable `command` names: a path, or the first match on PATH. */
export function findExecutable(command: string, path = process.env.PATH ?? '', cwd = process.cwd()): string | undefined {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : join(cwd, command)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * How the agent pane starts the person's agent CLI so that it drives this IDE at once: the hub's
 * URL and token in OPENSPACE_MCP_URL and OPENSPACE_TOKEN for any CLI, and for the CLIs we know
 * their own MCP config, naming the token by that variable (the same entries `openspace init`
 * writes): OpenCode's OPENCODE_CONFIG_CONTENT, Claude Code's --mcp-config. The token stays in the
 * process's environment, out of files and command lines.
 */
export function agentLaunch(command: string, args: string[], hub: PaneHub, path?: string, cwd?: string): AgentLaunch {
  const name = command.trim();
  if (name === '')
    return { ok: false, message: 'No agent CLI is set: choose one in the setting openspace.agent.command (e.g. opencode or claude).' };
  const shellPath = findExecutable(name, path, cwd);
  if (!shellPath) {
    return {
      ok: false,
      message: `The agent CLI "${name}" was not found${name.includes('/') ? '' : ' on PATH'}. Install it, or choose another in the setting openspace.agent.command.`,
    };
  }
  const http = { kind: 'http' as const, mcpUrl: hub.mcpUrl };
  const env: Record<string, string> = { OPENSPACE_MCP_URL: hub.mcpUrl, ...(hub.token !== undefined && { OPENSPACE_TOKEN: hub.token }) };
  const withoutAuth = <T extends Record<string, unknown>>(server: T) =>
    hub.token === undefined ? { ...server, headers: undefined } : server;
  const cli = basename(shellPath);
  if (cli === 'opencode') {
    env.OPENCODE_CONFIG_CONTENT = JSON.stringify({ mcp: { [SERVER_NAME]: withoutAuth(opencodeServer(http)) } });
    return { ok: true, shellPath, shellArgs: args, env };
  }
  if (cli === 'claude') {
    const config = JSON.stringify({ mcpServers: { [SERVER_NAME]: withoutAuth(claudeServer(http)) } });
    return { ok: true, shellPath, shellArgs: ['--mcp-config', config, ...args], env };
  }
  return { ok: true, shellPath, shellArgs: args, env };
}
