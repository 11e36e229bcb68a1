/**
 * Latency workloads of the debug tools (see src/families/latency.ts), on one Python program stopped
 * in a loop at a breakpoint: a continue is a breakpoint hit answered with its snapshot (the stack,
 * the locals and the output since the last answer). Starting a debugger and ending one take the
 * adapter's own time (about 0.7 s for debugpy), which these budgets are not about. Timed on the
 * workspace on disk only: the in-memory one runs its programs in a copy on disk, the same code, and
 * a debugged loop beside the other latency run would take the CPU its measurements need.
 */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const PROGRAM = 'latency/loop.py';
/** Line 4 holds the breakpoint every continue comes back to. */
const LOOP = `import time
count = 0
while True:
    count += 1
    total = count * 2
`;

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  let session: Promise<string> | undefined;
  let breakpoint = '';
  /** A session stopped at line 4, started by the first tool that needs it. */
  const stopped = () =>
    (session ??= (async () => {
      await ok('openspace.file.write', { path: PROGRAM, content: LOOP });
      breakpoint = (await ok('openspace.debug.breakpoint.set', { path: PROGRAM, line: 4 })).id;
      return (await ok('openspace.debug.start', { program: PROGRAM, waitMs: 30_000 })).sessionId as string;
    })());
  const onStopped = (extra: Record<string, unknown> = {}) => ({
    needs: 'disk' as const,
    before: async () => void (await stopped()),
    prepare: async () => ({ sessionId: await stopped(), ...extra }),
  });
  return {
    'openspace.debug.start': { untimed: "the debugger's own start (debugpy: about 0.7 s); the continue below times a breakpoint hit" },
    'openspace.debug.attach': { untimed: "the debugger's own start, as for debug.start, on a program the person started" },
    'openspace.debug.stop': { untimed: "the debugger's own end (the adapter and its program stop)" },
    'openspace.debug.breakpoint.set': {
      needs: 'disk',
      before: async () => void (await stopped()),
      prepare: () => ({ path: PROGRAM, line: 5, condition: 'count < 0' }),
      undo: { tool: 'openspace.debug.breakpoint.remove', args: (_, result) => ({ id: result.id }) },
    },
    // Measured with breakpoint.set above (its undo); on its own when run alone.
    'openspace.debug.breakpoint.remove': {
      needs: 'disk',
      before: async () => void (await stopped()),
      prepare: async () => ({ id: (await ok('openspace.debug.breakpoint.set', { path: PROGRAM, line: 5, condition: 'count < 0' })).id }),
    },
    'openspace.debug.breakpoint.list': { prepare: () => ({}) },
    'openspace.debug.continue': onStopped(),
    'openspace.debug.pause': onStopped(),
    'openspace.debug.step': onStopped(),
    'openspace.debug.run_to': onStopped({ path: PROGRAM, line: 5 }),
    'openspace.debug.wait': onStopped(),
    'openspace.debug.stack': onStopped(),
    'openspace.debug.variables': onStopped(),
    'openspace.debug.evaluate': onStopped({ expression: 'count * 3' }),
    'openspace.debug.set_variable': {
      ...onStopped({ path: 'count', value: '7' }),
      after: async () => {
        await ok('openspace.debug.stop', { sessionId: await stopped() });
        await ok('openspace.debug.breakpoint.remove', { id: breakpoint });
        session = undefined;
      },
    },
  };
};

export default workloads;
