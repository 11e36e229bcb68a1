import { describe, expect, it } from 'vitest';
import { annotations, inputJsonSchema, outputJsonSchema, TOOLS } from '../../src/contract/index.js';
import { useTarget } from '../setup.js';

const ctx = useTarget();

describe('tools/list', () => {
  it('lists exactly the tools of the contract (src/contract), no more and no fewer (AC-3.6.1)', async () => {
    const { tools } = await ctx.agent.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
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
