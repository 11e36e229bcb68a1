import { defineFamily } from '../family.js';
import { fixed, num, quoted, str, type PhraseInput } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';

/** "src/a.test.ts:12", "2 tests", "src/" or "all tests" */
const which = (input: PhraseInput): string => {
  const names = Array.isArray(input.names) ? input.names : [];
  const paths = Array.isArray(input.paths) ? input.paths : [];
  if (str(input, 'path')) return `the test at ${str(input, 'path')}:${num(input, 'line') ?? ''}`;
  if (names.length === 1 && typeof names[0] === 'string') return quoted(names[0]);
  if (names.length > 1) return `${names.length} tests`;
  if (paths.length === 1 && typeof paths[0] === 'string') return paths[0];
  return paths.length > 1 ? `${paths.length} test paths` : 'all tests';
};

export default defineFamily({
  name: 'test',
  summaries: { test: 'discover tests, run one by name or line, structured failures with file:line' },
  tools,
  commands,
  phrases: {
    'openspace.test.discover': (input) => ({
      verb: 'list',
      rest: `the tests${str(input, 'path') ? ` in ${str(input, 'path')}` : ''}`,
      path: str(input, 'path'),
    }),
    'openspace.test.run': (input) => ({ verb: 'run', rest: which(input), path: str(input, 'path'), line: num(input, 'line') }),
    'openspace.test.results': fixed('read', 'the last test results'),
    'openspace.test.cancel': fixed('stop', 'the test run'),
  },
  preferences: [
    {
      use: 'openspace.test.run',
      insteadOf: 'a test command in a terminal',
      why: 'failures come with expected, actual and file:line',
    },
  ],
});
