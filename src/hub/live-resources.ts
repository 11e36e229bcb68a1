/**
 * MCP resources for clients that read and subscribe rather than poll (issue 14):
 * `openspace://context` (what openspace.context.get answers) and `openspace://events` (the latest
 * events, as openspace.events.query answers without a cursor). A subscribed session gets
 * `notifications/resources/updated` when the IDE publishes a state that changes them: the layout,
 * the current editor, the decks, or a new event (a selection, a save …), at most about once a
 * second (the IDE's publishing rate).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, PaneStateSnapshot, ToolResult } from '../contract/index.js';
import type { ToolName } from '../families/index.js';
import type { HubState } from './state.js';

export const CONTEXT_URI = 'openspace://context';
export const EVENTS_URI = 'openspace://events';

export const LIVE_RESOURCES: Resource[] = [
  {
    uri: CONTEXT_URI,
    name: 'context',
    title: 'IDE context',
    description:
      'What the person has in front of them: focused pane, current editor with cursor and selection, open editors, terminals, decks, boards (as openspace.context.get answers).',
    mimeType: 'application/json',
  },
  {
    uri: EVENTS_URI,
    name: 'events',
    title: 'IDE events',
    description:
      'The latest things the person did in the IDE (opens, saves, edits, selections, finished terminal commands …), as openspace.events.query answers; subscribe to hear of new ones.',
    mimeType: 'application/json',
  },
];

/** The tool call that answers each resource. */
const READS: Record<string, [tool: ToolName, args: Record<string, unknown>]> = {
  [CONTEXT_URI]: ['openspace.context.get', {}],
  [EVENTS_URI]: ['openspace.events.query', { limit: 100 }],
};

/** What a new snapshot changed, of the resources. */
function changedResources(before: PaneStateSnapshot | undefined, after: PaneStateSnapshot): string[] {
  if (!before) return [CONTEXT_URI, EVENTS_URI];
  // Not the time of publishing, nor problem counts (the context does not hold them).
  const shape = (snapshot: PaneStateSnapshot) => JSON.stringify({ ...snapshot, timestamp: undefined, problems: undefined });
  const changed: string[] = [];
  if (shape(before) !== shape(after)) changed.push(CONTEXT_URI);
  if (before.eventsCursor !== after.eventsCursor) changed.push(EVENTS_URI);
  return changed;
}

/**
 * Serve the live resources on one session's server. `call` runs a tool for the session; returns
 * what to call when the session's server closes.
 */
export function serveLiveResources(
  server: Server,
  state: HubState,
  call: (tool: string, args: Record<string, unknown>, context: CallContext) => Promise<ToolResult>,
  context: (sessionId: string | undefined) => CallContext,
): () => void {
  const subscribed = new Set<string>();
  const known = (uri: string) => {
    if (!(uri in READS)) {
      throw new McpError(ErrorCode.InvalidParams, `No resource ${uri}; this hub has ${Object.keys(READS).join(' and ')}.`, { uri });
    }
  };
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: LIVE_RESOURCES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    known(uri);
    const [tool, args] = READS[uri]!;
    const result = await call(tool, args, context(extra.sessionId));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result) }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    known(request.params.uri);
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return state.onUpdate((before, after) => {
    for (const uri of changedResources(before, after)) {
      if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  });
}
