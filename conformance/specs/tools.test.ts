import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  annotations,
  familyOf,
  inputJsonSchema,
  modelTokens,
  outputJsonSchema,
  STARTING_CATALOG_TOKENS,
} from '../../src/contract/index.js';
import { TOOLS, TOOLS_ENABLE } from '../../src/families/index.js';
import { connectAgent, type Agent } from '../client.js';
import { useTarget } from '../setup.js';

const ctx = useTarget();

/** An agent with the session's starting catalog; it counts the tools/list_changed notifications it gets. */
async function freshAgent(): Promise<{ agent: Agent; changes: () => number }> {
  const agent = await connectAgent(ctx.target, 'catalog-agent', { catalog: 'start' });
  return { agent, changes: () => agent.listChanges };
}

const names = (tools: Tool[]) => tools.map((t) => t.name).sort();
const familyTools = (family: string) => TOOLS.filter((t) => familyOf(t.name) === family).map((t) => t.name);

describe('the catalog a session starts with', () => {
  it('lists the core tools and openspace.tools.enable: at most 4,000 tokens (characters ÷ 4) of names, descriptions and input schemas', async () => {
    const { agent } = await freshAgent();
    try {
      const { tools } = await agent.listTools();
      expect(names(tools)).toEqual([TOOLS_ENABLE.name, ...TOOLS.filter((t) => t.core).map((t) => t.name)].sort());
      expect(names(tools)).toEqual(expect.arrayContaining(['openspace.file.patch', 'openspace.terminal.run', 'openspace.context.get']));
      expect(modelTokens(tools)).toBeLessThanOrEqual(STARTING_CATALOG_TOKENS);
      expect(STARTING_CATALOG_TOKENS).toBe(4000);
      // Every family is reachable from it: the enable tool names the families it does not list in full.
      const enable = tools.find((t) => t.name === TOOLS_ENABLE.name)!;
      for (const tool of TOOLS.filter((t) => !t.core)) expect(enable.description).toContain(`${familyOf(tool.name)} (`);
    } finally {
      await agent.close();
    }
  });

  it('enabling a family lists the rest of it and tells the client to list again; enabling it twice adds nothing', async () => {
    const { agent, changes } = await freshAgent();
    try {
      const enabled = await agent.ok(TOOLS_ENABLE.name, { families: ['whiteboard', 'pane'] });
      expect(enabled).toEqual({
        success: true,
        enabled: ['pane', 'whiteboard'],
        added: [...familyTools('pane'), ...familyTools('whiteboard')],
      });
      expect(changes()).toBe(1); // on the call's own stream, ahead of its answer
      const { tools } = await agent.listTools();
      expect(names(tools)).toEqual(expect.arrayContaining([...familyTools('whiteboard'), ...familyTools('pane')]));
      expect(names(tools)).not.toContain('openspace.presentation.create');
      // The SDK now checks the answers of the listed tools against their output schemas.
      await agent.ok('openspace.whiteboard.list');
      expect(await agent.ok(TOOLS_ENABLE.name, { families: ['pane'] })).toMatchObject({ added: [] });
      expect(changes()).toBe(1);
    } finally {
      await agent.close();
    }
  });

  it('"all" lists every tool; an unknown family is INVALID_ARGUMENT naming it, and changes nothing', async () => {
    const { agent } = await freshAgent();
    try {
      const before = (await agent.listTools()).tools.length;
      const wrong = await agent.fails(TOOLS_ENABLE.name, { families: ['debugger'] }, 'INVALID_ARGUMENT');
      expect(wrong.error).toMatch(/families/);
      expect((await agent.listTools()).tools).toHaveLength(before);
      await agent.ok(TOOLS_ENABLE.name, { families: ['all'] });
      expect((await agent.listTools()).tools).toHaveLength(TOOLS.length + 1);
    } finally {
      await agent.close();
    }
  });

  it('a tool not listed yet works when called by name, and lists its family', async () => {
    const { agent, changes } = await freshAgent();
    try {
      expect(names((await agent.listTools()).tools)).not.toContain('openspace.presentation.list');
      await agent.ok('openspace.presentation.list');
      expect(changes()).toBe(1); // on the call's own stream, ahead of its answer
      expect(names((await agent.listTools()).tools)).toEqual(expect.arrayContaining(familyTools('presentation')));
      // Other sessions keep their own catalog.
      const other = await freshAgent();
      expect(names((await other.agent.listTools()).tools)).not.toContain('openspace.presentation.list');
      await other.agent.close();
    } finally {
      await agent.close();
    }
  });
});

describe('tools/list', () => {
  it('lists exactly the tools of the catalog (src/families) and openspace.tools.enable once every family is enabled (AC-3.6.1)', async () => {
    const { tools } = await ctx.agent.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([TOOLS_ENABLE.name, ...TOOLS.map((t) => t.name)].sort());
  });

  it("gives every tool the contract's title, description, input and output schemas and annotations", async () => {
    const { tools } = await ctx.agent.client.listTools();
    for (const def of TOOLS) {
      const tool = tools.find((t) => t.name === def.name);
      expect(tool, def.name).toBeDefined();
      expect(tool!.title).toBe(def.title);
      expect(tool!.description).toBe(def.description);
      expect(tool!.inputSchema).toEqual(inputJsonSchema(def));
      expect(tool!.outputSchema).toEqual(outputJsonSchema(def));
      expect(tool!.annotations).toEqual(annotations(def));
    }
  });

  it('describes inputs precisely enough to call the tools (required fields, no extra fields)', async () => {
    const { tools } = await ctx.agent.client.listTools();
    const open = tools.find((t) => t.name === 'openspace.editor.open')!;
    expect(open.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      additionalProperties: false,
      properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
    });
    const close = tools.find((t) => t.name === 'openspace.pane.close')!;
    expect(close.inputSchema.properties).toHaveProperty('paneId');
    expect(close.inputSchema.properties).toHaveProperty('contentId');
    const read = tools.find((t) => t.name === 'openspace.terminal.read_output')!;
    expect(Object.keys(read.inputSchema.properties ?? {})).toEqual(['terminalId', 'lines', 'since']);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('marks read-only and destructive tools in the annotations', async () => {
    const { tools } = await ctx.agent.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('openspace.file.read')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('openspace.pane.list')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('openspace.file.write')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('openspace.terminal.send')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('openspace.editor.highlight')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });
});
