import { defineFamily } from '../family.js';
import { fixed, named, quoted, shorten, str } from '../phrases.js';
import tools from './tools.js';
import terminalCommands from './commands.js';
import runCommands from './run.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';
export * from './run.js';
export * from './output.js';
export * from './access.js';
export * from './shell-integration.js';

export default defineFamily({
  name: 'terminal',
  summaries: { terminal: 'create, list and close terminals' },
  tools,
  commands: [...terminalCommands, ...runCommands],
  phrases: {
    'openspace.terminal.create': named('open', 'a terminal', 'title'),
    'openspace.terminal.send': (input) => ({ verb: 'send', rest: `${quoted(str(input, 'text')) || 'text'} to a terminal` }),
    'openspace.terminal.read_output': fixed('read', 'terminal output'),
    'openspace.terminal.list': fixed('list', 'the terminals'),
    'openspace.terminal.close': fixed('close', 'a terminal'),
    'openspace.terminal.run': (input) => ({ verb: 'run', rest: shorten(str(input, 'command') ?? 'a command') }),
  },
  preferences: [
    {
      use: 'openspace.terminal.*',
      insteadOf: 'a shell of your own',
      why: 'commands run in a terminal the person can see, sandboxed on Linux, and any not known to be safe waits for their yes',
    },
  ],
});
