import type { ToolDefinition } from './tool.js';
import paneTools from './pane.js';
import editorTools from './editor.js';
import terminalTools from './terminal.js';
import fileTools from './file.js';

export * from './call-context.js';
export * from './common.js';
export * from './result.js';
export * from './tool.js';
export * from './pane.js';
export * from './editor.js';
export * from './terminal.js';
export * from './file.js';

/** Every tool the hub serves, in the order tools/list shows them. */
export const TOOLS: readonly ToolDefinition[] = [...paneTools, ...editorTools, ...terminalTools, ...fileTools];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));
