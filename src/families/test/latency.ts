/**
 * Latency workloads of the test tools (see src/families/latency.ts). Discovering and running tests
 * take the runner's own time: npm run bench measures them beside the runner run directly. What the
 * IDE answers by itself is timed here: the last results, and a cancel with nothing running.
 */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => ({
  'openspace.test.discover': { bench: "node --test's own time, run directly beside test.discover" },
  'openspace.test.run': { bench: "one test and a 200-test file, each beside the runner's own time" },
  'openspace.test.results': {
    needs: 'disk',
    before: async () => {
      await ok('openspace.file.write', { path: 'package.json', content: '{ "scripts": { "test": "node --test" } }\n' });
      await ok('openspace.file.write', {
        path: 'latency.test.mjs',
        content: "import { test } from 'node:test';\ntest('adds', () => {});\ntest('skips', { skip: true }, () => {});\n",
      });
      await ok('openspace.test.run', { paths: ['latency.test.mjs'] });
    },
    prepare: () => ({}),
  },
  'openspace.test.cancel': { prepare: () => ({}) },
});

export default workloads;
