/**
 * The chat's state kept current by OpenCode's events, fed the shapes a real OpenCode 1.18 sent for a
 * prompt that opened a file, asked to write one and answered.
 */
import { describe, expect, it } from 'vitest';
import type { Event, MessageEntry, Session } from '../../common/chat-protocol.js';
import { ChatModel } from './chat-model.js';

const SES = 'ses_1';
const ev = (type: string, properties: object) => ({ id: `e_${type}`, type, properties }) as unknown as Event;
const session = (id: string, title: string, updated: number, extra: Partial<Session> = {}): Session =>
  ({ id, slug: id, projectID: 'p', directory: '/w', title, version: '1.18.33', time: { created: 1, updated }, ...extra }) as Session;
const assistantInfo = (id: string) => ({ id, sessionID: SES, role: 'assistant', parentID: 'msg_1', time: { created: 2 } });

describe('ChatModel', () => {
  it('builds a streamed answer from message, part and delta events, in the order they happened', () => {
    const model = new ChatModel();
    model.setMessages(SES, [
      { info: { id: 'msg_1', sessionID: SES, role: 'user', time: { created: 1 } }, parts: [] } as unknown as MessageEntry,
    ]);
    model.apply(ev('message.updated', { sessionID: SES, info: assistantInfo('msg_2') }));
    model.apply(
      ev('message.part.updated', { sessionID: SES, part: { id: 'prt_2', messageID: 'msg_2', sessionID: SES, type: 'text', text: '' } }),
    );
    // A part that comes first in OpenCode's order but arrives later still sorts first.
    model.apply(
      ev('message.part.updated', { sessionID: SES, part: { id: 'prt_1', messageID: 'msg_2', sessionID: SES, type: 'step-start' } }),
    );
    model.apply(ev('message.part.delta', { sessionID: SES, messageID: 'msg_2', partID: 'prt_2', field: 'text', delta: 'Opened ' }));
    model.apply(ev('message.part.delta', { sessionID: SES, messageID: 'msg_2', partID: 'prt_2', field: 'text', delta: '**a.ts**' }));
    const entries = model.messages.get(SES)!;
    expect(entries.map((e) => e.info.id)).toEqual(['msg_1', 'msg_2']);
    expect(entries[1]!.parts.map((p) => p.type)).toEqual(['step-start', 'text']);
    expect(entries[1]!.parts[1]).toMatchObject({ text: 'Opened **a.ts**' });
  });

  it('follows a tool call from pending to completed, and keeps a part that came before its message', () => {
    const model = new ChatModel();
    const part = (state: object) => ({
      id: 'prt_t',
      messageID: 'msg_3',
      sessionID: SES,
      type: 'tool',
      tool: 'openspace_openspace_editor_open',
      callID: 'call_1',
      state,
    });
    model.apply(ev('message.part.updated', { sessionID: SES, part: part({ status: 'pending', input: {}, raw: '' }) }));
    expect(model.messages.get(SES)![0]!.info).toMatchObject({ id: 'msg_3', role: 'assistant' });
    model.apply(ev('message.part.updated', { sessionID: SES, part: part({ status: 'running', input: { path: 'a.ts', line: 2 } }) }));
    model.apply(ev('message.updated', { sessionID: SES, info: { ...assistantInfo('msg_3'), modelID: 'scripted-model' } }));
    model.apply(
      ev('message.part.updated', { sessionID: SES, part: part({ status: 'completed', input: { path: 'a.ts', line: 2 }, output: '{}' }) }),
    );
    const [entry] = model.messages.get(SES)!;
    expect(entry!.info).toMatchObject({ modelID: 'scripted-model' });
    expect(entry!.parts).toHaveLength(1);
    expect(entry!.parts[0]).toMatchObject({ state: { status: 'completed' } });
  });

  it('knows which sessions are busy, and the last error of one until it works again', () => {
    const model = new ChatModel();
    model.apply(ev('session.status', { sessionID: SES, status: { type: 'busy' } }));
    expect(model.busy(SES)).toBe(true);
    model.apply(ev('session.error', { sessionID: SES, error: { name: 'APIError', data: { message: 'Rate limited' } } }));
    model.apply(ev('session.idle', { sessionID: SES }));
    expect(model.busy(SES)).toBe(false);
    expect(model.errors.get(SES)).toBe('Rate limited');
    model.apply(ev('session.status', { sessionID: SES, status: { type: 'busy' } }));
    expect(model.errors.has(SES)).toBe(false);
  });

  it('holds the permission requests and questions waiting for the person until they are answered', () => {
    const model = new ChatModel();
    const asked = {
      id: 'per_1',
      sessionID: SES,
      permission: 'openspace_openspace_file_write',
      patterns: ['*'],
      metadata: {},
      always: ['*'],
    };
    model.apply(ev('permission.asked', asked));
    model.apply(ev('question.asked', { id: 'que_1', sessionID: SES, questions: [] }));
    model.apply(ev('question.asked', { id: 'que_2', sessionID: 'ses_other', questions: [] }));
    expect(model.permissionsFor(SES)).toEqual([asked]);
    expect(model.questionsFor(SES).map((q) => q.id)).toEqual(['que_1']);
    expect(model.apply(ev('permission.replied', { sessionID: SES, requestID: 'per_1', reply: 'once' }))).toBe(true);
    model.apply(ev('question.rejected', { sessionID: SES, requestID: 'que_1' }));
    expect(model.permissionsFor(SES)).toEqual([]);
    expect(model.questionsFor(SES)).toEqual([]);
  });

  it("lists sessions newest first without the agents' own sub-sessions, forks included; a deleted one goes with its messages", () => {
    const model = new ChatModel();
    model.setSessions([session('ses_a', 'First', 1), session('ses_b', 'Second', 3)]);
    model.apply(ev('session.created', { sessionID: 'ses_c', info: session('ses_c', 'Second (fork #1)', 4) }));
    model.apply(
      ev('session.created', {
        sessionID: 'ses_d',
        info: session('ses_d', 'Explore the repo (@explore subagent)', 5, { parentID: 'ses_b' }),
      }),
    );
    expect(model.sessionList().map((s) => s.id)).toEqual(['ses_c', 'ses_b', 'ses_a']);
    model.setMessages('ses_a', []);
    model.apply(ev('session.deleted', { sessionID: 'ses_a', info: session('ses_a', 'First', 1) }));
    expect(model.sessions.has('ses_a')).toBe(false);
    expect(model.messages.has('ses_a')).toBe(false);
  });

  it('a fresh list replaces what was known before it was asked for, not a session made meanwhile', () => {
    const model = new ChatModel();
    model.setSessions([session('ses_old', 'Gone since', 1)]);
    const known = new Set(model.sessions.keys());
    model.apply(ev('session.created', { sessionID: 'ses_new', info: session('ses_new', 'Made while loading', 2) }));
    model.setSessions([session('ses_x', 'Listed', 1)], known);
    expect([...model.sessions.keys()].sort()).toEqual(['ses_new', 'ses_x']);
  });
});
