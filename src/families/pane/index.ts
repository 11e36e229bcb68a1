import { defineFamily } from '../family.js';
import { fixed, str, type Describe } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';

const article = (noun: string) => (noun ? `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}` : 'a');
const open: Describe = (input) => ({ verb: 'open', rest: `${article(str(input, 'type') ?? '')} pane`.trim() });

export default defineFamily({
  name: 'pane',
  summaries: { pane: 'split, resize, focus, close and list panes' },
  tools,
  commands,
  phrases: {
    'openspace.pane.open': open,
    'openspace.pane.close': fixed('close', 'a pane'),
    'openspace.pane.focus': fixed('focus', 'a pane'),
    'openspace.pane.list': fixed('list', 'the open panes'),
    'openspace.pane.resize': fixed('resize', 'a pane'),
  },
});
