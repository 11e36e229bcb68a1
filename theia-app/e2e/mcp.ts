import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Result = Record<string, any> & { success: boolean };

/** An agent's MCP connection (with the hub's access token): call a tool, get its structured result, fail loudly if it failed. */
export async function connect(mcpUrl: string, token?: string) {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit }));
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Result;
  return {
    client,
    call,
    async ok(name: string, args: Record<string, unknown> = {}) {
      const result = await call(name, args);
      if (!result.success) throw new Error(`${name} ${JSON.stringify(args)} failed: ${result.code} ${result.error}`);
      return result;
    },
    close: () => client.close(),
  };
}
