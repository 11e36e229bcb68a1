import { defineFamily } from '../family.js';
import { fixed, str } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './commands.js';
export * from './problems.js';

export default defineFamily({
  name: 'task',
  summaries: { task: 'list, run and stop package.json scripts in a terminal, with tsc and ESLint problems at file:line' },
  tools,
  commands,
  phrases: {
    'openspace.task.list': fixed('list', 'the tasks'),
    'openspace.task.run': (input) => ({ verb: 'run', rest: `the task ${str(input, 'name') ?? ''}`.trim() }),
    'openspace.task.cancel': (input) => ({ verb: 'stop', rest: `the task ${str(input, 'name') ?? ''}`.trim() }),
  },
  preferences: [
    {
      use: 'openspace.task.run',
      insteadOf: 'npm run in a terminal',
      why: 'tsc and ESLint problems come at file:line',
    },
  ],
});
