import { defineFamily } from '../family.js';
import { fixed } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './commands.js';

export default defineFamily({
  name: 'context',
  summaries: { context: 'what the person has in front of them' },
  tools,
  commands,
  phrases: { 'openspace.context.get': fixed('check', 'what is open in the IDE') },
  preferences: [
    {
      use: 'openspace.context.get',
      insteadOf: 'guessing what "this" or "here" means',
      why: 'it names the current file, the selection and its text',
    },
  ],
});
