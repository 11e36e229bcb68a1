import {
  fileList,
  filePatch,
  fileRead,
  fileRestore,
  fileSearch,
  fileSnapshots,
  fileWrite,
  MAX_LIST_ENTRIES,
  MAX_READ_BYTES,
} from './tools.js';
import { serializableContext, ToolError, type CallContext } from '../../contract/index.js';
import { defineNodeCommand } from '../../commands/command.js';
import type { FileStat } from './port.js';
import type { NodeIde } from '../index.js';
import { sliceLines } from '../../commands/text.js';

/** What the file helpers use of an IDE, which the window's commands and those beside the files both have. */
export type FilesIde = Pick<NodeIde, 'workspace' | 'editors'>;

/**
 * Resolve a path an agent gave and stat what is there. `stat` resolves its input as `resolve` does,
 * so both go at once (in Theia each is a round trip to the backend); a failed stat is asked again of
 * the resolved path, so its error names the path the way the workspace does.
 */
async function resolveAndStat(ide: FilesIde, input: string): Promise<{ path: string; stat: FileStat }> {
  const [path, found] = await Promise.all([ide.workspace.resolve(input), ide.workspace.stat(input).catch(() => undefined)]);
  return { path, stat: found ?? (await ide.workspace.stat(path)) };
}

/** Resolve a path an agent gave and require a regular file there; returns the workspace-relative path. */
export async function requireFile(ide: FilesIde, input: string): Promise<string> {
  const { path, stat } = await resolveAndStat(ide, input);
  if (stat.type !== 'file') {
    throw new ToolError(
      'NOT_A_FILE',
      `${path || '(workspace root)'} is a ${stat.type}, not a file. Use openspace.file.list to see what it holds.`,
    );
  }
  return path;
}

export async function requireDirectory(ide: FilesIde, input: string): Promise<string> {
  const { path, stat } = await resolveAndStat(ide, input);
  if (stat.type !== 'directory') throw new ToolError('NOT_A_DIRECTORY', `${path} is a file, not a directory.`);
  return path;
}

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A file's resolved path and text, asked side by side (on Theia each is a round trip to the backend; both judge the path alike). */
export async function resolveAndRead(ide: FilesIde, input: string): Promise<{ path: string; text: string; size: number; version: string }> {
  const [path, read] = await Promise.allSettled([ide.workspace.resolve(input), ide.workspace.readText(input)]);
  if (path.status === 'rejected') throw path.reason;
  if (read.status === 'rejected') throw read.reason;
  return { path: path.value, ...read.value };
}

export const fileReadCommand = defineNodeCommand(fileRead, async (ide, args) => {
  const { path, text, size, version } = await resolveAndRead(ide, args.path);
  const slice = sliceLines(text, path, args.startLine, args.endLine);
  if (slice.content.length > MAX_READ_BYTES && byteLength(slice.content) > MAX_READ_BYTES) {
    throw new ToolError(
      'FILE_TOO_LARGE',
      `${path} is ${size} bytes (${slice.totalLines} lines); one read returns at most ${MAX_READ_BYTES} bytes. Read a range with startLine/endLine.`,
      { size, totalLines: slice.totalLines },
    );
  }
  return { path, ...slice, size, version };
});

/**
 * A person's unsaved work is never lost silently: a change under an editor with unsaved changes is
 * refused unless forced; forced, the change is made and the editor then shows it. Returns the
 * function to call after the change.
 */
export async function guardUnsavedWork(
  ide: FilesIde,
  path: string,
  force: boolean | undefined,
  tool: string,
): Promise<() => Promise<void>> {
  const editor = await ide.editors.get(path);
  if (!editor?.isDirty) return async () => {};
  if (!force) {
    throw new ToolError(
      'DIRTY_BUFFER',
      `${path} is open in an editor with unsaved changes (a person's, or an editor.replace_range not yet saved); ${tool} would hide them. ` +
        'Ask the person to save or discard them, or pass force:true to discard them.',
    );
  }
  return () => ide.editors.discard(path);
}

export const writeOptions = (tool: string, context: CallContext | undefined) => ({ tool, context: serializableContext(context) });

export const fileWriteCommand = defineNodeCommand(fileWrite, async (ide, args, context) => {
  const path = await ide.workspace.resolve(args.path);
  if (path === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
  const after = await guardUnsavedWork(ide, path, args.force, 'openspace.file.write');
  const { bytes, created, version } = await ide.workspace.writeText(path, args.content, writeOptions(fileWrite.name, context));
  await after();
  return { path, bytes, created, version };
});

export const filePatchCommand = defineNodeCommand(filePatch, async (ide, args, context) => {
  const path = await ide.workspace.resolve(args.path);
  if (path === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
  const after = await guardUnsavedWork(ide, path, args.force, 'openspace.file.patch');
  const result = await ide.workspace.patch(
    path,
    { baseVersion: args.baseVersion, operations: args.operations },
    writeOptions(filePatch.name, context),
  );
  await after();
  return { path, ...result };
});

export const fileSnapshotsCommand = defineNodeCommand(fileSnapshots, async (ide, args) => {
  const path = await ide.workspace.resolve(args.path);
  if (path === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
  return { path, ...(await ide.workspace.snapshots(path)) };
});

export const fileRestoreCommand = defineNodeCommand(fileRestore, async (ide, args, context) => {
  const path = await ide.workspace.resolve(args.path);
  if (path === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
  const after = await guardUnsavedWork(ide, path, args.force, 'openspace.file.restore');
  const result = await ide.workspace.restore(
    path,
    { version: args.version, baseVersion: args.baseVersion },
    writeOptions(fileRestore.name, context),
  );
  await after();
  return { path, ...result };
});

export const fileListCommand = defineNodeCommand(fileList, async (ide, args) => {
  const path = await ide.workspace.resolve(args.path ?? '');
  const { files, truncated } = await ide.workspace.list(path, { recursive: args.recursive ?? false, limit: MAX_LIST_ENTRIES });
  return { path, files, truncated };
});

export const fileSearchCommand = defineNodeCommand(fileSearch, async (ide, args) => {
  const path = args.path === undefined ? '' : await requireDirectory(ide, args.path);
  return ide.workspace.search({
    query: args.query,
    path,
    includePattern: args.includePattern,
    excludePattern: args.excludePattern,
    isRegex: args.isRegex ?? false,
    caseSensitive: args.caseSensitive ?? false,
    maxResults: args.maxResults ?? 200,
  });
});

export default [
  fileReadCommand,
  fileWriteCommand,
  fileListCommand,
  fileSearchCommand,
  filePatchCommand,
  fileSnapshotsCommand,
  fileRestoreCommand,
];
