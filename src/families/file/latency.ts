/** Latency workloads of the file tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  let patchVersion = '';
  let restoreVersion = '';
  return {
    'openspace.file.read': { prepare: () => ({ path: 'src/index.ts' }) },
    'openspace.file.write': { prepare: (i) => ({ path: 'latency.txt', content: `sample ${i}\n` }) },
    'openspace.file.list': { prepare: () => ({ recursive: true }) },
    'openspace.file.search': { prepare: () => ({ query: 'function' }) },
    'openspace.file.patch': {
      before: async () => void (patchVersion = (await ok('openspace.file.write', { path: 'patch.txt', content: 'first\n' })).version),
      prepare: (i) => ({ path: 'patch.txt', baseVersion: patchVersion, operations: [{ type: 'append', content: `line ${i}\n` }] }),
      cleanup: async (_i, result) => void (patchVersion = result.version),
    },
    'openspace.file.snapshots': { prepare: () => ({ path: 'src/index.ts' }) },
    'openspace.file.restore': {
      before: async () => {
        restoreVersion = (await ok('openspace.file.write', { path: 'restore.txt', content: 'one\n' })).version;
        await ok('openspace.file.write', { path: 'restore.txt', content: 'two\n' });
      },
      prepare: () => ({ path: 'restore.txt', version: restoreVersion }),
    },
  };
};

export default workloads;
