/**
 * openspace.events.query and events.configure (issue 14): what the person does, read with a cursor
 * that never skips or repeats; the agent's own doings are not its events, its failed calls are.
 * The person acts through the simulated IDE's person API, or with Theia's keyboard in Chromium.
 */
import { describe, expect, it } from 'vitest';
import type { IdeEvent } from '../../src/families/index.js';
import { AGENT_ECHO_MS, SELECTION_DEBOUNCE_MS } from '../../src/commands/event-log.js';
import { personEditsAndSaves, personMovesCursor, personOpens } from '../person.js';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();
const settle = () => new Promise((r) => setTimeout(r, AGENT_ECHO_MS + 100));

async function eventsSince(since: number, types?: string[]): Promise<{ events: IdeEvent[]; cursor: number }> {
  return ctx.agent.ok('openspace.events.query', { since, ...(types && { types }) }) as never;
}

describe('events.query', () => {
  it("reports a person's open, edits and save, in order, and reading on from the cursor repeats none", async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: 'events/notes.txt', content: 'one\ntwo\nthree\nfour\n' });
    const { cursor: start } = await eventsSince(0);
    await settle();
    await personOpens(ctx, t, 'events/notes.txt');
    const opened = await eventually(async () => {
      const read = await eventsSince(start, ['file.opened']);
      expect(read.events.map((e) => e.path)).toContain('events/notes.txt');
      return read;
    }, 10_000);
    await personEditsAndSaves(ctx, t, 'events/notes.txt', 'zero');
    const saved = await eventually(async () => {
      const read = await eventsSince(opened.cursor);
      expect(read.events.filter((e) => e.type === 'file.saved').map((e) => e.path)).toEqual(['events/notes.txt']);
      return read;
    }, 10_000);
    // Edits fold into one event, told before the save that wrote them.
    const edits = saved.events.filter((e) => e.type === 'file.edited' || e.type === 'file.saved').map((e) => `${e.type} ${e.path}`);
    expect(edits).toEqual(['file.edited events/notes.txt', 'file.saved events/notes.txt']);
    expect(saved.events.every((e) => e.seq > opened.cursor)).toBe(true);
    const again = await eventsSince(saved.cursor, ['file.saved', 'file.opened']);
    expect(again.events).toEqual([]);
    // Seqs increase by one, so an agent can see nothing was skipped.
    const all = await eventsSince(start);
    all.events.forEach((e, i) => i > 0 && expect(e.seq).toBe(all.events[i - 1]!.seq + 1));
  });

  it('ten cursor moves within 100 ms come as one selection event, 500 ms after the last', async (t) => {
    await ctx.agent.ok('openspace.file.write', {
      path: 'events/moves.txt',
      content: Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n'),
    });
    await ctx.agent.ok('openspace.editor.open', { path: 'events/moves.txt', line: 1 });
    await settle();
    const { cursor } = await eventsSince(0);
    const started = Date.now();
    await personMovesCursor(ctx, t, 'events/moves.txt', 10, 5);
    const moved = Date.now() - started;
    const { events } = await eventually(async () => {
      const read = await eventsSince(cursor, ['selection.changed']);
      expect(read.events.length).toBeGreaterThan(0);
      return read;
    }, 10_000);
    const emitted = Date.parse(events[0]!.time) - started;
    // One more quiet period: nothing else comes.
    await new Promise((r) => setTimeout(r, SELECTION_DEBOUNCE_MS + 300));
    const after = await eventsSince(cursor, ['selection.changed']);
    expect(after.events, `moves took ${moved} ms`).toHaveLength(1);
    expect(after.events[0]).toMatchObject({ path: 'events/moves.txt', selection: { empty: true } });
    expect(after.events[0]!.selection!.startLine).toBeGreaterThanOrEqual(ctx.target.sim ? 11 : 10);
    expect(emitted).toBeGreaterThanOrEqual(SELECTION_DEBOUNCE_MS);
  });

  it("a person's open is reported while an agent keeps reading (its reads are not its layout changes)", async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: 'events/polled.txt', content: 'polled\n' });
    await settle();
    const { cursor } = await eventsSince(0);
    let polling = true;
    const poll = (async () => {
      while (polling) await ctx.agent.ok('openspace.context.get', {});
    })();
    try {
      await personOpens(ctx, t, 'events/polled.txt');
      await eventually(async () => {
        const read = await eventsSince(cursor, ['file.opened']);
        expect(read.events.map((e) => e.path)).toContain('events/polled.txt');
      }, 10_000);
    } finally {
      polling = false;
      await poll;
    }
  });

  it("an agent's own opens are not events; its failed calls are", async () => {
    const { cursor } = await eventsSince(0);
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 3 });
    await ctx.agent.fails('openspace.editor.open', { path: 'events/none.txt' }, 'FILE_NOT_FOUND');
    await settle();
    const { events } = await eventsSince(cursor);
    expect(events.filter((e) => e.type === 'file.opened').map((e) => e.path)).toEqual([]);
    expect(events.filter((e) => e.type === 'agent.call_failed')).toEqual([
      expect.objectContaining({ tool: 'openspace.editor.open', code: 'FILE_NOT_FOUND' }),
    ]);
  });

  it('without since: the latest events; limit pages through them with more', async () => {
    await ctx.agent.fails('openspace.file.read', { path: 'events/a.txt' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.file.read', { path: 'events/b.txt' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.file.read', { path: 'events/c.txt' }, 'FILE_NOT_FOUND');
    const latest = await ctx.agent.ok('openspace.events.query', { limit: 2, types: ['agent.call_failed'] });
    expect(latest.events).toHaveLength(2);
    const first = await ctx.agent.ok('openspace.events.query', { since: latest.events[0].seq - 2, limit: 1, types: ['agent.call_failed'] });
    expect(first).toMatchObject({ more: true, events: [expect.objectContaining({ seq: latest.events[0].seq - 1 })] });
    const rest = await ctx.agent.ok('openspace.events.query', { since: first.cursor, types: ['agent.call_failed'] });
    expect(rest.events.map((e: IdeEvent) => e.seq)).toEqual(latest.events.map((e: IdeEvent) => e.seq));
    expect(rest.more).toBe(false);
  });
});

describe('terminal commands', () => {
  it('a command that finished in a terminal is an event with its exit code', async () => {
    const { cursor } = await eventsSince(0);
    expect(await ctx.agent.ok('openspace.terminal.run', { command: 'false' })).toMatchObject({ exitCode: 1 });
    const { events } = await eventually(async () => {
      const read = await eventsSince(cursor, ['terminal.command_finished']);
      expect(read.events.length).toBeGreaterThan(0);
      return read;
    });
    expect(events).toEqual([expect.objectContaining({ type: 'terminal.command_finished', terminalId: 'agent', exitCode: 1 })]);
  });
});

describe('events.configure', () => {
  it('a session opts out of a type and back in; other sessions are not affected', async () => {
    expect(await ctx.agent.ok('openspace.events.configure', { ignore: ['agent.call_failed', 'layout.changed'] })).toMatchObject({
      ignored: ['agent.call_failed', 'layout.changed'],
    });
    const { cursor } = await eventsSince(0);
    await ctx.agent.fails('openspace.file.read', { path: 'events/ignored.txt' }, 'FILE_NOT_FOUND');
    expect((await eventsSince(cursor)).events.filter((e) => e.type === 'agent.call_failed')).toEqual([]);
    expect(await ctx.agent.ok('openspace.events.configure', { receive: ['agent.call_failed'] })).toMatchObject({
      ignored: ['layout.changed'],
    });
    expect((await eventsSince(cursor)).events.filter((e) => e.type === 'agent.call_failed')).toHaveLength(1);
    await ctx.agent.ok('openspace.events.configure', { receive: ['layout.changed'] });
  });
});
