/** Latency workloads of the context tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ openDeckAndBoard }) => {
  return {
    // The whole context with an editor, a deck and a board open.
    'openspace.context.get': { before: openDeckAndBoard, prepare: () => ({}) },
  };
};

export default workloads;
