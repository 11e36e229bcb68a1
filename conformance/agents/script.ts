/**
 * What the scripted models share: the script (the openspace tools to call, in order, then a final
 * text), how a step is chosen from the conversation, and the record of every request an agent sent.
 * A model server (anthropic-model.ts, openai-model.ts) only translates this to its API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptStep {
  /** The openspace tool, as the hub names it (openspace.editor.open), or one of the agent's own (OpenCode's question). */
  tool: string;
  arguments: Record<string, unknown>;
}

export interface Script {
  steps: ScriptStep[];
  /** The answer once every step has its result. */
  finalText: string;
  /** How the agent names a hub's tool (Claude Code: mcp__openspace__openspace_editor_open). */
  agentToolName: (tool: string) => string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  // Request bodies are loosely typed on purpose: the test reads them the way the API defines them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** The model's next move: call the tool named `name` (as the agent offered it), or answer text. */
export type Move = { kind: 'tool'; name: string; arguments: Record<string, unknown>; id: string } | { kind: 'text'; text: string };

export interface ScriptedModel {
  url: string;
  requests: RecordedRequest[];
  /** What went wrong while following the script (a tool the agent did not offer), for the test to report. */
  problems: string[];
  /** The requests that offered the agent's openspace tools: the scripted conversation itself. */
  conversation(): RecordedRequest[];
  close(): Promise<void>;
}

/** The harmless text for a request that is not the scripted conversation (a title, a quota probe). */
const ASIDE_TEXT = 'OK';

/**
 * The move for a request, from the tool names it offers and how many tool results its conversation
 * holds. A request offering none of our tools (a title, a summary) gets plain text; one offering
 * openspace tools but not the scripted one's exact name is a problem: the test fails on it.
 */
export function nextMove(script: Script, offered: string[], toolResults: number, problems: string[]): Move {
  const ours = offered.filter((name) => name.includes('openspace'));
  if (ours.length === 0) return { kind: 'text', text: ASIDE_TEXT };
  const step = script.steps[toolResults];
  if (!step) return { kind: 'text', text: script.finalText };
  const name = script.agentToolName(step.tool);
  if (!offered.includes(name)) {
    problems.push(
      `step ${toolResults + 1}: the agent offers no tool named ${name} for ${step.tool}; its openspace tools: ${ours.join(', ')}`,
    );
    return { kind: 'text', text: `The scripted model found no tool named ${name}.` };
  }
  return { kind: 'tool', name, arguments: step.arguments, id: `call_${toolResults + 1}` };
}

/** Answers one request; `problems` collects what went wrong for the test to report. */
export type Handler = (request: RecordedRequest, res: ServerResponse, problems: string[]) => void;

/** An HTTP server on 127.0.0.1 that records every request (JSON bodies parsed) before `handle` answers it. */
export async function startModelServer(handle: Handler, isConversation: (r: RecordedRequest) => boolean): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: kept as text
      }
      const request = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://model').pathname, body };
      requests.push(request);
      try {
        handle(request, res, problems);
      } catch (err) {
        problems.push(`${request.method} ${request.path}: ${(err as Error).message}`);
        sendJson(res, 500, { error: { type: 'api_error', message: (err as Error).message } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    problems,
    conversation: () => requests.filter(isConversation),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Server-sent events: each item is one `data:` line, with an `event:` line when it names one. */
export function sendEvents(res: ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const { event, data } of events) {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}
