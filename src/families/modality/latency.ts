/** Latency workloads of the modality tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ openDeckAndBoard }) => {
  return {
    'openspace.modality.list': { before: openDeckAndBoard, prepare: () => ({}) },
    'openspace.modality.focus': { before: openDeckAndBoard, prepare: (i) => ({ modalityId: i % 2 ? 'presentation' : 'whiteboard' }) },
  };
};

export default workloads;
