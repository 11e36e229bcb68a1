import {
  BOARD_SUFFIX,
  whiteboardAddShape,
  whiteboardCameraFit,
  whiteboardCameraGet,
  whiteboardCameraSet,
  whiteboardCreate,
  whiteboardDeleteShape,
  whiteboardLayout,
  whiteboardList,
  whiteboardOpen,
  whiteboardRead,
  whiteboardUpdateShape,
} from './tools.js';
import { MAX_LIST_ENTRIES } from '../file/tools.js';
import { ToolError, type CallContext } from '../../contract/index.js';
import type { IdePort, NodeIde } from '../index.js';
import { boardTitle, live, newScene, parseScene, requireShape, serializeScene, shapesOf, type Scene } from '../../models/board.js';
import { addShape, deleteShape, updateShape } from '../../models/board-edit.js';
import { boundsOf, layoutBoard } from '../../models/board-layout.js';
import { defineCommand, defineNodeCommand } from '../../commands/command.js';
import { writeOptions } from '../file/commands.js';
import { readArtifact, replaceArtifact, requireAbsent, type Artifact } from '../../commands/artifact.js';
import type { FilesIde } from '../file/commands.js';

interface LoadedBoard extends Artifact {
  scene: Scene;
}

async function loadBoard(ide: FilesIde, input: string): Promise<LoadedBoard> {
  const artifact = await readArtifact(ide, input);
  return { ...artifact, scene: parseScene(artifact.text, artifact.path) };
}

/** Change a board and write it back (optimistically: CONFLICT if anyone changed it meanwhile). */
async function change<T>(
  ide: NodeIde,
  input: { whiteboardId: string; baseVersion?: string },
  tool: string,
  context: CallContext | undefined,
  edit: (scene: Scene, path: string) => T,
): Promise<{ path: string; result: T; scene: Scene; version: string }> {
  const board = await loadBoard(ide, input.whiteboardId);
  const result = edit(board.scene, board.path);
  const version = await replaceArtifact(ide, board, serializeScene(board.scene), { tool, context, baseVersion: input.baseVersion });
  return { path: board.path, result, scene: board.scene, version };
}

function shapeInfo(scene: Scene, shapeId: string) {
  return shapesOf(scene).find((s) => s.id === shapeId)!;
}

function requireOpen(ide: IdePort, path: string): void {
  if (!ide.whiteboards.openBoards().includes(path)) {
    throw new ToolError('PANE_NOT_FOUND', `${path} is not open; show it with openspace.whiteboard.open first.`);
  }
}

export const whiteboardListCommand = defineNodeCommand(whiteboardList, async (ide) => {
  const { files, truncated } = await ide.workspace.list('', { recursive: true, limit: MAX_LIST_ENTRIES });
  const open = new Set(ide.openViews());
  const paths = files.filter((f) => f.type === 'file' && f.name.endsWith(BOARD_SUFFIX) && !f.sensitive).map((f) => f.path);
  const whiteboards = await Promise.all(
    paths.map(async (path) => {
      const board = await loadBoard(ide, path).catch(() => undefined);
      return {
        whiteboardId: path,
        title: board ? boardTitle(board.scene, path) : (path.split('/').pop() ?? path),
        shapeCount: board ? shapesOf(board.scene).length : 0,
        open: open.has(path),
      };
    }),
  );
  return { whiteboards, truncated };
});

export const whiteboardReadCommand = defineNodeCommand(whiteboardRead, async (ide, args) => {
  const board = await loadBoard(ide, args.whiteboardId);
  return {
    whiteboardId: board.path,
    title: boardTitle(board.scene, board.path),
    shapes: shapesOf(board.scene),
    version: board.version,
    open: ide.openViews().includes(board.path),
  };
});

export const whiteboardCreateCommand = defineNodeCommand(whiteboardCreate, async (ide, args, context) => {
  const path = await requireAbsent(ide, args.whiteboardId);
  const { version } = await ide.workspace.writeText(
    path,
    serializeScene(newScene(args.title)),
    writeOptions(whiteboardCreate.name, context),
  );
  return { whiteboardId: path, version };
});

export const whiteboardAddShapeCommand = defineNodeCommand(whiteboardAddShape, async (ide, args, context) => {
  const {
    path,
    result: shapeId,
    scene,
    version,
  } = await change(ide, args, whiteboardAddShape.name, context, (s, p) => addShape(s, args.shape, p));
  return { whiteboardId: path, shapeId, shape: shapeInfo(scene, shapeId), version };
});

export const whiteboardUpdateShapeCommand = defineNodeCommand(whiteboardUpdateShape, async (ide, args, context) => {
  const { path, scene, version } = await change(ide, args, whiteboardUpdateShape.name, context, (s, p) =>
    updateShape(s, args.shapeId, args.updates, p),
  );
  return { whiteboardId: path, shape: shapeInfo(scene, args.shapeId), version };
});

export const whiteboardDeleteShapeCommand = defineNodeCommand(whiteboardDeleteShape, async (ide, args, context) => {
  const {
    path,
    result: deleted,
    version,
  } = await change(ide, args, whiteboardDeleteShape.name, context, (s, p) => deleteShape(s, args.shapeId, p));
  return { whiteboardId: path, deleted, version };
});

export const whiteboardLayoutCommand = defineNodeCommand(whiteboardLayout, async (ide, args, context) => {
  const { path, result: moved, version } = await change(ide, args, whiteboardLayout.name, context, (s) => layoutBoard(s, args.direction));
  return { whiteboardId: path, moved, version };
});

export const whiteboardOpenCommand = defineCommand(whiteboardOpen, async (ide, args) => {
  const board = await loadBoard(ide, args.whiteboardId);
  const opened = !ide.whiteboards.openBoards().includes(board.path);
  const placement = { targetPaneId: args.targetPaneId, splitDirection: args.splitDirection };
  const { paneId } = await ide.whiteboards.open(
    board.path,
    opened || args.splitDirection || args.targetPaneId ? { area: 'main', ...placement } : undefined,
  );
  return { whiteboardId: board.path, paneId, opened, shapeCount: shapesOf(board.scene).length };
});

export const whiteboardCameraSetCommand = defineCommand(whiteboardCameraSet, async (ide, args) => {
  const path = await ide.workspace.resolve(args.whiteboardId);
  requireOpen(ide, path);
  await ide.whiteboards.setCamera(path, { x: args.x, y: args.y, zoom: args.zoom });
  return { whiteboardId: path, camera: ide.whiteboards.camera(path)! };
});

export const whiteboardCameraFitCommand = defineCommand(whiteboardCameraFit, async (ide, args) => {
  const board = await loadBoard(ide, args.whiteboardId);
  requireOpen(ide, board.path);
  const chosen = args.shapeIds
    ? args.shapeIds.flatMap((id) => {
        const shape = requireShape(board.scene, id, board.path);
        return [shape, ...live(board.scene).filter((e) => e.containerId === id)];
      })
    : live(board.scene);
  await ide.whiteboards.fitCamera(board.path, boundsOf(chosen));
  return { whiteboardId: board.path, camera: ide.whiteboards.camera(board.path)! };
});

export const whiteboardCameraGetCommand = defineCommand(whiteboardCameraGet, async (ide, args) => {
  const path = await ide.workspace.resolve(args.whiteboardId);
  requireOpen(ide, path);
  return { whiteboardId: path, camera: ide.whiteboards.camera(path)!, viewport: ide.whiteboards.viewport(path)! };
});

export default [
  whiteboardListCommand,
  whiteboardReadCommand,
  whiteboardCreateCommand,
  whiteboardAddShapeCommand,
  whiteboardUpdateShapeCommand,
  whiteboardDeleteShapeCommand,
  whiteboardOpenCommand,
  whiteboardCameraSetCommand,
  whiteboardCameraFitCommand,
  whiteboardCameraGetCommand,
  whiteboardLayoutCommand,
];
