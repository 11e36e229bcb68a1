/**
 * The chat backend against OpenCode's HTTP API, mocked with nock at the edge (the real server is
 * the E2E's, theia-app/e2e/chat.spec.ts): sessions and messages through the SDK, the event stream
 * numbered and replayed, a dropped stream reconnected, a 500 as a message, a permission round trip,
 * and a server that is missing or dies as a failed connection with its reason.
 */
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatConnection, SequencedEvent } from '../../common/chat-protocol.js';
import { OpenCodeProxy, type StartedServer } from './opencode-proxy.js';

const URL_ = 'http://127.0.0.1:4999';
const DIR = '/work/project';

const session = (id: string, title = 'Chat') => ({
  id,
  slug: id,
  projectID: 'p',
  directory: DIR,
  title,
  version: '1.18.33',
  time: { created: 1, updated: 2 },
});

/** An event stream the test writes to and ends at will; like OpenCode's, it opens with server.connected. */
function eventStream() {
  const stream = new PassThrough();
  const send = (type: string, properties: object) =>
    stream.write(`data: ${JSON.stringify({ id: `e-${Math.random()}`, type, properties })}\n\n`);
  send('server.connected', {});
  return { stream, send, drop: () => stream.end() };
}

function recorder() {
  const events: SequencedEvent[] = [];
  const states: ChatConnection['state'][] = [];
  return {
    events,
    states,
    client: { onEvent: (e: SequencedEvent) => events.push(e), onConnection: (c: ChatConnection) => states.push(c.state) },
  };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function serverWithStream(streams: ReturnType<typeof eventStream>[]) {
  const scope = nock(URL_).get('/global/health').query(true).reply(200, { healthy: true, version: '1.18.33' });
  for (const s of streams)
    scope
      .get('/event')
      .query(true)
      .reply(200, () => s.stream, { 'content-type': 'text/event-stream' });
  return scope;
}

let proxy: OpenCodeProxy;

/** The proxy connected to a server whose live event stream the test writes to, and what its window saw. */
async function connectedWithStream() {
  const live = eventStream();
  serverWithStream([live]);
  const seen = recorder();
  proxy.addClient(seen.client);
  await proxy.connect(URL_);
  return { live, seen };
}

beforeEach(() => {
  nock.disableNetConnect();
  proxy = new OpenCodeProxy({ directory: DIR, retryDelaysMs: [20], giveUpAfterMs: 1000 });
});

afterEach(() => {
  proxy.dispose();
  nock.cleanAll();
  nock.enableNetConnect();
});

describe('OpenCodeProxy', () => {
  it('connects at a URL, lists and creates sessions in the workspace, loads messages', async () => {
    const live = eventStream();
    serverWithStream([live]);
    expect(await proxy.connect(URL_)).toEqual({ state: 'connected', url: URL_, version: '1.18.33', started: false });

    nock(URL_)
      .get('/session')
      .query({ roots: 'true', directory: DIR })
      .reply(200, [session('ses_1', 'Fix login')]);
    expect(await proxy.sessions()).toEqual({ ok: true, value: [expect.objectContaining({ id: 'ses_1', title: 'Fix login' })] });

    let created: unknown;
    nock(URL_)
      .post('/session', (body) => ((created = body), true))
      .reply(200, session('ses_2', 'New'));
    expect(await proxy.createSession('New')).toMatchObject({ ok: true, value: { id: 'ses_2' } });
    expect(created).toEqual({ title: 'New' });

    const message = { info: { id: 'msg_1', sessionID: 'ses_2', role: 'user', time: { created: 1 } }, parts: [] };
    nock(URL_).get('/session/ses_2/message').query(true).reply(200, [message]);
    expect(await proxy.messages('ses_2')).toEqual({ ok: true, value: [message] });
  });

  it('sends a prompt with the chosen model, asynchronously', async () => {
    serverWithStream([eventStream()]);
    await proxy.connect(URL_);
    let sent: unknown;
    nock(URL_)
      .post('/session/ses_1/prompt_async', (body) => ((sent = body), true))
      .reply(204);
    expect(await proxy.prompt('ses_1', 'open a.ts at line 2', { providerID: 'p', modelID: 'm' })).toEqual({ ok: true, value: true });
    expect(sent).toEqual({ model: { providerID: 'p', modelID: 'm' }, parts: [{ type: 'text', text: 'open a.ts at line 2' }] });

    nock(URL_)
      .post('/session/ses_1/prompt_async', (body) => ((sent = body), true))
      .reply(204);
    await proxy.prompt('ses_1', 'plan it', undefined, 'plan');
    expect(sent).toEqual({ agent: 'plan', parts: [{ type: 'text', text: 'plan it' }] });

    // A pasted image goes as a file part with its data URL, as OpenCode's own clients send one.
    nock(URL_)
      .post('/session/ses_1/prompt_async', (body) => ((sent = body), true))
      .reply(204);
    await proxy.prompt('ses_1', 'what is this?', undefined, undefined, [
      { name: 'image.png', mime: 'image/png', dataUrl: 'data:image/png;base64,AQID' },
    ]);
    expect(sent).toEqual({
      parts: [
        { type: 'text', text: 'what is this?' },
        { type: 'file', mime: 'image/png', url: 'data:image/png;base64,AQID', filename: 'image.png' },
      ],
    });
  });

  it("offers OpenCode's primary agents, not its subagents or hidden ones", async () => {
    serverWithStream([eventStream()]);
    await proxy.connect(URL_);
    const agent = (name: string, mode: string, hidden = false) => ({ name, mode, hidden, permission: [], options: {} });
    nock(URL_)
      .get('/agent')
      .query(true)
      .reply(200, [
        agent('build', 'primary'),
        agent('plan', 'primary'),
        agent('general', 'subagent'),
        agent('title', 'primary', true),
        agent('mine', 'all'),
      ]);
    expect(await proxy.agents()).toEqual({ ok: true, value: [{ name: 'build' }, { name: 'plan' }, { name: 'mine' }] });
  });

  it('numbers the events it forwards, leaves out what the panel never shows, and replays what a window missed', async () => {
    const { live, seen } = await connectedWithStream();
    live.send('session.created', { sessionID: 'ses_1', info: session('ses_1') });
    live.send('plugin.added', { id: 'x' });
    live.send('server.heartbeat', {});
    live.send('message.part.delta', { sessionID: 'ses_1', messageID: 'm', partID: 'p', field: 'text', delta: 'Hel' });
    live.send('message.part.delta', { sessionID: 'ses_1', messageID: 'm', partID: 'p', field: 'text', delta: 'lo' });
    await until(() => seen.events.length === 3);
    expect(seen.events.map((e) => [e.seq, e.event.type])).toEqual([
      [1, 'session.created'],
      [2, 'message.part.delta'],
      [3, 'message.part.delta'],
    ]);
    // A window that had seen event 1 (a reload, a dropped socket) catches up on 2 and 3.
    const replay = await proxy.replay(1);
    expect(replay).toMatchObject({ seq: 3, complete: true });
    expect(replay.events.map((e) => e.seq)).toEqual([2, 3]);
    expect(await proxy.replay(3)).toEqual({ events: [], seq: 3, complete: true });
  });

  it('a window too far behind the buffer is told to load afresh', async () => {
    proxy = new OpenCodeProxy({ directory: DIR, bufferSize: 2, retryDelaysMs: [20] });
    const { live, seen } = await connectedWithStream();
    for (let i = 0; i < 4; i++) live.send('session.idle', { sessionID: `ses_${i}` });
    await until(() => seen.events.length === 4);
    expect(await proxy.replay(1)).toEqual({ events: [], seq: 4, complete: false });
    expect((await proxy.replay(2)).complete).toBe(true);
  });

  it('reconnects when the event stream drops, and no window can replay across the gap', async () => {
    const first = eventStream();
    const second = eventStream();
    serverWithStream([first, second]);
    const seen = recorder();
    proxy.addClient(seen.client);
    await proxy.connect(URL_);
    first.send('session.idle', { sessionID: 'ses_1' });
    await until(() => seen.events.length === 1);
    first.drop();
    await until(() => seen.states.includes('reconnecting'));
    second.send('session.status', { sessionID: 'ses_1', status: { type: 'busy' } });
    await until(() => seen.events.length === 2);
    expect(seen.states).toEqual(['starting', 'connected', 'reconnecting', 'connected']);
    expect(seen.events[1]!.event.type).toBe('session.status');
    // Events may have been lost while the stream was down: a window at 1 must load afresh …
    expect((await proxy.replay(1)).complete).toBe(false);
    // … one that has seen the first event after it is fine.
    expect((await proxy.replay(2)).complete).toBe(true);
  });

  it('gives up when the stream stays down, with a message the panel shows', async () => {
    const first = eventStream();
    serverWithStream([first]);
    nock(URL_).get('/event').query(true).times(1000).reply(503, 'down');
    proxy = new OpenCodeProxy({ directory: DIR, retryDelaysMs: [20], giveUpAfterMs: 200 });
    const seen = recorder();
    proxy.addClient(seen.client);
    await proxy.connect(URL_);
    first.drop();
    await until(() => seen.states.at(-1) === 'failed');
    expect(proxy.connection()).toEqual({ state: 'failed', message: `OpenCode at ${URL_} stopped answering.` });
  });

  it('an error from OpenCode is a message, not an exception', async () => {
    serverWithStream([eventStream()]);
    await proxy.connect(URL_);
    nock(URL_)
      .post('/session/ses_1/abort')
      .query(true)
      .reply(500, { name: 'UnknownError', data: { message: 'database is locked' } });
    expect(await proxy.abort('ses_1')).toEqual({ ok: false, message: 'OpenCode answered 500: database is locked' });
  });

  it('a permission request arrives as an event; the answer goes back through the SDK', async () => {
    const { live, seen } = await connectedWithStream();
    const asked = {
      id: 'per_1',
      sessionID: 'ses_1',
      permission: 'openspace_openspace_file_write',
      patterns: ['*'],
      metadata: {},
      always: ['*'],
      tool: { messageID: 'm', callID: 'call_2' },
    };
    live.send('permission.asked', asked);
    await until(() => seen.events.length === 1);
    expect(seen.events[0]!.event).toMatchObject({ type: 'permission.asked', properties: asked });

    nock(URL_).get('/permission').query(true).reply(200, [asked]);
    expect(await proxy.permissions()).toEqual({ ok: true, value: [asked] });

    let reply: unknown;
    nock(URL_)
      .post('/permission/per_1/reply', (body) => ((reply = body), true))
      .query(true)
      .reply(200, 'true', { 'content-type': 'application/json' });
    expect(await proxy.replyPermission('per_1', 'once')).toEqual({ ok: true, value: true });
    expect(reply).toEqual({ reply: 'once' });
    live.send('permission.replied', { sessionID: 'ses_1', requestID: 'per_1', reply: 'once' });
    await until(() => seen.events.length === 2);
  });

  it("a question the agent asks arrives as an event; the person's answer or refusal goes back", async () => {
    const { live, seen } = await connectedWithStream();
    const asked = {
      id: 'que_1',
      sessionID: 'ses_1',
      questions: [{ header: 'DB', question: 'Which?', options: [{ label: 'SQLite', description: '' }] }],
    };
    live.send('question.asked', asked);
    await until(() => seen.events.length === 1);
    expect(seen.events[0]!.event).toMatchObject({ type: 'question.asked', properties: asked });

    let body: unknown;
    nock(URL_)
      .post('/question/que_1/reply', (b) => ((body = b), true))
      .query(true)
      .reply(200, 'true', { 'content-type': 'application/json' });
    expect(await proxy.answerQuestion('que_1', [['SQLite']])).toEqual({ ok: true, value: true });
    expect(body).toEqual({ answers: [['SQLite']] });
    nock(URL_)
      .post('/question/que_2/reject')
      .query(true)
      .reply(404, { _tag: 'QuestionNotFoundError', requestID: 'que_2', message: 'No such question' });
    expect(await proxy.dismissQuestion('que_2')).toEqual({ ok: false, message: 'OpenCode answered 404: No such question' });
  });

  it('nothing answering at the URL fails with what to check', async () => {
    nock(URL_)
      .get('/global/health')
      .query(true)
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const state = await proxy.connect(URL_);
    expect(state.state).toBe('failed');
    expect(state.state === 'failed' && state.message).toMatch(/127\.0\.0\.1:4999|ECONNREFUSED/);
    nock(URL_).get('/session').query(true).reply(200, []);
    expect(await proxy.sessions()).toEqual({ ok: false, message: 'OpenCode is not connected.' });
  });

  it('starts a server when no URL is set, and a server that dies is a failed connection with its last words', async () => {
    let exit: (words: string) => void = () => undefined;
    let starts = 0;
    const start = async (): Promise<StartedServer> => {
      starts++;
      return { url: URL_, stop: () => undefined, exited: new Promise<string>((resolve) => (exit = resolve)) };
    };
    proxy = new OpenCodeProxy({ directory: DIR, start, retryDelaysMs: [20] });
    const live = eventStream();
    serverWithStream([live]);
    nock(URL_).get('/event').query(true).times(100).reply(503);
    const seen = recorder();
    proxy.addClient(seen.client);
    expect(await proxy.connect()).toMatchObject({ state: 'connected', started: true });
    exit('Error: database disk image is malformed\n(exit 1)');
    live.drop();
    await until(() => seen.states.at(-1) === 'failed');
    expect(proxy.connection()).toEqual({
      state: 'failed',
      message: 'OpenCode exited. It said: Error: database disk image is malformed\n(exit 1)',
    });
    // Retry starts it again.
    nock.cleanAll();
    const again = eventStream();
    serverWithStream([again]);
    expect((await proxy.connect()).state).toBe('connected');
    expect(starts).toBe(2);
  });

  it('a server that cannot start is a failed connection with the reason', async () => {
    proxy = new OpenCodeProxy({
      directory: DIR,
      start: async () => {
        throw new Error('OpenCode was not found (neither installed with this app nor on PATH).');
      },
    });
    expect(await proxy.connect()).toEqual({
      state: 'failed',
      message: 'OpenCode was not found (neither installed with this app nor on PATH).',
    });
  });
});
