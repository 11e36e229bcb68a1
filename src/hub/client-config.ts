/** Ready-to-paste client configuration for a hub, printed by `npm start` and `npm run theia`. */
export function clientConfig(mcpUrl: string, instructionsUrl: string): string {
  const mcpJson = { mcpServers: { openspace: { type: 'http', url: mcpUrl } } };
  const opencodeJson = {
    $schema: 'https://opencode.ai/config.json',
    mcp: { openspace: { type: 'remote', url: mcpUrl, enabled: true } },
    instructions: [instructionsUrl],
  };
  return [
    `  MCP endpoint:  ${mcpUrl}`,
    `  Instructions:  ${instructionsUrl}`,
    '',
    'Claude Code:',
    `  claude mcp add --transport http openspace ${mcpUrl}`,
    '',
    '.mcp.json (project-scoped MCP servers):',
    JSON.stringify(mcpJson, null, 2),
    '',
    'opencode.json:',
    JSON.stringify(opencodeJson, null, 2),
  ].join('\n');
}
