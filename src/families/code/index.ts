import { defineFamily } from '../family.js';
import { lineSuffix, named, num, onFile, quoted, str, type Describe } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';

const lookUp =
  (what: string): Describe =>
  (input) => {
    const symbol = str(input, 'symbol');
    const path = str(input, 'path');
    const line = num(input, 'line');
    if (symbol) return { verb: 'look up', rest: `${what} ${quoted(symbol)}`, path, line };
    if (path) return { verb: 'look up', rest: `${what} at ${path}${lineSuffix(line)}`, path, line };
    return { verb: 'look up', rest: what };
  };

export default defineFamily({
  name: 'code',
  summaries: {
    diagnostics: "the language server's errors and warnings",
    symbols: 'search symbols, outline a file',
    code: 'go to definition, find references, hover',
  },
  tools,
  commands,
  phrases: {
    'openspace.diagnostics.list': (input) => ({
      verb: 'check',
      rest: `problems${str(input, 'path') ? ` in ${str(input, 'path')}` : ''}`,
      path: str(input, 'path'),
    }),
    'openspace.symbols.search': named('search', 'symbols for', 'query'),
    'openspace.symbols.outline': onFile('outline'),
    'openspace.code.definition': lookUp('the definition of'),
    'openspace.code.references': lookUp('references to'),
    'openspace.code.hover': lookUp('the type of'),
  },
  preferences: [
    {
      use: 'openspace.diagnostics.list',
      insteadOf: 'running the compiler',
      why: 'structured errors from the language server at once, for the text the person sees',
    },
    {
      use: 'openspace.symbols.search, openspace.code.definition and openspace.code.references',
      insteadOf: 'grepping for a definition',
      why: 'they are language-aware and take a symbol name such as "TaskStore.add"',
    },
  ],
});
