/** Latency workloads of the presentation tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok, openDeckAndBoard, DECK }) => {
  return {
    // Presentations and whiteboards: a 5-slide deck and a board with six shapes, both open beside the code.
    'openspace.presentation.list': { before: openDeckAndBoard, prepare: () => ({}) },
    'openspace.presentation.read': { before: openDeckAndBoard, prepare: () => ({ deckPath: DECK }) },
    'openspace.presentation.create': {
      prepare: (i) => ({ deckPath: `latency/new-${i}.deck.md`, title: `Deck ${i}` }),
    },
    'openspace.presentation.update_slide': {
      before: openDeckAndBoard,
      prepare: (i) => ({ deckPath: DECK, slideIndex: i % 5, content: `## Slide ${i % 5}\n\nChanged ${i} times.` }),
    },
    'openspace.presentation.open': { before: openDeckAndBoard, prepare: (i) => ({ deckPath: DECK, slideIndex: i % 5 }) },
    'openspace.presentation.navigate': { before: openDeckAndBoard, prepare: (i) => ({ deckPath: DECK, slideIndex: i % 5 }) },
    'openspace.presentation.play': {
      before: openDeckAndBoard,
      prepare: () => ({ deckPath: DECK, intervalMs: 60_000 }),
      cleanup: async () => void (await ok('openspace.presentation.stop', { deckPath: DECK })),
    },
    'openspace.presentation.pause': {
      before: openDeckAndBoard,
      prepare: async () => {
        await ok('openspace.presentation.play', { deckPath: DECK, intervalMs: 60_000 });
        return { deckPath: DECK };
      },
    },
    'openspace.presentation.stop': { before: openDeckAndBoard, prepare: () => ({ deckPath: DECK }) },
  };
};

export default workloads;
