import { z } from 'zod';
import { ContentType, PaneArea, PaneInfo } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

const PaneRef = {
  paneId: z.string().min(1).optional().describe('Pane ID from openspace.pane.list, e.g. "main-1"'),
  contentId: z.string().min(1).optional().describe('What the pane shows: a file path or a terminal ID or title'),
};

export const paneOpen = defineTool({
  name: 'openspace.pane.open',
  title: 'Open Pane',
  description:
    'Show content in a pane: a file in an editor, a terminal, a slide deck (.deck.md) as a presentation, or a whiteboard (.whiteboard.json). ' +
    'Pass splitDirection "vertical" to open it beside the active pane (to the right) or "horizontal" to open it below; ' +
    'without it the content opens as a tab in the target pane. Returns the pane ID.',
  input: z.strictObject({
    type: ContentType.extract(['editor', 'terminal', 'presentation', 'whiteboard']).describe('Kind of content'),
    contentId: z
      .string()
      .min(1)
      .describe('File path for editor, presentation (.deck.md) and whiteboard (.whiteboard.json); terminal ID or title for terminal'),
    title: z.string().min(1).max(200).optional().describe('Tab title; defaults to the file name or terminal title'),
    area: PaneArea.optional().describe('Where to open it; defaults to "bottom" for terminals and "main" otherwise'),
    targetPaneId: z.string().min(1).optional().describe('Pane to open in or split; defaults to the active pane of the area'),
    splitDirection: z
      .enum(['horizontal', 'vertical'])
      .optional()
      .describe('"vertical": new pane to the right; "horizontal": new pane below'),
  }),
  output: z.object({
    paneId: z.string(),
    contentId: z.string(),
    opened: z
      .boolean()
      .describe('true when this call opened a new tab; false when a tab showed the content already (it was activated or moved)'),
  }),
  budget: 'simple',
  effect: 'write',
  session: { creates: (r) => (r.opened ? [{ kind: 'tab', id: r.contentId }] : []) },
});

export const paneClose = defineTool({
  name: 'openspace.pane.close',
  title: 'Close Pane',
  description:
    'Close a pane with all its tabs (paneId) or close the tab showing one piece of content (contentId). Pass exactly one of them.',
  input: z.strictObject(PaneRef),
  output: z.object({ closed: z.array(z.string()).describe('Content IDs whose tabs were closed') }),
  budget: 'simple',
  effect: 'destructive',
  session: { releases: (r) => r.closed.map((id) => ({ kind: 'tab', id })) },
});

export const paneFocus = defineTool({
  name: 'openspace.pane.focus',
  title: 'Focus Pane',
  description:
    'Bring a pane (paneId) or the tab showing some content (contentId) to the front and give it keyboard focus. Pass exactly one.',
  input: z.strictObject(PaneRef),
  output: z.object({ paneId: z.string(), contentId: z.string().optional() }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export const paneList = defineTool({
  name: 'openspace.pane.list',
  title: 'List Panes',
  description:
    'List every pane with its tabs, active tab and geometry in percent of the IDE window. ' +
    'Use it to learn pane IDs before focusing, closing, splitting or resizing.',
  input: z.strictObject({}),
  output: z.object({
    panes: z.array(PaneInfo),
    activePaneId: z.string().optional(),
    activeContentId: z.string().optional(),
  }),
  budget: 'complex',
  effect: 'read-only',
});

const Percent = z.number().gt(0).lt(100);

export const paneResize = defineTool({
  name: 'openspace.pane.resize',
  title: 'Resize Pane',
  description:
    'Resize a pane to a width and/or height in percent of the IDE window (e.g. width 50). ' +
    'Neighbouring panes give or take the space; sizes are clamped so no pane shrinks below 5%.',
  input: z.strictObject({
    paneId: z.string().min(1),
    width: Percent.optional().describe('Target width, percent of the window'),
    height: Percent.optional().describe('Target height, percent of the window'),
  }),
  output: z.object({ pane: PaneInfo }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export default [paneOpen, paneClose, paneFocus, paneList, paneResize];
