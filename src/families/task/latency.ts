/**
 * Latency workloads of the task tools (see src/families/latency.ts). Running a task takes the
 * script's own time, as terminal.run does; what is timed is a script that does nothing.
 */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = () => ({
  'openspace.task.list': { prepare: () => ({}) },
  'openspace.task.run': {
    untimed: "the script's and npm's own time (npm starts in ~300 ms); the terminal path it runs through is terminal.run's, timed here",
  },
  'openspace.task.cancel': { prepare: () => ({ name: 'build' }) },
});

export default workloads;
