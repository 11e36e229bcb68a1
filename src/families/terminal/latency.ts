/** Latency workloads of the terminal tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  let sendTerminal = '';
  let runTerminal = '';
  let lastFinished: string | undefined;

  /** Until the terminal's last command has ended (shell integration's end mark), at most 2 s. */
  async function commandEnded(terminalId: string): Promise<void> {
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline) {
      const { lastCommand } = await ok('openspace.terminal.read_output', { terminalId, lines: 1 });
      if (lastCommand && lastCommand.finishedAt !== lastFinished) {
        lastFinished = lastCommand.finishedAt;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return {
    'openspace.terminal.create': {
      prepare: (i) => ({ title: `latency-create-${i}` }),
      undo: { tool: 'openspace.terminal.close', args: (_i, result) => ({ terminalId: result.terminalId }) },
    },
    'openspace.terminal.send': {
      before: async () => void (sendTerminal = (await ok('openspace.terminal.create', { title: 'latency-send' })).terminalId),
      prepare: (i) => ({ terminalId: sendTerminal, text: `echo sample-${i}` }),
      // The command ended before the next send is timed, as an agent reads its output between sends:
      // a send to a shell still printing waits for its prompt (up to 500 ms), which is not the send's time.
      cleanup: async () => void (await commandEnded(sendTerminal)),
    },
    'openspace.terminal.read_output': { prepare: () => ({ terminalId: sendTerminal, lines: 20 }) },
    // A quick command, from typing it to its exit status (shell integration's end mark).
    'openspace.terminal.run': {
      before: async () => void (runTerminal = (await ok('openspace.terminal.create', { title: 'latency-run' })).terminalId),
      prepare: () => ({ terminalId: runTerminal, command: 'true' }),
    },
    'openspace.terminal.list': { prepare: () => ({}) },
    // Measured with terminal.create above (its undo); on its own when run alone.
    'openspace.terminal.close': {
      prepare: async (i) => ({ terminalId: (await ok('openspace.terminal.create', { title: `latency-close-${i}` })).terminalId }),
    },
  };
};

export default workloads;
