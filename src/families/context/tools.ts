import { z } from 'zod';
import { VisibleRange } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

/** How much of a selection's text context.get gives; longer selections come with `truncated`. */
export const SELECTION_TEXT_LIMIT = 4000;

const Position = z.object({ line: z.number().int(), column: z.number().int() });

export const contextGet = defineTool({
  name: 'openspace.context.get',
  core: true,
  title: 'Get IDE Context',
  description:
    'What the person has in front of them, in one call: the focused pane and tab; the current editor (path, cursor, ' +
    `selection with its text, at most ${SELECTION_TEXT_LIMIT} characters and never from a sensitive file, the visible lines, unsaved changes); ` +
    'the open editors; the terminals with the time each last printed; the open presentations and whiteboards; and the ' +
    'workspace root. Use it to ground "this function" or "here" in what the person selected. Lines and columns are 1-based.',
  input: z.strictObject({}),
  output: z.object({
    workspaceRoot: z.string().nullable(),
    focus: z.object({ paneId: z.string(), contentId: z.string(), type: z.string() }).nullable(),
    editor: z
      .object({
        path: z.string(),
        cursor: Position,
        selection: z.object({
          start: Position,
          end: Position,
          empty: z.boolean(),
          text: z.string().optional().describe('Absent for an empty selection or a sensitive file'),
          truncated: z.boolean().optional(),
          withheld: z.string().optional().describe('Why the text is absent, e.g. "sensitive file"'),
        }),
        visibleRange: VisibleRange,
        lineCount: z.number().int(),
        isDirty: z.boolean(),
      })
      .nullable()
      .describe('The editor the person focused last; null when none is open'),
    openEditors: z.array(z.object({ path: z.string(), paneId: z.string(), isDirty: z.boolean() })),
    terminals: z.array(
      z.object({
        terminalId: z.string(),
        title: z.string(),
        running: z.boolean(),
        lastActivity: z.string().optional().describe('ISO time of its last output; absent before any'),
      }),
    ),
    presentations: z.array(z.object({ deckPath: z.string(), slideIndex: z.number().int(), playback: z.string() })),
    whiteboards: z.array(z.string()),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export default [contextGet];
