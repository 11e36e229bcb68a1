/**
 * How the player talks to a target: an MCP client over Streamable HTTP, as an agent connects, and
 * plain HTTP for the instructions. Sends the target's access token when it has one.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { deepEqual } from './match.js';

/** What the player needs of a conformance Target (the token arrives with the hub's access token). */
export interface Endpoint {
  origin: string;
  mcpUrl: string;
  token?: string;
}

export type StructuredResult = Record<string, unknown> & { success?: unknown };

export interface CallOutcome {
  result: StructuredResult;
  /** Breaches of the result conventions (structuredContent, isError, the same JSON as text). */
  problems: string[];
  durationMs: number;
}

export interface Connection {
  readonly tools: Tool[];
  callTool(name: string, args: Record<string, unknown>): Promise<CallOutcome>;
  /** GET /openspace/instructions. */
  instructions(): Promise<{ text: string; durationMs: number }>;
  listTools(): Promise<{ tools: Tool[]; durationMs: number }>;
  close(): Promise<void>;
}

function authHeaders(endpoint: Endpoint): Record<string, string> {
  return endpoint.token ? { Authorization: `Bearer ${endpoint.token}` } : {};
}

export async function connect(endpoint: Endpoint, clientName = 'openspace-scenario-player'): Promise<Connection> {
  const headers = authHeaders(endpoint);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.mcpUrl), { requestInit: { headers } }));
  // Listing first also makes the SDK check every structuredContent against the tool's outputSchema.
  let tools = (await client.listTools()).tools;
  return {
    get tools() {
      return tools;
    },
    async callTool(name, args) {
      const started = performance.now();
      const answer = await client.callTool({ name, arguments: args });
      const durationMs = performance.now() - started;
      const problems: string[] = [];
      const structured = answer.structuredContent as StructuredResult | undefined;
      if (!structured || typeof structured !== 'object') {
        problems.push('the result has no structuredContent');
        return { result: {}, problems, durationMs };
      }
      if ((answer.isError ?? false) !== !structured.success) problems.push(`isError is ${answer.isError ?? false} but success is ${String(structured.success)}`);
      const text = (answer.content as { type: string; text?: string }[] | undefined)?.[0];
      if (text?.type !== 'text' || text.text === undefined) problems.push('the first content item is not text');
      else if (!sameJson(text.text, structured)) problems.push('the text content is not the same JSON as structuredContent');
      return { result: structured, problems, durationMs };
    },
    async instructions() {
      const started = performance.now();
      const response = await fetch(new URL('/openspace/instructions', endpoint.origin), { headers });
      const text = await response.text();
      const durationMs = performance.now() - started;
      if (!response.ok) throw new Error(`GET /openspace/instructions answered ${response.status}: ${text.slice(0, 200)}`);
      return { text, durationMs };
    },
    async listTools() {
      const started = performance.now();
      tools = (await client.listTools()).tools;
      return { tools, durationMs: performance.now() - started };
    },
    close: () => client.close(),
  };
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return deepEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}
