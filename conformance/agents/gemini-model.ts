/**
 * A scripted model behind Google's Gemini API, for Gemini CLI (GOOGLE_GEMINI_BASE_URL with
 * GEMINI_API_KEY): POST /v1beta/models/{model}:streamGenerateContent (server-sent events, as the
 * @google/genai client always asks) and :generateContent; anything else gets an empty JSON object.
 * A tool is a `functionCall` part; the agent sends its result back as a `functionResponse` part.
 * See script.ts for how it follows the script.
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

interface Part {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: Record<string, unknown> };
}

/** The function results in a conversation, in order: what the agent sent back for each call. */
export function geminiToolResults(request: RecordedRequest): { text: string; isError: boolean }[] {
  const contents: { parts?: Part[] }[] = request.body?.contents ?? [];
  return contents
    .flatMap((c) => c.parts ?? [])
    .filter((p) => p.functionResponse)
    .map((p) => {
      const { response } = p.functionResponse!;
      return { text: JSON.stringify(response), isError: 'error' in response };
    });
}

const isGenerate = (r: RecordedRequest) => r.method === 'POST' && /^\/v1beta\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(r.path);
const offeredTools = (r: RecordedRequest): string[] =>
  (r.body?.tools ?? []).flatMap((t: { functionDeclarations?: { name: string }[] }) => (t.functionDeclarations ?? []).map((f) => f.name));

/** What the API says a response used; small, so that the agent never compresses its history. */
const USAGE = { promptTokenCount: 100, candidatesTokenCount: 5, totalTokenCount: 105 };

function candidate(move: Move) {
  const part: Part = move.kind === 'tool' ? { functionCall: { name: move.name, args: move.arguments } } : { text: move.text };
  return { content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 };
}

export function startGeminiModel(script: Script): Promise<ScriptedModel> {
  return startModelServer(
    (request, res: ServerResponse, problems) => {
      if (!isGenerate(request)) return sendJson(res, 200, {});
      const move = nextMove(script, offeredTools(request), geminiToolResults(request).length, problems);
      const answer = { candidates: [candidate(move)], usageMetadata: USAGE, modelVersion: 'scripted' };
      if (request.path.includes(':stream')) return sendEvents(res, [{ data: answer }]);
      sendJson(res, 200, answer);
    },
    (request) => isGenerate(request) && offeredTools(request).some((name) => name.includes('openspace')),
  );
}
