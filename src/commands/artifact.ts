/**
 * Decks and boards are files changed through the artifact store like any other: read with their
 * version, written whole with optimistic concurrency (the store refuses the write when the file
 * changed since it was read, or since the agent's baseVersion), never over a person's unsaved text.
 */
import { ToolError, type CallContext } from '../contract/index.js';
import { guardUnsavedWork, resolveAndRead, writeOptions, type FilesIde } from '../families/file/commands.js';

export interface Artifact {
  path: string;
  text: string;
  version: string;
}

/** Resolve a path an agent gave (deck or board) and read the file with its version. */
export async function readArtifact(ide: FilesIde, input: string): Promise<Artifact> {
  const { path, text, version } = await resolveAndRead(ide, input);
  return { path, text, version };
}

/** Fail with ALREADY_EXISTS when something is at the path; returns the resolved path. */
export async function requireAbsent(ide: FilesIde, input: string): Promise<string> {
  const path = await ide.workspace.resolve(input);
  const there = await ide.workspace.stat(path).catch((err: unknown) => {
    if (err instanceof ToolError && err.code === 'FILE_NOT_FOUND') return undefined;
    throw err;
  });
  if (there) throw new ToolError('ALREADY_EXISTS', `${path} already exists; read it, or pick another path.`);
  return path;
}

export interface ReplaceOptions {
  tool: string;
  context?: CallContext;
  baseVersion?: string;
  force?: boolean;
}

/** Replace the artifact's whole text if it is still as read (and at baseVersion); returns the new version. */
export async function replaceArtifact(ide: FilesIde, artifact: Artifact, text: string, options: ReplaceOptions): Promise<string> {
  if (options.baseVersion !== undefined && options.baseVersion !== artifact.version) {
    throw new ToolError(
      'CONFLICT',
      `${artifact.path} changed since version ${options.baseVersion}; it is at ${artifact.version} now. Read it again and redo the change.`,
      { currentVersion: artifact.version },
    );
  }
  const after = await guardUnsavedWork(ide, artifact.path, options.force, options.tool);
  // Only over the version read: the store answers CONFLICT if anyone changed the file since.
  const written = await ide.workspace.writeText(artifact.path, text, {
    ...writeOptions(options.tool, options.context),
    baseVersion: artifact.version,
  });
  await after();
  return written.version;
}
