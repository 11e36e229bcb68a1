import { z } from 'zod';
import { defineTool } from '../../contract/tool.js';

export const MODALITY_IDS = ['editor', 'terminal', 'presentation', 'whiteboard'] as const;

export const modalityList = defineTool({
  name: 'openspace.modality.list',
  title: 'List Modalities',
  description:
    'List the ways this IDE shows things (editor, terminal, presentation, whiteboard): each with its tools and its open instances (pane and content IDs).',
  input: z.strictObject({}),
  output: z.object({
    modalities: z.array(
      z.object({
        id: z.enum(MODALITY_IDS),
        title: z.string(),
        tools: z.array(z.string()),
        instances: z.array(z.object({ paneId: z.string(), contentId: z.string(), title: z.string(), active: z.boolean() })),
      }),
    ),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const modalityFocus = defineTool({
  name: 'openspace.modality.focus',
  title: 'Focus Modality',
  description:
    'Bring a modality to the front: the tab of that kind the person saw last (the active one if it is of that kind). PANE_NOT_FOUND when none is open.',
  input: z.strictObject({ modalityId: z.enum(MODALITY_IDS) }),
  output: z.object({ modalityId: z.string(), paneId: z.string(), contentId: z.string() }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export default [modalityList, modalityFocus];
