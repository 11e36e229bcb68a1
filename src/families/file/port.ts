import type { Disposable } from '../../contract/port.js';
import type { CallContext } from '../../contract/index.js';
import type { FileInfo, SearchMatch } from '../../contract/index.js';
import type { PatchOperation, SnapshotInfo } from './tools.js';

export interface FileStat {
  type: 'file' | 'directory' | 'other';
  size: number;
}

export interface SearchOptions {
  query: string;
  path: string;
  includePattern?: string;
  excludePattern?: string;
  isRegex: boolean;
  caseSensitive: boolean;
  maxResults: number;
}

/** Who changes a file and how, for the audit log and the snapshot ring; plain data (it crosses the IDE's RPC). */
export interface WriteOptions {
  /** The agent's call, when an agent writes (see serializableContext); absent when a person does. */
  context?: CallContext;
  /** The tool (or IDE action) that writes, e.g. "openspace.file.write". */
  tool?: string;
}

/** What writeText takes besides who writes. */
export interface WriteTextOptions extends WriteOptions {
  /** Write only if the file is at this version now (checked in the file's write queue), else CONFLICT with currentVersion. */
  baseVersion?: string;
}

/** The workspace's files, with the path guard applied on the side that owns the disk. */
export interface WorkspacePort {
  /** The workspace's absolute path; undefined when the IDE has no folder open. */
  rootPath(): string | undefined;
  /**
   * Check a path an agent gave and return it workspace-relative and normalised ("" is the root).
   * Throws PATH_OUTSIDE_WORKSPACE (also for symlinks leading out) or INVALID_ARGUMENT.
   */
  resolve(path: string): Promise<string>;
  /** Throws FILE_NOT_FOUND. */
  stat(path: string): Promise<FileStat>;
  /** Throws FILE_NOT_FOUND, NOT_A_FILE, BINARY_FILE. `version`: the content hash of the whole file. */
  readText(path: string): Promise<{ text: string; size: number; version: string }>;
  /** Atomic create-or-replace, creating parent directories; kept as a snapshot and audited. */
  writeText(path: string, text: string, options?: WriteTextOptions): Promise<{ bytes: number; created: boolean; version: string }>;
  /**
   * Apply patch operations to the file if it is still at baseVersion (else CONFLICT with
   * currentVersion), atomically; RANGE_INVALID when an operation does not fit the base version.
   */
  patch(
    path: string,
    request: { baseVersion: string; operations: PatchOperation[] },
    options?: WriteOptions,
  ): Promise<{ version: string; bytes: number; totalLines: number }>;
  /** The kept versions of a file, newest first, and its version now (null when it does not exist). */
  snapshots(path: string): Promise<{ currentVersion: string | null; snapshots: SnapshotInfo[] }>;
  /** Write a kept version back; with baseVersion only if the file is at it now (else CONFLICT). Throws SNAPSHOT_NOT_FOUND. */
  restore(
    path: string,
    request: { version: string; baseVersion?: string },
    options?: WriteOptions,
  ): Promise<{ version: string; bytes: number }>;
  /** Throws FILE_NOT_FOUND, NOT_A_DIRECTORY. */
  list(path: string, options: { recursive: boolean; limit: number }): Promise<{ files: FileInfo[]; truncated: boolean }>;
  search(options: SearchOptions): Promise<{ matches: SearchMatch[]; truncated: boolean }>;
  /**
   * Fires with the workspace-relative path and the new text after writeText, patch or restore changed
   * a file, and, where the IDE watches the disk for it, after an edit made outside OpenSpace. On
   * Theia a writeText answers once what its listeners return has settled (an open editor shows the text).
   */
  onFileWritten(listener: (path: string, text: string) => unknown): Disposable;
}
