/** Latency workloads of the whiteboard tools (conformance/specs/latency.test.ts measures them; see src/families/latency.ts). */
import type { LatencyWorkloads } from '../latency.js';
import type tools from './tools.js';

const workloads: LatencyWorkloads<typeof tools> = ({ ok, openDeckAndBoard, BOARD }) => {
  return {
    'openspace.whiteboard.list': { before: openDeckAndBoard, prepare: () => ({}) },
    'openspace.whiteboard.read': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
    'openspace.whiteboard.create': { prepare: (i) => ({ whiteboardId: `latency/new-${i}.whiteboard.json`, title: `Board ${i}` }) },
    'openspace.whiteboard.add_shape': {
      before: openDeckAndBoard,
      prepare: (i) => ({ whiteboardId: BOARD, shape: { type: 'box', id: `added-${i}`, label: `Added ${i}` } }),
      cleanup: async (i) => void (await ok('openspace.whiteboard.delete_shape', { whiteboardId: BOARD, shapeId: `added-${i}` })),
    },
    'openspace.whiteboard.update_shape': {
      before: openDeckAndBoard,
      prepare: (i) => ({ whiteboardId: BOARD, shapeId: 'api', updates: { x: (i % 2) * 100, label: `API ${i}` } }),
    },
    'openspace.whiteboard.delete_shape': {
      before: openDeckAndBoard,
      prepare: async (i) => {
        await ok('openspace.whiteboard.add_shape', { whiteboardId: BOARD, shape: { type: 'note', id: `gone-${i}`, label: 'soon gone' } });
        return { whiteboardId: BOARD, shapeId: `gone-${i}` };
      },
    },
    'openspace.whiteboard.open': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
    'openspace.whiteboard.camera.set': { before: openDeckAndBoard, prepare: (i) => ({ whiteboardId: BOARD, x: i * 10, y: 0, zoom: 1 }) },
    'openspace.whiteboard.camera.fit': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
    'openspace.whiteboard.camera.get': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
    'openspace.whiteboard.layout': {
      before: openDeckAndBoard,
      prepare: (i) => ({ whiteboardId: BOARD, direction: i % 2 ? 'right' : 'down' }),
    },
  };
};

export default workloads;
