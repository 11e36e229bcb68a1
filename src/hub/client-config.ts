/** Ready-to-paste client configuration for a hub, printed by `npm start` and `npm run theia`. */
export function clientConfig(mcpUrl: string, instructionsUrl: string, token?: string): string {
  const headers = token === undefined ? undefined : { Authorization: `Bearer ${token}` };
  const mcpJson = { mcpServers: { openspace: { type: 'http', url: mcpUrl, ...(headers && { headers }) } } };
  const opencodeJson = {
    $schema: 'https://opencode.ai/config.json',
    // No instructions URL: OpenCode takes the hub's instructions from MCP's initialize, and would put
    // the URL, token and all, into the system prompt it sends the model's provider.
    mcp: { openspace: { type: 'remote', url: mcpUrl, enabled: true, ...(headers && { headers }) } },
  };
  const header = token === undefined ? '' : ` --header "Authorization: Bearer ${token}"`;
  return [
    `  MCP endpoint:  ${mcpUrl}`,
    `  Instructions:  ${instructionsUrl}`,
    token === undefined ? '  Access token:  none (--no-auth: any local process may call this hub)' : `  Access token:  ${token}`,
    '',
    'Claude Code:',
    `  claude mcp add --transport http openspace ${mcpUrl}${header}`,
    '',
    '.mcp.json (project-scoped MCP servers):',
    JSON.stringify(mcpJson, null, 2),
    '',
    'opencode.json:',
    JSON.stringify(opencodeJson, null, 2),
  ].join('\n');
}
