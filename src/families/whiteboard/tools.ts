import { z } from 'zod';
import { Version } from '../file/tools.js';
import { defineTool } from '../../contract/tool.js';

/** A board is a file whose name ends so. */
export const BOARD_SUFFIX = '.whiteboard.json';

export const WhiteboardId = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[^\u0000]*\.whiteboard\.json$/, 'must be the path of a .whiteboard.json file')
  .describe('Workspace-relative path of a .whiteboard.json file (an Excalidraw scene), e.g. "docs/arch.whiteboard.json"');

/** The shapes an agent asks for by meaning (TECHSPEC §5.3.3). */
export const NODE_TYPES = [
  'box',
  'rounded-box',
  'ellipse',
  'diamond',
  'cylinder',
  'cloud',
  'actor',
  'text',
  'note',
  'class',
  'interface',
  'state',
  'initial-state',
  'final-state',
  'process',
  'decision',
  'start-end',
  'input-output',
  'lifeline',
  'activation',
] as const;
export const CONNECTOR_TYPES = ['arrow', 'line'] as const;

const ShapeId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, 'letters, digits, "_", ".", ":" and "-" only');
const Coordinate = z.number().min(-1_000_000).max(1_000_000);
const Size = z.number().min(1).max(100_000);
const Color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$|^transparent$/, 'a colour as #rrggbb')
  .describe('Fill colour as #rrggbb');
const Members = z.array(z.string().max(500)).max(200);

const ShapeFields = {
  label: z.string().max(10_000).optional().describe('Text shown in the shape (the name, for class and interface boxes)'),
  x: Coordinate.optional().describe('Left edge in scene units; omit x and y to place the shape automatically'),
  y: Coordinate.optional().describe('Top edge in scene units'),
  width: Size.optional(),
  height: Size.optional(),
  color: Color.optional(),
  attributes: Members.optional().describe('Class and interface boxes: attribute lines, e.g. "- id: string"'),
  methods: Members.optional().describe('Class and interface boxes: method lines, e.g. "+ save(): void"'),
};

export const ShapeSpec = z.strictObject({
  type: z.enum([...NODE_TYPES, ...CONNECTOR_TYPES]).describe('What the shape means; "arrow" and "line" connect two shapes (from, to)'),
  id: ShapeId.optional().describe('Your ID for the shape (default: one is made from the type)'),
  from: ShapeId.optional().describe('Connectors: the shape it starts at'),
  to: ShapeId.optional().describe('Connectors: the shape it points to'),
  ...ShapeFields,
});

export const ShapeUpdates = z.strictObject({ ...ShapeFields, from: ShapeId.optional(), to: ShapeId.optional() });

const Bounds = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/** A shape as `read` answers it: what it means, not how Excalidraw draws it. */
export const ShapeInfo = z.object({
  id: z.string(),
  type: z.string().describe('A semantic type, or the Excalidraw element type of a shape a person drew (e.g. "freedraw")'),
  label: z.string().optional(),
  bounds: Bounds,
  color: z.string().optional(),
  attributes: z.array(z.string()).optional(),
  methods: z.array(z.string()).optional(),
  from: z.string().optional().describe('Connectors: the shape they start at'),
  to: z.string().optional().describe('Connectors: the shape they point to'),
  connections: z.array(z.string()).optional().describe('Shapes: the connectors attached to them'),
});
export type ShapeInfo = z.infer<typeof ShapeInfo>;

export const CameraSchema = z.object({
  x: z.number().describe('Scene x at the centre of the view'),
  y: z.number().describe('Scene y at the centre of the view'),
  zoom: z.number().describe('1 is 100%'),
});

const BaseVersion = Version.optional().describe('Change the board only if it is still at this version (from read), else CONFLICT');

export const whiteboardList = defineTool({
  name: 'openspace.whiteboard.list',
  title: 'List Whiteboards',
  description: 'List the whiteboards (.whiteboard.json files) in the workspace with their titles and shape counts, and which are open.',
  input: z.strictObject({}),
  output: z.object({
    whiteboards: z.array(z.object({ whiteboardId: z.string(), title: z.string(), shapeCount: z.number().int(), open: z.boolean() })),
    truncated: z.boolean(),
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const whiteboardRead = defineTool({
  name: 'openspace.whiteboard.read',
  title: 'Read Whiteboard',
  description:
    'Read a whiteboard as shapes with meaning: ID, type, label, bounds, and for connectors the shapes they join; ' +
    'shapes a person drew are included. Also its version (pass it as baseVersion to change it only if no one else did).',
  input: z.strictObject({ whiteboardId: WhiteboardId }),
  output: z.object({
    whiteboardId: z.string(),
    title: z.string(),
    shapes: z.array(ShapeInfo),
    version: Version,
    open: z.boolean(),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const whiteboardCreate = defineTool({
  name: 'openspace.whiteboard.create',
  title: 'Create Whiteboard',
  description:
    'Create an empty whiteboard file (an Excalidraw scene, so other Excalidraw tools open it too). ' +
    'Fails with ALREADY_EXISTS rather than overwrite a file. Show it with openspace.whiteboard.open.',
  input: z.strictObject({ whiteboardId: WhiteboardId, title: z.string().min(1).max(200) }),
  output: z.object({ whiteboardId: z.string(), version: Version }),
  budget: 'simple',
  effect: 'write',
  session: {},
});

export const whiteboardAddShape = defineTool({
  name: 'openspace.whiteboard.add_shape',
  title: 'Add Shape',
  description:
    'Add a shape by meaning: box, rounded-box, ellipse, diamond, cylinder, cloud, actor, text, note; class and interface (label = name, ' +
    'attributes, methods); state, initial-state, final-state; process, decision, start-end, input-output; lifeline, activation; ' +
    'or a connector ("arrow"/"line" with from and to shape IDs, optional label) that stays attached when either shape moves. ' +
    'Without x and y the shape is placed beside the others; openspace.whiteboard.layout arranges the whole board.',
  input: z.strictObject({ whiteboardId: WhiteboardId, shape: ShapeSpec, baseVersion: BaseVersion }),
  output: z.object({ whiteboardId: z.string(), shapeId: z.string(), shape: ShapeInfo, version: Version }),
  budget: 'simple',
  effect: 'write',
  session: {},
});

export const whiteboardUpdateShape = defineTool({
  name: 'openspace.whiteboard.update_shape',
  title: 'Update Shape',
  description:
    "Change a shape: its label, position, size, colour, class members, or a connector's ends. Connectors attached to a moved shape follow it.",
  input: z.strictObject({ whiteboardId: WhiteboardId, shapeId: ShapeId, updates: ShapeUpdates, baseVersion: BaseVersion }),
  output: z.object({ whiteboardId: z.string(), shape: ShapeInfo, version: Version }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export const whiteboardDeleteShape = defineTool({
  name: 'openspace.whiteboard.delete_shape',
  title: 'Delete Shape',
  description: 'Delete a shape, its label and the connectors attached to it.',
  input: z.strictObject({ whiteboardId: WhiteboardId, shapeId: ShapeId, baseVersion: BaseVersion }),
  output: z.object({
    whiteboardId: z.string(),
    deleted: z.array(z.string()).describe('The shape and the connectors deleted with it'),
    version: Version,
  }),
  budget: 'simple',
  effect: 'destructive',
  session: {},
});

export const whiteboardOpen = defineTool({
  name: 'openspace.whiteboard.open',
  title: 'Open Whiteboard',
  description:
    'Show a whiteboard in a tab (or reveal its open tab), where the person can draw too. splitDirection "vertical" places it beside the code.',
  input: z.strictObject({
    whiteboardId: WhiteboardId,
    targetPaneId: z.string().min(1).optional().describe('Pane to open in or split; defaults to the active pane of the main area'),
    splitDirection: z.enum(['horizontal', 'vertical']).optional().describe('"vertical": new pane to the right; "horizontal": below'),
  }),
  output: z.object({
    whiteboardId: z.string(),
    paneId: z.string(),
    opened: z.boolean().describe('true when this call opened a new tab'),
    shapeCount: z.number().int(),
  }),
  budget: 'simple',
  effect: 'write',
  session: { creates: (r) => (r.opened ? [{ kind: 'tab', id: r.whiteboardId }] : []) },
});

export const whiteboardCameraSet = defineTool({
  name: 'openspace.whiteboard.camera.set',
  title: 'Set Whiteboard Camera',
  description:
    "Point an open whiteboard's view at a scene point (its centre) with a zoom (1 = 100%). PANE_NOT_FOUND when the board is not open.",
  input: z.strictObject({ whiteboardId: WhiteboardId, x: Coordinate, y: Coordinate, zoom: z.number().min(0.1).max(30) }),
  output: z.object({ whiteboardId: z.string(), camera: CameraSchema }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export const whiteboardCameraFit = defineTool({
  name: 'openspace.whiteboard.camera.fit',
  title: 'Fit Whiteboard Camera',
  description:
    "Zoom an open whiteboard's view to show every shape, or the shapes named in shapeIds. PANE_NOT_FOUND when the board is not open.",
  input: z.strictObject({ whiteboardId: WhiteboardId, shapeIds: z.array(ShapeId).min(1).max(1000).optional() }),
  output: z.object({ whiteboardId: z.string(), camera: CameraSchema }),
  budget: 'simple',
  effect: 'write',
  idempotent: true,
  session: {},
});

export const whiteboardCameraGet = defineTool({
  name: 'openspace.whiteboard.camera.get',
  title: 'Get Whiteboard Camera',
  description: "Where an open whiteboard's view looks (the scene point at its centre and the zoom), as a person may have panned it.",
  input: z.strictObject({ whiteboardId: WhiteboardId }),
  output: z.object({
    whiteboardId: z.string(),
    camera: CameraSchema,
    viewport: z.object({ width: z.number(), height: z.number() }).describe('The view in screen pixels'),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const whiteboardLayout = defineTool({
  name: 'openspace.whiteboard.layout',
  title: 'Lay Out Whiteboard',
  description:
    'Arrange every shape as a layered graph along its connectors (dagre), in a direction: "down" (default), "right", "up" or "left". ' +
    'Connectors stay attached.',
  input: z.strictObject({
    whiteboardId: WhiteboardId,
    direction: z.enum(['down', 'right', 'up', 'left']).optional(),
    baseVersion: BaseVersion,
  }),
  output: z.object({ whiteboardId: z.string(), moved: z.number().int().describe('How many shapes moved'), version: Version }),
  budget: 'simple',
  effect: 'write',
  session: {},
});

export default [
  whiteboardList,
  whiteboardRead,
  whiteboardCreate,
  whiteboardAddShape,
  whiteboardUpdateShape,
  whiteboardDeleteShape,
  whiteboardOpen,
  whiteboardCameraSet,
  whiteboardCameraFit,
  whiteboardCameraGet,
  whiteboardLayout,
];
