/**
 * A scripted model behind the OpenAI Chat Completions API, for OpenCode (a custom provider through
 * @ai-sdk/openai-compatible): POST /v1/chat/completions, streamed (server-sent events with
 * tool_calls deltas) or not, and GET /v1/models. See script.ts for how it follows the script.
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

export const OPENAI_MODEL_ID = 'scripted-model';

interface ChatMessage {
  role: string;
  content: unknown;
}

const text = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';

/** The tool results in a conversation, in order: what the agent sent back for each call. */
export function openaiToolResults(request: RecordedRequest): string[] {
  const messages: ChatMessage[] = request.body?.messages ?? [];
  return messages.filter((m) => m.role === 'tool').map((m) => text(m.content));
}

/** The system prompt the agent sent (its system messages, joined). */
export function openaiSystemPrompt(request: RecordedRequest): string {
  const messages: ChatMessage[] = request.body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => text(m.content))
    .join('\n');
}

const isChat = (r: RecordedRequest) => r.method === 'POST' && r.path === '/v1/chat/completions';
const offeredTools = (r: RecordedRequest): string[] =>
  (r.body?.tools ?? []).map((t: { function?: { name: string } }) => t.function?.name ?? '');

const toolCall = (move: Move & { kind: 'tool' }) => ({
  id: move.id,
  type: 'function',
  function: { name: move.name, arguments: JSON.stringify(move.arguments) },
});

const finishReason = (move: Move) => (move.kind === 'tool' ? 'tool_calls' : 'stop');
const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };

function stream(res: ServerResponse, model: string, move: Move): void {
  const chunk = (delta: unknown, finish: string | null, extra: object = {}) => ({
    data: {
      id: 'chatcmpl-scripted',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    },
  });
  const deltas =
    move.kind === 'tool'
      ? [
          // the call's name first, its arguments after, as real models stream them
          chunk({ role: 'assistant', tool_calls: [{ index: 0, ...toolCall(move), function: { name: move.name, arguments: '' } }] }, null),
          chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(move.arguments) } }] }, null),
        ]
      : [chunk({ role: 'assistant', content: '' }, null), chunk({ content: move.text }, null)];
  sendEvents(res, [...deltas, chunk({}, finishReason(move), { usage }), { data: '[DONE]' }]);
}

export function startOpenaiModel(script: Script): Promise<ScriptedModel> {
  return startModelServer(
    (request, res, problems) => {
      if (request.method === 'GET' && request.path === '/v1/models') {
        return sendJson(res, 200, { object: 'list', data: [{ id: OPENAI_MODEL_ID, object: 'model', created: 0, owned_by: 'openspace' }] });
      }
      if (!isChat(request)) return sendJson(res, 404, { error: { message: `no ${request.method} ${request.path} here` } });
      const move = nextMove(script, offeredTools(request), openaiToolResults(request).length, problems);
      const model = String(request.body?.model ?? OPENAI_MODEL_ID);
      if (request.body?.stream) return stream(res, model, move);
      const message =
        move.kind === 'tool'
          ? { role: 'assistant', content: null, tool_calls: [toolCall(move)] }
          : { role: 'assistant', content: move.text };
      sendJson(res, 200, {
        id: 'chatcmpl-scripted',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message, finish_reason: finishReason(move) }],
        usage,
      });
    },
    (request) => isChat(request) && offeredTools(request).some((name) => name.includes('openspace')),
  );
}
