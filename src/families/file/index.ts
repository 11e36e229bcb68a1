import { defineFamily } from '../family.js';
import { onFile, quoted, str } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';

export default defineFamily({
  name: 'file',
  summaries: { file: 'snapshots of a file and restoring one' },
  tools,
  commands,
  phrases: {
    'openspace.file.read': onFile('read', { line: 'startLine', end: 'endLine' }),
    'openspace.file.write': onFile('write'),
    'openspace.file.list': (input) => ({ verb: 'list', rest: `files in ${str(input, 'path') ?? 'the workspace'}` }),
    'openspace.file.search': (input) => ({ verb: 'search', rest: `for ${quoted(str(input, 'query')) || 'text'}` }),
    'openspace.file.patch': onFile('patch'),
    'openspace.file.snapshots': onFile('list', { before: 'the versions of' }),
    'openspace.file.restore': onFile('restore'),
  },
  preferences: [
    {
      use: 'openspace.file.patch',
      insteadOf: 'rewriting a file',
      why: "the person sees the edit land in the open editor, and a stale base version answers CONFLICT instead of losing the person's work",
    },
    { use: 'openspace.file.list', insteadOf: 'ls and find', why: 'it honours .gitignore and never shows a sensitive file' },
  ],
});
