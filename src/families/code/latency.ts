/** Latency workloads of the code tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  /** The language server started and its project loaded (the cold start is the bench's to report). */
  const warmCode = async () => void (await ok('openspace.diagnostics.list', { path: 'code' }));
  return {
    // Code intelligence on the fixture's code/ project, the language server warm: diagnostics of a
    // file just written (untimed), with and without an error by turns.
    'openspace.diagnostics.list': {
      before: warmCode,
      prepare: async (i) => {
        await ok('openspace.file.write', { path: 'code/src/latency.ts', content: `export const n: number = ${i % 2 ? `'${i}'` : i};\n` });
        return { path: 'code/src/latency.ts' };
      },
    },
    'openspace.symbols.search': { before: warmCode, prepare: (i) => ({ query: i % 2 ? 'TaskStore' : 'formatTask' }) },
    'openspace.symbols.outline': { before: warmCode, prepare: () => ({ path: 'code/src/task-store.ts' }) },
    'openspace.code.definition': { before: warmCode, prepare: () => ({ path: 'code/src/app.ts', line: 11, column: 42 }) },
    'openspace.code.references': {
      before: warmCode,
      prepare: (i) => (i % 2 ? { symbol: 'TaskStore.add' } : { path: 'code/src/task-store.ts', line: 2, column: 18 }),
    },
    'openspace.code.hover': { before: warmCode, prepare: () => ({ path: 'code/src/app.ts', line: 5, column: 7 }) },
  };
};

export default workloads;
