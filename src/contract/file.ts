import { z } from 'zod';
import { FileInfo, Line, SearchMatch, WorkspacePath } from './common.js';
import { defineTool } from './tool.js';

/** The most text one read returns; larger files are read in line ranges. */
export const MAX_READ_BYTES = 1024 * 1024;
/** The most entries one list returns. */
export const MAX_LIST_ENTRIES = 5000;

export const fileRead = defineTool({
  name: 'openspace.file.read',
  title: 'Read File',
  description:
    'Read a text file from the workspace as it is on disk, or a line range of it (startLine/endLine, 1-based, inclusive). ' +
    'Reads over 1 MiB fail with FILE_TOO_LARGE: read a range instead.',
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
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const fileWrite = defineTool({
  name: 'openspace.file.write',
  title: 'Write File',
  description:
    'Create or replace a text file in the workspace with the given content, creating missing parent directories. ' +
    'The write is atomic; an editor showing the file shows the new content.',
  input: z.strictObject({
    path: WorkspacePath,
    content: z.string().max(10 * 1024 * 1024),
  }),
  output: z.object({ path: z.string(), bytes: z.number().int(), created: z.boolean() }),
  budget: 'simple',
  effect: 'destructive',
});

export const fileList = defineTool({
  name: 'openspace.file.list',
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

export default [fileRead, fileWrite, fileList, fileSearch];
