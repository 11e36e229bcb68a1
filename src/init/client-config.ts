import { claudeServer, opencodeServer, SERVER_NAME } from './agent-files.js';

/**
 * Ready-to-paste client configuration for a hub, printed by `npm start` and `npm run theia`. The
 * configs are the entries `openspace init` writes: they name the token as `OPENSPACE_TOKEN`, which
 * the client expands when it connects, so no config file (`~/.claude.json` is readable by every
 * process of the person) ever holds it; the token is printed only as itself and in an `export` line.
 *
 * Claude Code expands `${VAR}` in the headers of servers `claude mcp add` stores in `~/.claude.json`
 * (local and user scope) as it does in `.mcp.json`: with Claude Code 2.1.331 (ci/agents) the stored
 * header stayed `Bearer ${OPENSPACE_TOKEN}` and `claude mcp list` sent the variable's value (unset,
 * it warns "Missing environment variables: OPENSPACE_TOKEN"). The single quotes keep the person's
 * shell from expanding it first. OpenCode expands `{env:VAR}` anywhere in its config.
 */
export function clientConfig(mcpUrl: string, instructionsUrl: string, token?: string): string {
  const hub = { kind: 'http', mcpUrl } as const;
  const withoutAuth = <T extends Record<string, unknown>>(server: T) => (token === undefined ? { ...server, headers: undefined } : server);
  const claude = withoutAuth(claudeServer(hub));
  const mcpJson = { mcpServers: { [SERVER_NAME]: claude } };
  const opencodeJson = {
    $schema: 'https://opencode.ai/config.json',
    // No instructions URL: OpenCode takes the hub's instructions from MCP's initialize, and would put
    // the URL, token and all, into the system prompt it sends the model's provider.
    mcp: { [SERVER_NAME]: withoutAuth(opencodeServer(hub)) },
  };
  const headers = Object.entries((claude.headers ?? {}) as Record<string, string>)
    .map(([name, value]) => ` --header '${name}: ${value}'`)
    .join('');
  return [
    `  MCP endpoint:  ${mcpUrl}`,
    `  Instructions:  ${instructionsUrl}`,
    token === undefined ? '  Access token:  none (--no-auth: any local process may call this hub)' : `  Access token:  ${token}`,
    ...(token === undefined
      ? []
      : [
          '',
          'The configs below read the token from OPENSPACE_TOKEN instead of storing it: start Claude Code or',
          'OpenCode from a shell where it is set (after a restart the hub has a new token, unless it was started',
          'with OPENSPACE_TOKEN set too):',
          `  export OPENSPACE_TOKEN=${shellWord(token)}`,
        ]),
    '',
    token === undefined ? 'Claude Code:' : 'Claude Code (stores ${OPENSPACE_TOKEN} in ~/.claude.json, not the token):',
    `  claude mcp add --transport http ${SERVER_NAME} ${mcpUrl}${headers}`,
    '',
    '.mcp.json (project-scoped MCP servers):',
    JSON.stringify(mcpJson, null, 2),
    '',
    'opencode.json:',
    JSON.stringify(opencodeJson, null, 2),
  ].join('\n');
}

/** A generated token as it is; one from OPENSPACE_TOKEN may hold characters the shell would read. */
function shellWord(text: string): string {
  return /^[\w.,:/=+@%-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
