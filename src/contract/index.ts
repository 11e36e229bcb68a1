import type { ToolDefinition } from './tool.js';
import paneTools from './pane.js';
import editorTools from './editor.js';
import terminalTools from './terminal.js';
import fileTools from './file.js';
import presentationTools from './presentation.js';
import whiteboardTools from './whiteboard.js';
import modalityTools from './modality.js';
import codeTools from './code.js';
import contextTools from './context.js';
import eventTools from './events.js';
import { toolsEnableTool } from './tools.js';

export * from './call-context.js';
export * from './common.js';
export * from './result.js';
export * from './tool.js';
export * from './pane.js';
export * from './editor.js';
export * from './terminal.js';
export * from './file.js';
export * from './presentation.js';
export * from './whiteboard.js';
export * from './modality.js';
export * from './code.js';
export * from './context.js';
export * from './events.js';
export * from './tools.js';

/** Every tool the hub serves, in the order tools/list shows them. */
export const TOOLS = [
  ...paneTools,
  ...editorTools,
  ...terminalTools,
  ...fileTools,
  ...presentationTools,
  ...whiteboardTools,
  ...modalityTools,
  ...codeTools,
  ...contextTools,
  ...eventTools,
] as const satisfies readonly ToolDefinition[];

/** The name of every tool the IDE serves: a table keyed by it (Record<ToolName, …>) that misses one does not compile. */
export type ToolName = (typeof TOOLS)[number]['name'];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/** openspace.tools.enable: served by the hub itself (src/contract/tools.ts). */
export const TOOLS_ENABLE = toolsEnableTool(TOOLS);
