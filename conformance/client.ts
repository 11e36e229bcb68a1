import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

// Results are loosely typed on purpose: tests read fields the way an agent does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Result = Record<string, any> & { success: boolean };

export interface Agent {
  client: Client;
  /** Call a tool and return its structured result, checking the result conventions on the way. */
  call(tool: string, args?: Record<string, unknown>): Promise<Result>;
  /** Call a tool that must succeed. */
  ok(tool: string, args?: Record<string, unknown>): Promise<Result>;
  /** Call a tool that must fail with this code. */
  fails(tool: string, args: Record<string, unknown>, code: string): Promise<Result>;
  close(): Promise<void>;
}

/** Where to connect: a hub's MCP URL, with its access token when it requires one. */
export type AgentTarget = string | { mcpUrl: string; token?: string };

/** An MCP client over Streamable HTTP, as an agent would connect (sending the hub's bearer token). */
export async function connectAgent(target: AgentTarget, name = 'conformance-agent'): Promise<Agent> {
  const { mcpUrl, token } = typeof target === 'string' ? { mcpUrl: target, token: undefined } : target;
  const client = new Client({ name, version: '1.0.0' });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit }));
  // The client validates structuredContent against each tool's outputSchema once it has listed them.
  await client.listTools();
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name: tool, arguments: args });
    const structured = result.structuredContent as Result;
    expect(structured, `${tool} returned no structuredContent`).toBeTypeOf('object');
    expect(result.isError ?? false, `${tool}: isError must be set exactly when success is false`).toBe(!structured.success);
    const text = (result.content as { type: string; text: string }[])[0];
    expect(text?.type).toBe('text');
    expect(JSON.parse(text!.text)).toEqual(structured);
    return structured;
  };
  return {
    client,
    call,
    async ok(tool, args) {
      const result = await call(tool, args);
      expect(result, `${tool} ${JSON.stringify(args)} failed: ${result.error}`).toMatchObject({ success: true });
      return result;
    },
    async fails(tool, args, code) {
      const result = await call(tool, args);
      expect(result, `${tool} ${JSON.stringify(args)}`).toMatchObject({ success: false, code });
      expect(result.error).toBeTypeOf('string');
      return result;
    },
    close: () => client.close(),
  };
}
