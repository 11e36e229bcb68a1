import { defineFamily } from '../family.js';
import { fixed, str } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './commands.js';

export default defineFamily({
  name: 'modality',
  summaries: { modality: 'list and focus the open decks, boards and other views' },
  tools,
  commands,
  phrases: {
    'openspace.modality.list': fixed('list', 'what the IDE can show'),
    'openspace.modality.focus': (input) => ({ verb: 'focus', rest: `the ${str(input, 'modalityId') ?? 'view'}` }),
  },
});
