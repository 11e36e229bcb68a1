/**
 * A scripted model behind the Anthropic Messages API, for Claude Code (ANTHROPIC_BASE_URL):
 * POST /v1/messages, streamed (server-sent events) or not, and POST /v1/messages/count_tokens;
 * anything else gets an empty JSON object. See script.ts for how it follows the script.
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

interface Block {
  type: string;
  [key: string]: unknown;
}

function blocks(content: unknown): Block[] {
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** The tool results in a conversation, in order: what the agent sent back for each call. */
export function anthropicToolResults(request: RecordedRequest): { text: string; isError: boolean }[] {
  const messages: { content: unknown }[] = request.body?.messages ?? [];
  return messages
    .flatMap((m) => blocks(m.content))
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({
      text:
        typeof b.content === 'string'
          ? b.content
          : blocks(b.content)
              .map((c) => String(c.text ?? ''))
              .join(''),
      isError: b.is_error === true,
    }));
}

const isMessages = (r: RecordedRequest) => r.method === 'POST' && r.path === '/v1/messages';
const offeredTools = (r: RecordedRequest): string[] => (r.body?.tools ?? []).map((t: { name: string }) => t.name);

function content(move: Move): Block[] {
  return move.kind === 'tool'
    ? [{ type: 'tool_use', id: `toolu_${move.id}`, name: move.name, input: move.arguments }]
    : [{ type: 'text', text: move.text }];
}

/** What Anthropic's API says a message used; it always names the cache's tokens too (Claude Code adds them up). */
const USAGE = { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

function stream(res: ServerResponse, model: string, move: Move): void {
  const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null };
  const usage = USAGE;
  const block = content(move)[0]!;
  const [start, delta] =
    block.type === 'tool_use'
      ? [
          { ...block, input: {} },
          { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        ]
      : [
          { type: 'text', text: '' },
          { type: 'text_delta', text: block.text },
        ];
  sendEvents(res, [
    { event: 'message_start', data: { type: 'message_start', message: { ...message, usage } } },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: start } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stopReason(move), stop_sequence: null }, usage: { output_tokens: 1 } },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

const stopReason = (move: Move) => (move.kind === 'tool' ? 'tool_use' : 'end_turn');

export function startAnthropicModel(script: Script): Promise<ScriptedModel> {
  return startModelServer(
    (request, res, problems) => {
      if (request.method === 'POST' && request.path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 10 });
      if (!isMessages(request)) return sendJson(res, 200, {});
      const move = nextMove(script, offeredTools(request), anthropicToolResults(request).length, problems);
      const name = String(request.body?.model ?? 'scripted');
      if (request.body?.stream) return stream(res, name, move);
      sendJson(res, 200, {
        id: 'msg_scripted',
        type: 'message',
        role: 'assistant',
        model: name,
        content: content(move),
        stop_reason: stopReason(move),
        stop_sequence: null,
        usage: USAGE,
      });
    },
    (request) => isMessages(request) && offeredTools(request).some((name) => name.includes('openspace')),
  );
}
