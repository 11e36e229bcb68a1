import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectAgent, type Agent } from '../../conformance/client.js';
import { eventually } from '../../conformance/setup.js';
import type { CommandBridge } from './bridge.js';
import { TOOLS } from '../families/index.js';
import type { TabInfo } from '../contract/index.js';
import { renderInstructions } from './instructions.js';
import { Hub } from './hub.js';
import { FAILED_ACCESS_BURST, MAX_SESSIONS_PER_TOKEN } from './router.js';
import { startHubServer, type HubServer } from './server.js';

let server: HubServer | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  await server?.close();
  agent = server = undefined;
});

async function serve(hub: Hub): Promise<Agent> {
  server = await startHubServer(hub);
  agent = await connectAgent(server);
  return agent;
}

/** The bearer token raw HTTP requests to the test's hub need. */
const auth = (): Record<string, string> => ({ authorization: `Bearer ${server!.token}` });

/** An IDE that answers every command with a fixed pane list. */
const answering = (name: string): CommandBridge => ({
  execute: async () => ({
    success: true,
    panes: [{ id: name, area: 'main', tabs: [], activeTabIndex: -1, geometry: { x: 0, y: 0, width: 100, height: 100 } }],
  }),
});

describe('the hub without an IDE', () => {
  it('answers every tool call with BRIDGE_UNAVAILABLE at once, and says so in the instructions', async () => {
    const a = await serve(new Hub());
    const started = Date.now();
    const result = await a.fails('openspace.editor.open', { path: 'src/index.ts' }, 'BRIDGE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(500);
    expect(result.error).toMatch(/No IDE is connected/);
    expect((await a.client.listTools()).tools).toHaveLength(TOOLS.length + 1); // every tool, and openspace.tools.enable
    const text = await (await fetch(`${server!.origin}/openspace/instructions`, { headers: auth() })).text();
    expect(text).toMatch(/No IDE is connected/);
    const health = (await (await fetch(`${server!.origin}/openspace/health`, { headers: auth() })).json()) as {
      bridge: { connected: boolean };
    };
    expect(health.bridge.connected).toBe(false);
  });

  it('still checks arguments first: bad input is INVALID_ARGUMENT even with no IDE', async () => {
    const a = await serve(new Hub());
    await a.fails('openspace.editor.open', {}, 'INVALID_ARGUMENT');
  });
});

describe('bridges', () => {
  it('the IDE registered last serves; when it goes away the previous one serves again', async () => {
    const hub = new Hub();
    const a = await serve(hub);
    hub.bridges.offer('window-1', answering('from-window-1'));
    hub.bridges.offer('window-2', answering('from-window-2'));
    const register = (bridgeId: string) =>
      fetch(`${server!.origin}/openspace/register-bridge`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ bridgeId }),
      });
    expect((await register('window-1')).status).toBe(200);
    expect((await register('window-2')).status).toBe(200);
    expect((await a.ok('openspace.pane.list')).panes[0].id).toBe('from-window-2');
    expect((await register('window-1')).status).toBe(200);
    expect((await a.ok('openspace.pane.list')).panes[0].id).toBe('from-window-1');
    hub.bridges.withdraw('window-1');
    expect((await a.ok('openspace.pane.list')).panes[0].id).toBe('from-window-2');
    hub.bridges.withdraw('window-2');
    await a.fails('openspace.pane.list', {}, 'BRIDGE_UNAVAILABLE');
  });

  it('turns an IDE that does not answer into TIMEOUT, and one whose connection breaks into BRIDGE_UNAVAILABLE', async () => {
    const hub = new Hub({ callTimeoutMs: 150 });
    const a = await serve(hub);
    hub.bridges.offer('hung', { execute: () => new Promise(() => {}) });
    hub.bridges.register('hung');
    const result = await a.fails('openspace.pane.list', {}, 'TIMEOUT');
    expect(result.error).toMatch(/150 ms/);
    hub.bridges.offer('broken', { execute: async () => Promise.reject(new Error('socket closed')) });
    hub.bridges.register('broken');
    const broken = await a.fails('openspace.pane.list', {}, 'BRIDGE_UNAVAILABLE');
    expect(broken.error).toMatch(/socket closed/);
    // A hung call does not block the session: later calls are answered.
    hub.bridges.withdraw('broken');
    hub.bridges.withdraw('hung');
    await a.fails('openspace.pane.list', {}, 'BRIDGE_UNAVAILABLE');
  });

  it("gives a call that waits on purpose (terminal.run's timeoutMs) that much longer before TIMEOUT", async () => {
    const hub = new Hub({ callTimeoutMs: 150 });
    const a = await serve(hub);
    // Answers after 400 ms: past the hub's 150 ms, within 150 ms plus what terminal.run may wait.
    const late = { success: true as const, terminalId: 'agent', output: [], truncated: false, startCursor: 0, cursor: 0, redacted: false };
    hub.bridges.offer('slow', {
      execute: () => new Promise((resolve) => setTimeout(() => resolve({ ...late, durationMs: 400, timedOut: true }), 400)),
    });
    hub.bridges.register('slow');
    const run = await a.ok('openspace.terminal.run', { command: 'sleep 1', timeoutMs: 300 });
    expect(run.durationMs).toBe(400);
    const other = await a.fails('openspace.pane.list', {}, 'TIMEOUT');
    expect(other.error).toMatch(/150 ms/);
  });

  it('stores a posted pane state and renders it into the instructions; an older snapshot does not replace a newer one', async () => {
    const hub = new Hub();
    hub.bridges.offer('ide', answering('x'));
    hub.bridges.register('ide');
    await serve(hub);
    const post = (body: unknown) =>
      fetch(`${server!.origin}/openspace/state`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const pane = (contentId: string) => ({
      id: 'main-1',
      area: 'main',
      tabs: [{ contentId, type: 'editor', title: contentId, isDirty: false }],
      activeTabIndex: 0,
      geometry: { x: 0, y: 0, width: 100, height: 100 },
    });
    const newer = await post({
      panes: [pane('src/new.ts')],
      activePaneId: 'main-1',
      activeEditor: 'src/new.ts',
      timestamp: '2026-01-01T00:00:02.000Z',
    });
    expect(await newer.json()).toEqual({ success: true, accepted: true });
    const older = await post({ panes: [pane('src/old.ts')], timestamp: '2026-01-01T00:00:01.000Z' });
    expect(await older.json()).toEqual({ success: true, accepted: false });
    const text = await (await fetch(`${server!.origin}/openspace/instructions`, { headers: auth() })).text();
    expect(text).toContain('Active file: src/new.ts');
    expect(text).not.toContain('src/old.ts');
  });

  it('ends the sessions of a labelled client whose launcher says it is gone, and no other', async () => {
    const hub = new Hub();
    await serve(hub);
    const client = new Client({ name: 'opencode', version: '1.0.0' });
    const headers = { ...auth(), 'x-openspace-label': 'chat-opencode-1' };
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.mcpUrl), { requestInit: { headers } }));
    await eventually(() => expect(hub.connectedSessions()).toHaveLength(2));
    expect(hub.connectedSessions().find((s) => s.clientName === 'opencode')?.label).toBe('chat-opencode-1');
    // The process was killed: its MCP session never said goodbye.
    await hub.endLabelledSessions('chat-opencode-1');
    expect(hub.connectedSessions().map((s) => s.clientName)).toEqual(['conformance-agent']);
    await client.close();
  });

  it("says in the right panel's line what the chat panel reports of itself", () => {
    const chat = {
      contentId: 'openspace-chat',
      type: 'view',
      title: 'Chat',
      isDirty: false,
      status: 'OpenCode chat connected, session "Fix login", busy',
    };
    const text = renderInstructions({
      ideConnected: true,
      ideName: 'Theia',
      snapshot: {
        panes: [
          { id: 'right', area: 'right', tabs: [chat as TabInfo], activeTabIndex: 0, geometry: { x: 70, y: 0, width: 30, height: 100 } },
        ],
        timestamp: '2026-01-01T00:00:00.000Z',
      },
    });
    expect(text).toContain('- Right panel: view: openspace-chat (active) — OpenCode chat connected, session "Fix login", busy');
  });
});

describe('limits (NFR-3.1.4)', () => {
  it('answers the 11th call a session has waiting with RATE_LIMITED at once, and serves the others', async () => {
    const hub = new Hub();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // An IDE that is busy until released.
    hub.bridges.offer('slow', { execute: async () => (await gate, { success: true, panes: [] }) });
    hub.bridges.register('slow');
    const a = await serve(hub);
    const calls = Array.from({ length: 10 }, () => a.call('openspace.pane.list'));
    // The health endpoint counts them once they have all arrived.
    await eventually(async () => {
      const health = (await (await fetch(`${server!.origin}/openspace/health`, { headers: auth() })).json()) as { pendingCalls: number };
      expect(health.pendingCalls).toBe(10);
    });
    const started = Date.now();
    const eleventh = await a.fails('openspace.pane.list', {}, 'RATE_LIMITED');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(eleventh.error).toMatch(/at most 10/);
    release();
    expect((await Promise.all(calls)).every((r) => r.success)).toBe(true);
    // With the queue drained, calls are taken again.
    await a.ok('openspace.pane.list');
  });
});

describe('sessions', () => {
  it('rejects requests without a session or with an unknown one, and ends a session on DELETE', async () => {
    const hub = new Hub();
    await serve(hub);
    const post = (headers: Record<string, string>) =>
      fetch(server!.mcpUrl, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post({})).status).toBe(400);
    expect((await post({ 'mcp-session-id': 'made-up' })).status).toBe(404);
    const sessionId = agent!.sessionId!;
    expect(sessionId).toBeTruthy();
    const del = await fetch(server!.mcpUrl, { method: 'DELETE', headers: { ...auth(), 'mcp-session-id': sessionId } });
    expect(del.status).toBe(200);
    expect((await post({ 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' })).status).toBe(404);
  });
});

describe('transport limits', () => {
  const INITIALIZE = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  /** A raw initialize: its status, new session ID and body. */
  const initialize = async (headers: Record<string, string> = auth()) => {
    const res = await fetch(server!.mcpUrl, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    return {
      status: res.status,
      sessionId: res.headers.get('mcp-session-id'),
      body: await res.text(),
      retryAfter: res.headers.get('retry-after'),
    };
  };
  const close = (sessionId: string) => fetch(server!.mcpUrl, { method: 'DELETE', headers: { ...auth(), 'mcp-session-id': sessionId } });
  const health = async () =>
    (await (await fetch(`${server!.origin}/openspace/health`, { headers: auth() })).json()) as {
      sessions: number;
      limits: { maxSessions: number };
    };

  it(`holds at most ${MAX_SESSIONS_PER_TOKEN} MCP sessions per access token: the next initialize is refused, saying the cap and how to close sessions; a closed one frees its slot`, async () => {
    server = await startHubServer(new Hub(), { lockFile: false });
    const opened: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_TOKEN; i++) {
      const answer = await initialize();
      expect(answer.status, answer.body).toBe(200);
      opened.push(answer.sessionId!);
    }
    expect(new Set(opened).size).toBe(MAX_SESSIONS_PER_TOKEN);
    expect(await health()).toMatchObject({ sessions: MAX_SESSIONS_PER_TOKEN, limits: { maxSessions: MAX_SESSIONS_PER_TOKEN } });

    const refused = await initialize();
    expect(refused.status).toBe(429);
    expect(refused.sessionId).toBeNull();
    const error = JSON.parse(refused.body) as { jsonrpc: string; id: null; error: { code: number; message: string; data: unknown } };
    expect(error).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { limit: 'sessions', maxSessions: MAX_SESSIONS_PER_TOKEN } },
    });
    expect(error.error.message).toContain(`the most it may have at once (${MAX_SESSIONS_PER_TOKEN})`);
    expect(error.error.message).toMatch(/DELETE to \/mcp with their mcp-session-id header/);
    expect(error.error.message).toMatch(/30 min/);
    expect((await health()).sessions).toBe(MAX_SESSIONS_PER_TOKEN);

    expect((await close(opened[0]!)).status).toBe(200);
    const again = await initialize();
    expect(again.status).toBe(200);
    expect((await initialize()).status).toBe(429);
    // A full hub still serves the sessions it has.
    const listed = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        ...auth(),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': again.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('openspace.file.read');
  });

  it('lets no more sessions in when many initializes arrive at once', async () => {
    server = await startHubServer(new Hub(), { lockFile: false });
    const answers = await Promise.all(Array.from({ length: MAX_SESSIONS_PER_TOKEN + 8 }, () => initialize()));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_SESSIONS_PER_TOKEN);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    expect((await health()).sessions).toBe(MAX_SESSIONS_PER_TOKEN);
  });

  it('an expired session frees its slot', async () => {
    server = await startHubServer(new Hub(), { lockFile: false, sessionIdleMs: 2000 });
    const opened = await Promise.all(Array.from({ length: MAX_SESSIONS_PER_TOKEN }, () => initialize()));
    expect(opened.map((a) => a.status)).toEqual(opened.map(() => 200));
    const refused = await initialize();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatch(/without requests for 2 s is closed/);
    await eventually(async () => expect((await initialize()).status).toBe(200), 6000, 100);
  });

  it('slows down requests without a valid token per client address (429 after a burst), while those with the token are served', async () => {
    server = await startHubServer(new Hub(), { lockFile: false });
    const started = performance.now();
    const statuses: number[] = [];
    let limited: Response | undefined;
    // 500 requests without the token (or with a wrong one), 50 at a time, on both kinds of endpoint.
    for (let i = 0; i < 500; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          (i + j) % 3 === 0
            ? fetch(server!.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: INITIALIZE })
            : fetch(`${server!.origin}/openspace/health`, (i + j) % 3 === 1 ? {} : { headers: { authorization: 'Bearer wrong' } }),
        ),
      );
      for (const res of batch) {
        statuses.push(res.status);
        if (res.status === 429) limited ??= res;
        else await res.body?.cancel();
      }
      // Meanwhile the agent with the token is not locked out.
      expect((await fetch(`${server!.origin}/openspace/health`, { headers: auth() })).status).toBe(200);
    }
    const seconds = (performance.now() - started) / 1000;
    const unauthorized = statuses.filter((s) => s === 401).length;
    const tooMany = statuses.filter((s) => s === 429).length;
    expect(unauthorized + tooMany).toBe(500);
    expect(unauthorized).toBeGreaterThanOrEqual(FAILED_ACCESS_BURST);
    // The burst, then 10 a second (the default) for as long as the flood lasted.
    expect(unauthorized).toBeLessThanOrEqual(FAILED_ACCESS_BURST + Math.ceil(seconds * 10) + 1);
    expect(tooMany).toBeGreaterThan(300);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited!.json()).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/^Too many requests without a valid access token from this address; retry after/),
      },
    });
    // An MCP client with the token still connects.
    agent = await connectAgent(server);
    expect((await agent.client.listTools()).tools).toHaveLength(TOOLS.length + 1); // every tool, and openspace.tools.enable
    // The budget refills: after a while a request without the token is told it lacks one again.
    await eventually(async () => expect((await fetch(`${server!.origin}/openspace/health`)).status).toBe(401), 3000, 200);
  });
});

describe('mounting', () => {
  it("mounts in an Express app next to the app's own routes, as Theia's backend does", async () => {
    const express = (await import('express')).default;
    const { createHubRouter } = await import('./router.js');
    const hub = new Hub();
    hub.bridges.offer('ide', answering('mounted'));
    hub.bridges.register('ide');
    const app = express();
    app.use(express.json());
    app.get('/own-route', (_req, res) => void res.send('app'));
    const router = createHubRouter(hub);
    app.use(router);
    const http = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const origin = `http://127.0.0.1:${(http.address() as import('node:net').AddressInfo).port}`;
    try {
      expect(await (await fetch(`${origin}/own-route`)).text()).toBe('app');
      const a = await connectAgent(`${origin}/mcp`);
      expect((await a.ok('openspace.pane.list')).panes[0].id).toBe('mounted');
      await a.close();
      // The app's body parser ran first: the hub takes the parsed body.
      const posted = await fetch(`${origin}/openspace/register-bridge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bridgeId: 'ide' }),
      });
      expect(await posted.json()).toEqual({ success: true, bridgeId: 'ide' });
      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    } finally {
      await router.closeSessions();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    }
  });
});
