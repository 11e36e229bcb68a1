/**
 * The one MCP client of the conformance specs, the scenario player, the Theia E2E and the bench: an
 * agent's connection (Streamable HTTP with the hub's bearer token, or stdio) whose tool calls return
 * the structured result after judging the result conventions. Free of any test runner, so Vitest,
 * Playwright and plain Node all use it.
 */
import { isDeepStrictEqual } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

// Results are loosely typed on purpose: tests read fields the way an agent does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Result = Record<string, any> & { success: boolean };

/** A hub's MCP URL, with its access token when it requires one. */
export interface HubEndpoint {
  mcpUrl: string;
  token?: string;
}

/** The headers an HTTP request to a hub needs: its bearer token, when it has one. */
export const authHeaders = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** Where to connect: a hub (by its MCP URL alone when it wants no token), or a command that speaks MCP over stdio. */
export type AgentTarget = string | HubEndpoint | { command: string; args: string[] };

export interface AgentOptions {
  /**
   * Answers the hub's questions to the person at the agent's side (MCP elicitation): the content to
   * accept with, or undefined to decline (a promise of either: one that never settles leaves the
   * question unanswered). Without it the client does not offer elicitation.
   */
  ask?: (
    message: string,
    fields: Record<string, { title?: string }>,
  ) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
  /**
   * Which tools the agent has listed: "all" (default) enables every family first, so the SDK checks
   * every tool's answers against its outputSchema; "start" keeps the session's starting catalog.
   */
  catalog?: 'all' | 'start';
}

/** A tool's answer as it came, with any breaches of the result conventions and the round trip's time. */
export interface Answer {
  /** The structuredContent ({} when there is none). */
  result: Result;
  /** Breaches of the result conventions (structuredContent, isError, the same JSON as text). */
  problems: string[];
  durationMs: number;
}

export interface Agent {
  /** The SDK client, for what the helpers do not cover (ping, raw calls timed by themselves). */
  client: Client;
  /** The MCP session id the hub gave (undefined over stdio). */
  readonly sessionId: string | undefined;
  /** The tools as last listed (listed once on connecting). */
  readonly tools: Tool[];
  /** How many notifications/tools/list_changed the hub sent (the agent listed again after each). */
  readonly listChanges: number;
  /** The questions the hub asked through elicitation (with options.ask), in order. */
  readonly asked: string[];
  /** Call a tool and return its answer, breaches of the conventions included (it throws only when the call does). */
  answer(tool: string, args?: Record<string, unknown>): Promise<Answer>;
  /** Call a tool and return its structured result; throws if the result breaks the conventions. */
  call(tool: string, args?: Record<string, unknown>): Promise<Result>;
  /** Call a tool that must succeed. */
  ok(tool: string, args?: Record<string, unknown>): Promise<Result>;
  /** Call a tool that must fail with this code. */
  fails(tool: string, args: Record<string, unknown>, code: string): Promise<Result>;
  /** tools/list, timed. */
  listTools(): Promise<{ tools: Tool[]; durationMs: number }>;
  /** GET /openspace/instructions, timed (Streamable HTTP only). */
  instructions(): Promise<{ text: string; durationMs: number }>;
  /** End the MCP session (DELETE, as an agent leaving does), then close. */
  endSession(): Promise<void>;
  /** Close the connection, without ending the session (endSession does). */
  close(): Promise<void>;
}

/**
 * The SDK's client checks every structured result against the tool's output schema, compiling the
 * schemas each time it lists the tools (Ajv caches by object, and every listing is new objects):
 * about half a second of CPU per connection here. Compiled once per process instead, by the
 * schema's text, for every connection: what is checked is unchanged.
 */
class SharedSchemaValidator implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) this.compiled.set(key, (validator = this.ajv.getValidator(schema)));
    return validator as JsonSchemaValidator<T>;
  }
}
/** For every MCP client of this process (the broken target's inner ones too). */
export const sharedSchemaValidator = new SharedSchemaValidator();

/**
 * The SDK's HTTP transport passes one long-lived AbortSignal (its own, aborted on close) with every
 * request. Node's fetch adds an abort listener to that signal per request, removes it only once the
 * request is garbage-collected, and counts the signal's listeners at each request: over a spec's
 * thousands of calls on one connection each call cost more than the one before (and Node warned of
 * a listener leak). Here each request follows the transport's signal through a signal of its own,
 * which the transport's close still aborts.
 */
const fetchWithOwnSignal: typeof fetch = (url, init) =>
  fetch(url, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);

/** An MCP client as an agent connects it, with the tools listed (so the SDK checks every structuredContent against its outputSchema). */
export async function connectAgent(target: AgentTarget, name = 'conformance-agent', options: AgentOptions = {}): Promise<Agent> {
  const endpoint = typeof target === 'string' ? { mcpUrl: target } : target;
  const headers = authHeaders('token' in endpoint ? endpoint.token : undefined);
  const transport =
    'command' in endpoint
      ? new StdioClientTransport({ command: endpoint.command, args: endpoint.args, stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(endpoint.mcpUrl), { requestInit: { headers }, fetch: fetchWithOwnSignal });
  const { ask } = options;
  const asked: string[] = [];
  const client = new Client(
    { name, version: '1.0.0' },
    { jsonSchemaValidator: sharedSchemaValidator, ...(ask && { capabilities: { elicitation: {} } }) },
  );
  if (ask) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const { requestedSchema } = request.params as { requestedSchema?: { properties?: Record<string, { title?: string }> } };
      const content = await ask(request.params.message, requestedSchema?.properties ?? {});
      return content ? { action: 'accept', content } : { action: 'decline' };
    });
  }
  // As Claude Code and OpenCode do: list again when the hub says the list changed.
  let tools: Tool[] = [];
  let listChanges = 0;
  let relisted = Promise.resolve();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges++;
    relisted = client.listTools().then((listed) => void (tools = listed.tools));
    return relisted; // a listing cut short by close() is the SDK's to report, not an unhandled rejection
  });
  await client.connect(transport);
  if (options.catalog === 'start') tools = (await client.listTools()).tools;
  else {
    // The hub answers once this client has listed again: one listing, not two (unless no notice came).
    await client.callTool({ name: 'openspace.tools.enable', arguments: { families: ['all'] } });
    await relisted;
    if (listChanges === 0) tools = (await client.listTools()).tools;
  }

  const answer = async (tool: string, args: Record<string, unknown> = {}): Promise<Answer> => {
    const started = performance.now();
    const result = await client.callTool({ name: tool, arguments: args });
    const durationMs = performance.now() - started;
    const structured = result.structuredContent as Result | undefined;
    if (!structured || typeof structured !== 'object')
      return { result: {} as Result, problems: ['the result has no structuredContent'], durationMs };
    const problems: string[] = [];
    if ((result.isError ?? false) !== !structured.success)
      problems.push(`isError is ${result.isError ?? false} but success is ${String(structured.success)}`);
    const text = (result.content as { type: string; text?: string }[] | undefined)?.[0];
    if (text?.type !== 'text' || text.text === undefined) problems.push('the first content item is not text');
    else if (!sameJson(text.text, structured)) problems.push('the text content is not the same JSON as structuredContent');
    return { result: structured, problems, durationMs };
  };
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const { result, problems } = await answer(tool, args);
    if (problems.length > 0) throw new Error(`${tool} broke the result conventions: ${problems.join('; ')}\nactual: ${brief(result)}`);
    return result;
  };
  return {
    client,
    get sessionId() {
      return transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined;
    },
    get tools() {
      return tools;
    },
    get listChanges() {
      return listChanges;
    },
    asked,
    answer,
    call,
    async ok(tool, args = {}) {
      const result = await call(tool, args);
      if (result.success !== true)
        throw new Error(`${tool} ${JSON.stringify(args)} failed: ${result.code} ${result.error}\nactual: ${brief(result)}`);
      return result;
    },
    async fails(tool, args, code) {
      const result = await call(tool, args);
      if (result.success !== false || result.code !== code)
        throw new Error(`${tool} ${JSON.stringify(args)} should fail with ${code}\nactual: ${brief(result)}`);
      if (typeof result.error !== 'string')
        throw new Error(`${tool} ${JSON.stringify(args)} failed with ${code} but no error message\nactual: ${brief(result)}`);
      return result;
    },
    async listTools() {
      const started = performance.now();
      tools = (await client.listTools()).tools;
      return { tools, durationMs: performance.now() - started };
    },
    async instructions() {
      if (!('mcpUrl' in endpoint)) throw new Error('the instructions are served over HTTP; this agent speaks stdio');
      const started = performance.now();
      const response = await fetch(new URL('/openspace/instructions', endpoint.mcpUrl), { headers });
      const text = await response.text();
      const durationMs = performance.now() - started;
      if (!response.ok) throw new Error(`GET /openspace/instructions answered ${response.status}: ${text.slice(0, 200)}`);
      return { text, durationMs };
    },
    async endSession() {
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
      await client.close();
    },
    close: () => client.close(),
  };
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/** A result as JSON, cut short enough to read in a failure message. */
function brief(result: Result): string {
  const text = JSON.stringify(result);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
