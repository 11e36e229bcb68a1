import { z } from 'zod';
import { FileInfo, Line, SearchMatch, WorkspacePath } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

/** The most text one read returns; larger files are read in line ranges. */
export const MAX_READ_BYTES = 1024 * 1024;
/** The most entries one list returns. */
export const MAX_LIST_ENTRIES = 5000;
/** The most text one write (or one patch's result) may hold. */
export const MAX_WRITE_BYTES = 10 * 1024 * 1024;
/** How many versions of a file the snapshot ring keeps. */
export const MAX_SNAPSHOTS = 20;

/**
 * A file's version: 16 hex digits of the SHA-256 of its bytes. It is derived from the content, so it
 * changes with every change of the content, whoever makes it (an agent, a person's editor, git).
 */
export const Version = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'must be a version as file.read returns it (16 hex digits)')
  .describe("The file's version as file.read, file.write or file.patch returned it (16 hex digits of the SHA-256 of its content)");

const Force = z
  .boolean()
  .optional()
  .describe("Write even when an editor holds a person's unsaved changes to the file, discarding them. Default false");

export const fileRead = defineTool({
  name: 'openspace.file.read',
  core: true,
  title: 'Read File',
  description:
    'Read a text file from the workspace as it is on disk, or a line range of it (startLine/endLine, 1-based, inclusive). ' +
    'Reads over 1 MiB fail with FILE_TOO_LARGE: read a range instead. ' +
    "Returns the file's version (a content hash of the whole file) to pass to openspace.file.patch as baseVersion.",
  input: z.strictObject({
    path: WorkspacePath,
    startLine: Line.optional(),
    endLine: Line.optional(),
  }),
  output: z.object({
    path: z.string(),
    content: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    totalLines: z.number().int(),
    size: z.number().int().describe('File size in bytes'),
    version: Version.describe("The whole file's version: pass it to openspace.file.patch as baseVersion"),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const fileWrite = defineTool({
  name: 'openspace.file.write',
  core: true,
  title: 'Write File',
  description:
    'Create or replace a text file in the workspace with the given content, creating missing parent directories. ' +
    'The write is atomic (the file is always the old or the new content), kept as a snapshot (openspace.file.snapshots) and audited; ' +
    'an editor showing the file shows the new content. If a person has unsaved changes in an editor of the file it answers ' +
    'DIRTY_BUFFER unless force:true. To change part of a file someone else may be editing, prefer openspace.file.patch.',
  input: z.strictObject({
    path: WorkspacePath,
    content: z.string().max(MAX_WRITE_BYTES),
    force: Force,
  }),
  output: z.object({ path: z.string(), bytes: z.number().int(), created: z.boolean(), version: Version.describe('The new version') }),
  budget: 'simple',
  effect: 'destructive',
  // Files are the person's work: a session's writes stay.
  session: {},
});

export const fileList = defineTool({
  name: 'openspace.file.list',
  core: true,
  title: 'List Files',
  description:
    'List a directory of the workspace (default: the root). With recursive:true, list everything below it, ' +
    'skipping what .gitignore ignores and .git itself; at most 5000 entries (truncated tells).',
  input: z.strictObject({
    path: WorkspacePath.optional(),
    recursive: z.boolean().optional(),
  }),
  output: z.object({ path: z.string(), files: z.array(FileInfo), truncated: z.boolean() }),
  budget: 'complex',
  effect: 'read-only',
});

export const fileSearch = defineTool({
  name: 'openspace.file.search',
  core: true,
  title: 'Search in Files',
  description:
    'Search file contents in the workspace for text (or a regular expression with isRegex:true), honouring .gitignore. ' +
    'Narrow it with path (a directory) and glob patterns such as "**/*.ts". Returns path, line, column and the line\'s text per match.',
  input: z.strictObject({
    query: z.string().min(1).max(1000),
    path: WorkspacePath.optional().describe('Directory to search in; defaults to the root'),
    includePattern: z.string().min(1).max(1000).optional().describe('Glob of files to search, e.g. "**/*.ts" or "src/**"'),
    excludePattern: z.string().min(1).max(1000).optional().describe('Glob of files to skip, e.g. "**/*.test.ts"'),
    isRegex: z.boolean().optional(),
    caseSensitive: z.boolean().optional().describe('Default false'),
    maxResults: z.number().int().min(1).max(10_000).optional().describe('Default 200'),
  }),
  output: z.object({ matches: z.array(SearchMatch), truncated: z.boolean() }),
  budget: 'complex',
  effect: 'read-only',
});

const PatchContent = z.string().max(MAX_WRITE_BYTES);

export const PatchOperation = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('insert'),
    line: Line.describe('The new lines go before this line; totalLines + 1 adds them at the end'),
    content: PatchContent.describe('One or more lines; a final line break is optional'),
  }),
  z.strictObject({ type: z.literal('delete'), startLine: Line, endLine: Line }),
  z.strictObject({
    type: z.literal('replace'),
    startLine: Line,
    endLine: Line,
    content: PatchContent.describe('The lines that replace startLine..endLine; "" removes them'),
  }),
  z.strictObject({ type: z.literal('append'), content: PatchContent.describe('Lines added at the end of the file') }),
  z.strictObject({
    type: z.literal('replace_text'),
    oldText: z.string().min(1).max(MAX_WRITE_BYTES).describe('Text that occurs exactly once in the file, line breaks included'),
    newText: PatchContent,
  }),
]);
export type PatchOperation = z.infer<typeof PatchOperation>;

export const filePatch = defineTool({
  name: 'openspace.file.patch',
  core: true,
  title: 'Patch File',
  description:
    'Change part of a text file without resending all of it, safely when others edit it too. Pass the version file.read gave you as ' +
    'baseVersion and operations: insert {line, content}, delete {startLine, endLine}, replace {startLine, endLine, content}, ' +
    'append {content}, replace_text {oldText, newText} (oldText must occur exactly once; prefer it to line numbers). ' +
    'Lines are 1-based and all refer to the base version; operations must not overlap; all apply or none do (RANGE_INVALID). ' +
    'If the file changed since baseVersion (an agent, a person, git), it answers CONFLICT with currentVersion: read it again and redo the patch. ' +
    'DIRTY_BUFFER when an editor holds unsaved changes, unless force:true. Returns the new version.',
  input: z.strictObject({
    path: WorkspacePath,
    baseVersion: Version,
    operations: z.array(PatchOperation).min(1).max(1000),
    force: Force,
  }),
  output: z.strictObject({
    path: z.string(),
    version: Version.describe('The new version, for the next patch'),
    bytes: z.number().int(),
    totalLines: z.number().int(),
  }),
  budget: 'simple',
  effect: 'destructive',
  // Files are the person's work: a session's writes stay.
  session: {},
});

export const SnapshotInfo = z.strictObject({
  version: Version.describe('Pass it to openspace.file.restore'),
  time: z.string().describe('When the store wrote this version, or first saw it on disk (ISO 8601)'),
  bytes: z.number().int(),
  source: z
    .string()
    .describe(
      'The tool that wrote this version (e.g. "openspace.file.patch"), or "outside" for content found on disk: the original, or an edit made outside OpenSpace',
    ),
  session: z.string().optional().describe('The MCP session that wrote it'),
  client: z.string().optional().describe('The MCP client that wrote it'),
});
export type SnapshotInfo = z.infer<typeof SnapshotInfo>;

export const fileSnapshots = defineTool({
  name: 'openspace.file.snapshots',
  title: 'List File Snapshots',
  description:
    `List the kept versions of a file, newest first: the last ${MAX_SNAPSHOTS} versions OpenSpace wrote or found on disk before a write. ` +
    'Restore one with openspace.file.restore.',
  input: z.strictObject({ path: WorkspacePath }),
  output: z.strictObject({
    path: z.string(),
    currentVersion: Version.nullable().describe('The version on disk now; null when the file does not exist'),
    snapshots: z.array(SnapshotInfo),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const fileRestore = defineTool({
  name: 'openspace.file.restore',
  title: 'Restore File Snapshot',
  description:
    'Put a kept version of a file back (exact bytes), as a new atomic, audited write; openspace.file.snapshots lists the versions. ' +
    'With baseVersion, only if the file is still at that version (else CONFLICT). DIRTY_BUFFER when an editor holds unsaved changes, unless force:true.',
  input: z.strictObject({
    path: WorkspacePath,
    version: Version.describe('The snapshot to restore'),
    baseVersion: Version.optional().describe('Restore only if the file is at this version now'),
    force: Force,
  }),
  output: z.strictObject({
    path: z.string(),
    version: Version.describe("The file's version after the restore (the restored one)"),
    bytes: z.number().int(),
  }),
  budget: 'simple',
  effect: 'destructive',
  // Files are the person's work: a session's writes stay.
  session: {},
});

export default [fileRead, fileWrite, fileList, fileSearch, filePatch, fileSnapshots, fileRestore];
