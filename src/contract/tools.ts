/**
 * What an agent sees of the catalog. A session starts with the core tools (`core: true`) and
 * openspace.tools.enable; enabling a family lists the rest of it (MCP `notifications/tools/list_changed`
 * tells the client to fetch tools/list again). Every tool can be called by name at any time, and
 * calling one lists its family as well. The hub answers openspace.tools.enable itself: it changes the
 * session's catalog, not the IDE, so it is not an IDE command.
 */
import { z } from 'zod';
import { familyOf, defineTool, type ToolDefinition } from './tool.js';

/** The families of `tools` in catalog order. */
export function familiesOf(tools: readonly ToolDefinition[]): string[] {
  return [...new Set(tools.map((t) => familyOf(t.name)))];
}

export const ALL_FAMILIES = 'all';

/** What a model sees of listed tools, in tokens counted as characters ÷ 4: names, descriptions, input schemas. */
export function modelTokens(tools: readonly { name: string; description?: string; inputSchema: unknown }[]): number {
  const chars = tools.reduce(
    (n, t) => n + JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }).length,
    0,
  );
  return Math.round(chars / 4);
}

/** The most a session's starting catalog may cost a model (modelTokens). */
export const STARTING_CATALOG_TOKENS = 4000;

/** openspace.tools.enable, for the catalog `tools` (every IDE tool) and each family's one-line summary. */
export function toolsEnableTool(tools: readonly ToolDefinition[], summaries: Readonly<Record<string, string>>) {
  const families = familiesOf(tools);
  const more = families.filter((f) => tools.some((t) => familyOf(t.name) === f && !t.core));
  return defineTool({
    name: 'openspace.tools.enable',
    title: 'Enable Tools',
    description:
      'List more openspace tools in this session: your client is told to fetch tools/list again. Beyond the tools listed at start: ' +
      more.map((f) => `${f} (${summaries[f] ?? f})`).join('; ') +
      `. "${ALL_FAMILIES}" lists every tool. A tool called by name works without this.`,
    input: z.strictObject({
      families: z
        .array(z.enum([ALL_FAMILIES, ...families]))
        .min(1)
        .describe('The families to list'),
    }),
    output: z.object({
      enabled: z.array(z.string()).describe('Every family listed in full in this session now'),
      added: z.array(z.string()).describe('The tools this call added to the list'),
    }),
    budget: 'simple',
    effect: 'read-only',
    idempotent: true,
  });
}
