import { z } from 'zod';
import { defineTool } from '../../contract/tool.js';

/**
 * What a person does in the IDE that an agent may want to know (not what agents do, except a call
 * that failed). Selection changes come at most one per 500 ms of a person's moves, edits one per
 * second per file, diagnostics one per 2 s.
 */
export const EVENT_TYPES = [
  'file.opened',
  'file.closed',
  'file.saved',
  'file.edited',
  'selection.changed',
  'diagnostics.changed',
  'terminal.command_finished',
  'layout.changed',
  'git.changed',
  'agent.call_failed',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

/** How many events an IDE keeps; older ones are dropped (the answer counts them). */
export const EVENT_LOG_CAPACITY = 1000;

export const IdeEvent = z.object({
  seq: z.number().int().describe('Increases by one per event; the cursor is the seq of the last event read'),
  time: z.string().describe('ISO time'),
  type: EventType,
  path: z.string().optional(),
  selection: z.object({ startLine: z.number().int(), endLine: z.number().int(), empty: z.boolean() }).optional(),
  terminalId: z.string().optional(),
  exitCode: z.number().int().optional(),
  problems: z.object({ errors: z.number().int(), warnings: z.number().int() }).optional(),
  tool: z.string().optional(),
  code: z.string().optional(),
  paths: z.array(z.string()).optional().describe('With git.changed: the files staged, unstaged or discarded'),
});
export type IdeEvent = z.infer<typeof IdeEvent>;

export const eventsQuery = defineTool({
  name: 'openspace.events.query',
  title: 'Query IDE Events',
  description:
    'What the person did in the IDE since a cursor, oldest first: files opened, closed, saved or edited (path only), selection ' +
    'changes (at most one per 500 ms), diagnostics changes, terminal commands finished (with exit code), layout changes, their own ' +
    'git actions in the source-control view (git.changed: the tool they ran, e.g. openspace.git.commit, and the files), and agent ' +
    'calls that failed. Without since: the latest `limit` events. Pass the returned cursor as since next time: no event is skipped or ' +
    'repeated (dropped counts events the IDE no longer keeps). types narrows the answer; event types you opted out of with ' +
    'openspace.events.configure never come.',
  input: z.strictObject({
    since: z.number().int().min(0).optional().describe('The cursor of an earlier answer'),
    types: z.array(EventType).min(1).optional(),
    limit: z.number().int().min(1).max(EVENT_LOG_CAPACITY).optional().describe('At most this many events (default 100)'),
  }),
  output: z.object({
    events: z.array(IdeEvent),
    cursor: z.number().int().describe('Pass as since to read on'),
    dropped: z.number().int().describe('Events after since that were no longer kept'),
    more: z.boolean().describe('More events follow the cursor'),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const eventsConfigure = defineTool({
  name: 'openspace.events.configure',
  title: 'Choose IDE Events',
  description:
    'Opt this session out of event types it does not want (in events.query and in the openspace://events resource), or back in. ' +
    'Answers the types this session ignores now.',
  input: z.strictObject({
    ignore: z.array(EventType).optional().describe('Types to stop receiving'),
    receive: z.array(EventType).optional().describe('Types to receive again'),
  }),
  output: z.object({ ignored: z.array(EventType) }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export default [eventsQuery, eventsConfigure];
