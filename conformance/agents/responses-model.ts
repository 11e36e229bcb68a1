/**
 * A scripted model behind OpenAI's Responses API, for Codex (through `codex-acp`, a custom model
 * provider with `wire_api = "responses"`, the only one Codex speaks): POST /v1/responses, streamed
 * as the API's server-sent events (`response.created`, text deltas, each output item when done,
 * `response.completed`). See script.ts for how it follows the script.
 */
import type { ServerResponse } from 'node:http';
import {
  nextMove,
  sendEvents,
  sendJson,
  startModelServer,
  type Move,
  type RecordedRequest,
  type Script,
  type ScriptedModel,
} from './script.js';

interface InputItem {
  type?: string;
  output?: unknown;
}

/** The tool results in a conversation, in order: the agent's `function_call_output` items. */
export function responsesToolResults(request: RecordedRequest): string[] {
  const input: InputItem[] = Array.isArray(request.body?.input) ? request.body.input : [];
  return input
    .filter((item) => item.type === 'function_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}

const isResponses = (r: RecordedRequest) => r.method === 'POST' && r.path === '/v1/responses';
interface Tool {
  type?: string;
  name?: string;
  tools?: Tool[];
}

/**
 * The tools a request offers, by the name the script uses: Codex puts an MCP server's tools in a
 * namespace (`mcp__openspace` holding `openspace_editor_open`), called with the namespace beside the
 * name; the script names such a tool `mcp__openspace__openspace_editor_open`.
 */
function offeredTools(r: RecordedRequest): Map<string, { name: string; namespace?: string }> {
  const offered = new Map<string, { name: string; namespace?: string }>();
  for (const tool of (r.body?.tools ?? []) as Tool[]) {
    if (tool.type === 'namespace')
      for (const inner of tool.tools ?? []) offered.set(`${tool.name}__${inner.name}`, { name: inner.name!, namespace: tool.name });
    else if (tool.name) offered.set(tool.name, { name: tool.name });
  }
  return offered;
}

let responseCount = 0;

function stream(res: ServerResponse, model: string, move: Move, call?: { name: string; namespace?: string }): void {
  const id = `resp_scripted_${++responseCount}`;
  const item =
    move.kind === 'tool'
      ? {
          type: 'function_call',
          id: `fc_${id}`,
          call_id: move.id,
          ...(call ?? { name: move.name }),
          arguments: JSON.stringify(move.arguments),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: move.text, annotations: [] }],
        };
  const response = (status: string, output: unknown[]) => ({ id, object: 'response', model, status, output });
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 11,
  };
  const events: { event: string; data: Record<string, unknown> }[] = [
    { event: 'response.created', data: { response: response('in_progress', []) } },
    { event: 'response.output_item.added', data: { output_index: 0, item: { ...item, status: 'in_progress' } } },
  ];
  if (move.kind === 'text')
    events.push({ event: 'response.output_text.delta', data: { item_id: item.id, output_index: 0, content_index: 0, delta: move.text } });
  events.push(
    { event: 'response.output_item.done', data: { output_index: 0, item } },
    { event: 'response.completed', data: { response: { ...response('completed', [item]), usage } } },
  );
  sendEvents(
    res,
    events.map(({ event, data }, n) => ({ event, data: { type: event, sequence_number: n, ...data } })),
  );
}

export function startResponsesModel(script: Script): Promise<ScriptedModel> {
  return startModelServer(
    (request, res, problems) => {
      if (request.method === 'GET' && request.path === '/v1/models') return sendJson(res, 200, { object: 'list', data: [] });
      if (!isResponses(request)) return sendJson(res, 404, { error: { message: `no ${request.method} ${request.path} here` } });
      const offered = offeredTools(request);
      const move = nextMove(script, [...offered.keys()], responsesToolResults(request).length, problems);
      stream(res, String(request.body?.model ?? 'scripted-model'), move, move.kind === 'tool' ? offered.get(move.name) : undefined);
    },
    (request) => isResponses(request) && [...offeredTools(request).keys()].some((name) => name.includes('openspace')),
  );
}
