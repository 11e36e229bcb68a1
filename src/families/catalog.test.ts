import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../contract/index.js';
import { defineCommand } from '../commands/command.js';
import { defineFamily } from './family.js';
import { fixed } from './phrases.js';
import { TOOLS } from './index.js';

describe('the catalog', () => {
  it('every tool that changes the IDE says what a session owns after it (what the hub cleans up), {} for nothing', () => {
    const silent = TOOLS.filter((t) => t.effect !== 'read-only' && t.session === undefined).map((t) => t.name);
    expect(silent, 'add `session` to these tool definitions (src/families/*/tools.ts): what a call creates or releases, or {}').toEqual([]);
  });

  it('read-only tools create nothing', () => {
    expect(TOOLS.filter((t) => t.effect === 'read-only' && t.session?.creates).map((t) => t.name)).toEqual([]);
  });
});

describe('a family', () => {
  const tool = (name: string) =>
    defineTool({ name, title: name, description: name, input: z.object({}), output: z.object({}), budget: 'simple', effect: 'read-only' });
  const clock = tool('openspace.clock.read');
  const read = defineCommand(clock, async () => ({}));
  const phrases = { 'openspace.clock.read': fixed('read', 'the clock') };

  it('is accepted when every tool has one command and its catalog family a summary', () => {
    const family = defineFamily({ name: 'clock', summaries: { clock: 'the time' }, tools: [clock], commands: [read], phrases });
    expect(family.tools).toEqual([clock]);
  });

  it('is refused, naming what is missing, when a tool has no command, two, or no summary, or a command serves another family', () => {
    const other = defineCommand(tool('openspace.other.x'), async () => ({}));
    expect(() => defineFamily({ name: 'clock', summaries: { clock: 'the time' }, tools: [clock], commands: [], phrases })).toThrow(
      'The clock family: openspace.clock.read needs exactly one command',
    );
    expect(() =>
      defineFamily({ name: 'clock', summaries: { clock: 'the time' }, tools: [clock], commands: [read, read], phrases }),
    ).toThrow('openspace.clock.read needs exactly one command');
    expect(() => defineFamily({ name: 'clock', summaries: {}, tools: [clock], commands: [read], phrases })).toThrow(
      "openspace.clock.read's family has no summary",
    );
    expect(() =>
      defineFamily({ name: 'clock', summaries: { clock: 'the time' }, tools: [clock], commands: [read, other], phrases }),
    ).toThrow('a command serves openspace.other.x, which is not among its tools');
  });
});
