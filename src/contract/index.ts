/**
 * What every family's contract shares: tool definitions, the schemas of what several families
 * name (paths, lines, panes, terminals), results and error codes, the call context, and
 * openspace.tools.enable. Each family's tools are in its folder; the catalog is assembled in
 * src/families/index.ts.
 */
export * from './call-context.js';
export * from './common.js';
export * from './time.js';
export * from './result.js';
export * from './tool.js';
export * from './tools.js';
