import { defineFamily } from '../family.js';
import { fixed } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './commands.js';

export default defineFamily({
  name: 'events',
  summaries: { events: "what the person did: opens, saves, edits, commands' ends" },
  tools,
  commands,
  phrases: {
    'openspace.events.query': fixed('check', 'recent IDE events'),
    'openspace.events.configure': fixed('configure', 'IDE events'),
  },
});
