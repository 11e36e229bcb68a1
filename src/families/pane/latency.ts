/** Latency workloads of the pane tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok }) => {
  let mainPane = '';
  let splitPane = '';
  return {
    'openspace.pane.open': {
      // Beside a file the person has open, as an agent mostly does (into an empty editor area, Theia
      // first builds the area's tab bar: about 10 ms more here).
      before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
      prepare: () => ({ type: 'editor', contentId: 'notes.txt' }),
      undo: { tool: 'openspace.pane.close', args: () => ({ contentId: 'notes.txt' }) },
    },
    // Measured with pane.open above (its undo); on its own when run alone.
    'openspace.pane.close': {
      prepare: async () => {
        await ok('openspace.pane.open', { type: 'editor', contentId: 'README.md' });
        return { contentId: 'README.md' };
      },
    },
    'openspace.pane.focus': {
      before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
      prepare: () => ({ contentId: 'src/index.ts' }),
    },
    'openspace.pane.list': { prepare: () => ({}) },
    'openspace.pane.resize': {
      // A real resize: the editor area split in two, the left pane made 40% or 60% of the window wide.
      before: async () => {
        await ok('openspace.editor.open', { path: 'src/index.ts' });
        splitPane = (await ok('openspace.pane.open', { type: 'editor', contentId: 'docs/guide.md', splitDirection: 'vertical' })).paneId;
        const { panes } = await ok('openspace.pane.list');
        mainPane = panes.find((p: { area: string; id: string }) => p.area === 'main' && p.id !== splitPane).id;
      },
      prepare: (i) => ({ paneId: mainPane, width: i % 2 ? 40 : 60 }),
      after: async () => void (await ok('openspace.pane.close', { paneId: splitPane })),
    },
  };
};

export default workloads;
