import { defineFamily } from '../family.js';
import { lineSuffix, num, onFile, quoted, str, type Describe, type PhraseInput } from '../phrases.js';
import tools from './tools.js';
import editorCommands from './commands.js';
import reviewCommands from './review.js';
import searchReplaceCommands from './search-replace.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';
export * from './review.js';
export * from './search-replace.js';
export * from './highlights.js';

const highlight: Describe = (input) => {
  const path = str(input, 'path');
  const ranges = Array.isArray(input.ranges) ? (input.ranges as PhraseInput[]) : [];
  const first = ranges[0] ?? input;
  const line = num(first, 'startLine');
  const more = ranges.length > 1 ? ` (+${ranges.length - 1} more)` : '';
  if (!path) return { verb: 'highlight', rest: 'lines in an editor' };
  return { verb: 'highlight', rest: `${path}${lineSuffix(line, num(first, 'endLine'))}${more}`, path, line };
};

/** One file's edit, or a change set's files. */
const propose: Describe = (input) => {
  const edits = Array.isArray(input.edits) ? (input.edits as PhraseInput[]) : undefined;
  if (!edits) return onFile('propose', { before: 'an edit to' })(input);
  const first = str(edits[0] ?? {}, 'path');
  if (edits.length === 1 && first) return { verb: 'propose', rest: `an edit to ${first}`, path: first };
  return { verb: 'propose', rest: `edits to ${edits.length} files` };
};

export default defineFamily({
  name: 'editor',
  summaries: {
    editor: 'close, scroll, highlight, replace ranges, propose edits across files, reviewed hunk by hunk',
    search: 'replace across files, reviewed hunk by hunk',
  },
  tools,
  commands: [...editorCommands, ...reviewCommands, ...searchReplaceCommands],
  phrases: {
    'openspace.editor.open': onFile('open', { line: 'line', end: 'endLine' }),
    'openspace.editor.read_file': onFile('read', { line: 'startLine', end: 'endLine' }),
    'openspace.editor.close': onFile('close'),
    'openspace.editor.scroll_to': onFile('scroll to', { line: 'line' }),
    'openspace.editor.highlight': highlight,
    'openspace.editor.clear_highlight': (input) =>
      str(input, 'path') ? onFile('clear', { before: 'highlights in' })(input) : { verb: 'clear', rest: 'a highlight' },
    'openspace.editor.replace_range': onFile('replace', { before: 'lines of', line: 'startLine', end: 'endLine' }),
    'openspace.editor.propose_edit': propose,
    'openspace.search.replace': (input) => ({ verb: 'replace', rest: `${quoted(str(input, 'query'))} across files` }),
  },
  preferences: [
    { use: 'openspace.editor.read_file', insteadOf: 'reading the file from disk', why: 'it reads the editor, unsaved changes included' },
    {
      use: 'openspace.editor.propose_edit',
      insteadOf: 'writing a change the person has not seen',
      why: 'they review it as a diff, accepting or rejecting each hunk, and the answer says which',
    },
    { use: 'openspace.editor.open with a line', insteadOf: 'naming a place in prose', why: 'the person sees it: the editor opens there' },
  ],
});
