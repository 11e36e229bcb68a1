/** Latency workloads of the editor tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  return {
    'openspace.editor.open': { prepare: (i) => ({ path: 'src/index.ts', line: i % 2 ? 42 : 80 }) },
    'openspace.editor.read_file': { prepare: () => ({ path: 'src/index.ts', startLine: 1, endLine: 50 }) },
    'openspace.editor.close': {
      prepare: async () => {
        await ok('openspace.editor.open', { path: 'notes.txt' });
        return { path: 'notes.txt' };
      },
    },
    'openspace.editor.scroll_to': {
      before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
      prepare: (i) => ({ path: 'src/index.ts', line: i % 2 ? 10 : 90 }),
    },
    'openspace.editor.highlight': {
      before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
      prepare: () => ({ path: 'src/index.ts', ranges: [{ startLine: 42, endLine: 50 }], highlightId: 'latency' }),
    },
    'openspace.editor.clear_highlight': {
      before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
      prepare: async () => {
        await ok('openspace.editor.highlight', {
          path: 'src/index.ts',
          ranges: [{ startLine: 1, endLine: 2 }],
          highlightId: 'latency-clear',
        });
        return { highlightId: 'latency-clear' };
      },
    },
    // One line of an open file's buffer replaced, by turns with one and two lines.
    'openspace.editor.replace_range': {
      before: async () => void (await ok('openspace.file.write', { path: 'latency/replace.txt', content: 'a\nb\nc\n' })),
      prepare: (i) => ({ path: 'latency/replace.txt', startLine: 2, endLine: 2 + (i % 2), newText: i % 2 ? `b${i}` : `b${i}\nc` }),
    },
    // One proposal revised on every call, answered pending at once: the time to show its diff.
    'openspace.editor.propose_edit': {
      before: async () => void (await ok('openspace.file.write', { path: 'latency/proposal.txt', content: 'base\n' })),
      prepare: (i) => ({ path: 'latency/proposal.txt', newText: `proposed ${i}\n`, proposalId: 'latency', timeoutMs: 0 }),
    },
    // A word in two files replaced, answered pending at once: the search, the reads and the diffs shown.
    'openspace.search.replace': {
      before: async () => {
        await ok('openspace.file.write', { path: 'latency/replace-a.txt', content: 'alpha beta\n' });
        await ok('openspace.file.write', { path: 'latency/replace-b.txt', content: 'beta gamma\n' });
      },
      prepare: (i) => ({ query: 'beta', replacement: `beta${i}`, path: 'latency', proposalId: 'latency-replace', timeoutMs: 0 }),
    },
  };
};

export default workloads;
