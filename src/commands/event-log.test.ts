import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventType, type IdeEvent } from '../families/events/tools.js';
import { AGENT_ECHO_MS, EventLog, ideEvents } from './event-log.js';
import { SimIde } from '../../sim/ide.js';

const type = fc.constantFrom(...EVENT_TYPES);
const op = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), type }),
  fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 6 }) }),
);

describe('EventLog cursor', () => {
  it('reading on from each answer’s cursor never skips a kept event nor repeats one, and counts what was dropped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.uniqueArray(type, { minLength: 1, maxLength: 4 }), { nil: undefined }),
        fc.array(op, { maxLength: 120 }),
        (capacity, types, ops) => {
          const log = new EventLog(capacity);
          const all: IdeEvent[] = [];
          const seen: number[] = [];
          let cursor = 0;
          const wanted = (e: IdeEvent) => !types || types.includes(e.type);
          const read = (limit: number) => {
            const since = cursor;
            const answer = log.query({ since, limit, ...(types && { types: types as EventType[] }) });
            const oldestKept = Math.max(1, all.length - capacity + 1);
            // What is kept between since and the answer's cursor, and matches: exactly what came.
            const expected = all.filter((e) => e.seq > since && e.seq <= answer.cursor && e.seq >= oldestKept && wanted(e));
            expect(answer.events).toEqual(expected);
            expect(answer.dropped).toBe(Math.max(0, oldestKept - since - 1));
            expect(answer.events.length).toBeLessThanOrEqual(limit);
            expect(answer.more).toBe(all.some((e) => e.seq > answer.cursor && wanted(e)));
            expect(answer.cursor).toBeGreaterThanOrEqual(since);
            seen.push(...answer.events.map((e) => e.seq));
            cursor = answer.cursor;
            return answer.more;
          };
          for (const o of ops) {
            if (o.kind === 'append') all.push(log.append({ type: o.type }));
            else read(o.limit);
          }
          while (read(6));
          expect(cursor).toBe(all.length);
          // Strictly increasing: nothing came twice.
          seen.forEach((s, i) => i > 0 && expect(s).toBeGreaterThan(seen[i - 1]!));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('without since answers the latest events; a cursor from before a restart reads from the start', () => {
    const log = new EventLog(3);
    for (let i = 0; i < 5; i++) log.append({ type: 'file.saved', path: `f${i}` });
    expect(log.query({ limit: 2 }).events.map((e) => e.path)).toEqual(['f3', 'f4']);
    expect(log.query({ since: 99 })).toMatchObject({ dropped: 2, cursor: 5 });
    expect(log.query({ since: 99 }).events.map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('a session that ignores a type does not get it; others do', () => {
    const log = new EventLog();
    log.append({ type: 'layout.changed' });
    log.append({ type: 'file.saved', path: 'a' });
    expect(log.configure('s1', { ignore: ['layout.changed'] })).toEqual(['layout.changed']);
    expect(log.query({ since: 0 }, 's1').events.map((e) => e.type)).toEqual(['file.saved']);
    expect(log.query({ since: 0 }, 's2').events.map((e) => e.type)).toEqual(['layout.changed', 'file.saved']);
    expect(log.configure('s1', { receive: ['layout.changed'] })).toEqual([]);
  });
});

describe('who opened a file', () => {
  it("an agent's open right after a person's, before the layout is next observed, is not told as the person's", async () => {
    const ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'a\n', 'b.ts': 'b\n' } } });
    try {
      const events = ideEvents(ide.port);
      events.observe(ide.port.shell.layout());
      await ide.editors.personOpens('a.ts');
      // No publish between the person's open and the agent's (a busy window publishes late).
      await events.duringAgentCall(() => ide.port.editors.open('b.ts', {}));
      events.observe(ide.port.shell.layout());
      const opened = events.log.query({ since: 0 }, 's').events.filter((e) => e.type === 'file.opened');
      expect(opened.map((e) => e.path)).toEqual(['a.ts']);
    } finally {
      ide.dispose();
    }
  });

  it("an agent's open is not told as the person's when the layout tells of it again late, before the next publish", async () => {
    const ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'a\n' } } });
    try {
      const events = ideEvents(ide.port);
      events.observe(ide.port.shell.layout());
      await events.duringAgentCall(() => ide.port.editors.open('a.ts', {}));
      // A later change that opens nothing (Theia tells a change again once its panels settle: late, on a busy window).
      await new Promise((r) => setTimeout(r, AGENT_ECHO_MS + 50));
      ide.layout.setDirty('a.ts', true);
      events.observe(ide.port.shell.layout());
      expect(events.log.query({ since: 0 }, 's').events).toEqual([]);
    } finally {
      ide.dispose();
    }
  });
});
