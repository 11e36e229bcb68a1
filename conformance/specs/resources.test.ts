/**
 * openspace://context and openspace://events as MCP resources with subscriptions (issue 14): a real
 * SDK client lists and reads them, subscribes, and hears notifications/resources/updated when the
 * person acts; after unsubscribing it hears nothing more.
 */
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { personEditsAndSaves, personOpens } from '../person.js';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();

describe('live resources', () => {
  it('lists and reads openspace://context and openspace://events', async () => {
    const { client } = ctx.agent;
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['openspace://context', 'openspace://events']);
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 4 });
    const read = await client.readResource({ uri: 'openspace://context' });
    const context = JSON.parse((read.contents[0] as { text: string }).text);
    expect(context).toMatchObject({ success: true, editor: { path: 'src/index.ts', cursor: { line: 4 } } });
    const events = JSON.parse(((await client.readResource({ uri: 'openspace://events' })).contents[0] as { text: string }).text);
    expect(events).toMatchObject({ success: true, events: expect.any(Array), cursor: expect.any(Number) });
    await expect(client.readResource({ uri: 'openspace://nothing' })).rejects.toThrow(/No resource openspace:\/\/nothing/);
  });

  it('a subscriber hears of a person’s open and save, and nothing after unsubscribing', async (t) => {
    const { client } = ctx.agent;
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await ctx.agent.ok('openspace.file.write', { path: 'resources/watched.txt', content: 'a\n' });
    await client.subscribeResource({ uri: 'openspace://events' });
    await client.subscribeResource({ uri: 'openspace://context' });
    await new Promise((r) => setTimeout(r, 1200));
    updates.length = 0;

    await personOpens(ctx, t, 'resources/watched.txt');
    await eventually(() => expect(updates).toEqual(expect.arrayContaining(['openspace://context', 'openspace://events'])), 10_000);
    const events = JSON.parse(((await client.readResource({ uri: 'openspace://events' })).contents[0] as { text: string }).text);
    expect(events.events.map((e: { type: string; path?: string }) => `${e.type} ${e.path}`)).toContain('file.opened resources/watched.txt');

    await client.unsubscribeResource({ uri: 'openspace://events' });
    await client.unsubscribeResource({ uri: 'openspace://context' });
    await new Promise((r) => setTimeout(r, 1200));
    updates.length = 0;
    await personEditsAndSaves(ctx, t, 'resources/watched.txt', 'b');
    // The save is an event (the IDE publishes it within a second), but no one listens now.
    await eventually(async () => {
      const read = await ctx.agent.ok('openspace.events.query', { types: ['file.saved'] });
      expect(read.events.map((e: { path: string }) => e.path)).toContain('resources/watched.txt');
    }, 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(updates).toEqual([]);
  });
});
