/** Latency workloads of the events tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = () => ({
  'openspace.events.query': { prepare: (i) => (i % 2 ? { limit: 50 } : { since: 0, types: ['file.saved', 'file.opened'] }) },
  'openspace.events.configure': { prepare: (i) => (i % 2 ? { ignore: ['layout.changed'] } : { receive: ['layout.changed'] }) },
});

export default workloads;
