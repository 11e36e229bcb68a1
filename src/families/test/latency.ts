/**
 * Latency workloads of the test tools (see src/families/latency.ts). Discovering and running tests
 * take the runner's own time: npm run bench measures a run beside the runner run directly. What the
 * IDE answers by itself is timed here: the last results, and a cancel with nothing running.
 */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => ({
  'openspace.test.discover': {
    untimed: "the runner's own time (it loads every test file); npm run bench times test.run beside the runner",
  },
  'openspace.test.run': {
    untimed: "the runner's own time: npm run bench times one test and a 200-test file beside node --test run directly",
  },
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
