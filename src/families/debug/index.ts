import { defineFamily } from '../family.js';
import { fixed, onFile, quoted, str } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './state.js';
export * from './commands.js';

export default defineFamily({
  name: 'debug',
  summaries: { debug: 'run a program under a debugger: breakpoints, stepping, the stack, variables, evaluate' },
  tools,
  commands,
  phrases: {
    'openspace.debug.start': onFile('debug', { key: 'program' }),
    'openspace.debug.attach': (input) => ({
      verb: 'attach the debugger to',
      rest: input.pid !== undefined ? `process ${String(input.pid)}` : `port ${String(input.port)}`,
    }),
    'openspace.debug.stop': fixed('stop', 'the debug session'),
    'openspace.debug.breakpoint.set': (input) => {
      const at = onFile('set', { before: 'a breakpoint at', line: 'line' })(input);
      const condition = str(input, 'condition');
      return condition ? { ...at, rest: `${at.rest} when ${quoted(condition)}` } : at;
    },
    'openspace.debug.breakpoint.remove': onFile('remove', { before: 'breakpoints at', line: 'line' }),
    'openspace.debug.breakpoint.list': fixed('list', 'the breakpoints'),
    'openspace.debug.continue': fixed('continue', 'the program'),
    'openspace.debug.pause': fixed('pause', 'the program'),
    'openspace.debug.step': (input) => ({ verb: 'step', rest: str(input, 'kind') ?? 'over' }),
    'openspace.debug.run_to': onFile('run to', { line: 'line' }),
    'openspace.debug.wait': fixed('wait for', 'the program to stop'),
    'openspace.debug.stack': fixed('read', 'the call stack'),
    'openspace.debug.variables': (input) => ({
      verb: 'read',
      rest: str(input, 'path') ? quoted(str(input, 'path')) : 'the local variables',
    }),
    'openspace.debug.evaluate': (input) => ({ verb: 'evaluate', rest: quoted(str(input, 'expression')) }),
    'openspace.debug.set_variable': (input) => ({ verb: 'set', rest: `${quoted(str(input, 'path'))} to ${quoted(str(input, 'value'))}` }),
  },
  preferences: [
    {
      use: 'openspace.debug.start',
      insteadOf: 'print statements added to find a cause',
      why: 'a breakpoint shows the stack and every local without changing the code',
    },
  ],
});
