import { defineFamily } from '../family.js';
import { fixed, named, quoted, str } from '../phrases.js';
import tools from './tools.js';
import commands from './commands.js';

export * from './tools.js';
export * from './port.js';
export * from './commands.js';

export default defineFamily({
  name: 'whiteboard',
  summaries: { whiteboard: 'Excalidraw boards: shapes, connectors, layout, camera' },
  tools,
  commands,
  phrases: {
    'openspace.whiteboard.list': fixed('list', 'the whiteboards'),
    'openspace.whiteboard.read': named('read', 'the whiteboard', 'whiteboardId'),
    'openspace.whiteboard.create': (input) => ({
      verb: 'create',
      rest: `a whiteboard${str(input, 'title') ? ` ${quoted(str(input, 'title'))}` : ''}`,
    }),
    'openspace.whiteboard.add_shape': fixed('draw', 'on a whiteboard'),
    'openspace.whiteboard.update_shape': fixed('change', 'a shape on a whiteboard'),
    'openspace.whiteboard.delete_shape': fixed('delete', 'a shape from a whiteboard'),
    'openspace.whiteboard.open': fixed('open', 'a whiteboard'),
    'openspace.whiteboard.camera.set': fixed('move', 'the whiteboard view'),
    'openspace.whiteboard.camera.fit': fixed('fit', 'the whiteboard view'),
    'openspace.whiteboard.camera.get': fixed('check', 'the whiteboard view'),
    'openspace.whiteboard.layout': fixed('lay out', 'a whiteboard'),
  },
});
