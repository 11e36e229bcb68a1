/**
 * The chat backend's choice of agent: OpenCode or an agent over ACP (the scripted one of
 * ci/acp-scripted-agent.mjs, over real stdio), the list the panel picks from, and a window's calls
 * and events following the pick.
 */
import { fileURLToPath } from 'node:url';
import type { RpcProxy } from '@theia/core/lib/common/messaging';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../../../conformance/setup.js';
import { startTarget, type Target } from '../../../../../conformance/target.js';
import type { ChatClient, ChatConnection, ChatSettings, Event } from '../../common/chat-protocol.js';
import { ChatService, chatBackendFor } from './chat-backend.js';

const SCRIPTED = fileURLToPath(new URL('../../../../../ci/acp-scripted-agent.mjs', import.meta.url));
const scripted = { name: 'Scripted', command: process.execPath, args: [SCRIPTED] };

let target: Target;
let service: ChatService;
beforeAll(async () => {
  target = await startTarget({ workspace: { kind: 'memory' } });
  service = new ChatService({
    workspace: async () => '/var/tmp',
    hub: () => ({ mcpUrl: target.mcpUrl, token: target.token }),
    endSessions: async () => {},
  });
});
afterAll(async () => {
  service?.dispose();
  await target?.close();
});

/** A window: what its client hears, and its end of the backend. */
function window() {
  const events: Event[] = [];
  const connections: ChatConnection[] = [];
  const client = {
    onEvent: ({ event }: { event: Event }) => void events.push(event),
    onConnection: (c: ChatConnection) => void connections.push(c),
    onDidCloseConnection: () => ({ dispose() {} }),
  } as unknown as RpcProxy<ChatClient>;
  return { events, connections, backend: chatBackendFor(service, client) };
}

const settings = (more: Partial<ChatSettings>): ChatSettings => ({ serverUrl: '', opencodePath: '', ...more });

it('offers OpenCode first, then the ACP agents found on PATH and the person’s, theirs replacing one of the same name', async () => {
  const { backend } = window();
  const mine = { name: 'Claude', command: '/opt/my-claude-acp', args: ['--verbose'] };
  const agents = await backend.chatAgents(settings({ agents: [scripted, mine], serverUrl: 'http://127.0.0.1:4096' }));
  expect(agents[0]).toEqual({ name: 'OpenCode', detail: 'http://127.0.0.1:4096', protocol: 'opencode' });
  expect(agents.filter((a) => a.name === 'Claude')).toEqual([{ name: 'Claude', detail: '/opt/my-claude-acp --verbose', protocol: 'acp' }]);
  expect(agents.at(-2)).toEqual({ name: 'Scripted', detail: `${process.execPath} ${SCRIPTED}`, protocol: 'acp' });
});

it("a window's calls and events follow the agent picked: an ACP agent's session and answer, then back to OpenCode", async () => {
  const first = window();
  expect(await first.backend.connect(settings({ agents: [scripted], agent: 'Scripted' }))).toMatchObject({
    state: 'connected',
    version: '1.0.0',
  });
  const second = window();
  const created = await second.backend.createSession('From the second window');
  expect(created).toMatchObject({ ok: true, value: { title: 'From the second window' } });
  const id = created.ok ? created.value.id : '';
  expect(await second.backend.prompt(id, 'say hello')).toEqual({ ok: true, value: true });
  await eventually(() => expect(first.events.some((e) => e.type === 'session.idle')).toBe(true), 10_000);
  // Both windows heard the answer; what ACP has not (revert, compact) says so.
  expect(second.events.filter((e) => e.type === 'message.part.updated').length).toBeGreaterThan(0);
  const messages = await first.backend.messages(id);
  expect(messages.ok && messages.value[1]!.parts.map((p) => (p.type === 'text' ? p.text : p.type))).toEqual([
    'I do not know how to "say hello".',
  ]);
  expect(await first.backend.revert(id, messages.ok ? messages.value[0]!.info.id : '')).toEqual({
    ok: false,
    message: 'An agent over ACP cannot revert a message.',
  });
  expect(await first.backend.forkSession(id)).toMatchObject({ ok: true, value: { title: 'From the second window (fork)' } });
  expect(await first.backend.models()).toEqual({ ok: true, value: { models: [] } });

  // The person changes the agent's command: a new process, and the windows hear it.
  const changed = { ...scripted, env: { SCRIPTED_AGENT_HISTORY: '1' } };
  expect(await second.backend.connect(settings({ agents: [changed], agent: 'Scripted' }))).toMatchObject({ state: 'connected' });
  const again = await second.backend.createSession('After the change');
  expect(again).toMatchObject({ ok: true });
  await eventually(() =>
    expect(first.events.some((e) => e.type === 'session.created' && e.properties.info.title === 'After the change')).toBe(true),
  );
  // The new process lists its sessions from before: the setting took.
  const listed = await first.backend.sessions();
  expect(listed.ok && listed.value.map((s) => s.id)).toContain('old-1');

  // A pick no longer in the settings, then OpenCode at a URL where nothing answers: each says why.
  expect(await first.backend.connect(settings({ agent: 'Gone' }))).toEqual({
    state: 'failed',
    message: 'No chat agent named "Gone": pick another, or add it to openspace.chat.agents.',
  });
  expect(await first.backend.connect(settings({ agent: 'OpenCode', serverUrl: 'http://127.0.0.1:9' }))).toMatchObject({ state: 'failed' });
  expect(await first.backend.sessions()).toEqual({ ok: false, message: 'OpenCode is not connected.' });
});
