/**
 * Who may reach the hub (issue 4 item 11): loopback Host names only, a browser Origin only the hub's
 * own, the access token on every request — each vector of conformance/fixtures/transport sent to
 * /mcp and /openspace/instructions. And how much one agent turn may do (item 7).
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { useTarget } from '../setup.js';

interface Vector {
  value: string | null;
  allow: boolean;
  why?: string;
}
const vectors = JSON.parse(readFileSync(new URL('../fixtures/transport/host-origin-vectors.json', import.meta.url), 'utf8')) as Record<
  'host' | 'origin' | 'authorization',
  Vector[]
>;

const ctx = useTarget({ maxCallsPerTurn: 50 });

/** A raw request, so the Host header can be anything (fetch does not let a caller set it). */
function send(path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<number> {
  const url = new URL(ctx.target.mcpUrl);
  return new Promise((resolve, reject) => {
    // setHost: false sends the Host given (even an empty one) instead of the one node would add.
    const req = request(
      { host: url.hostname, port: url.port, path, method, headers: { host: url.host, ...headers }, setHost: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'vector', version: '1' } },
});

/** Both kinds of endpoint: the MCP one (an initialize) and an /openspace/* one. */
async function statuses(headers: Record<string, string>): Promise<number[]> {
  const mcp = await send(
    '/mcp',
    { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    'POST',
    INITIALIZE,
  );
  const instructions = await send('/openspace/instructions', headers);
  return [mcp, instructions];
}

function fill(value: string): string {
  const port = new URL(ctx.target.mcpUrl).port;
  const token = ctx.target.token ?? '';
  return value.replaceAll('{port}', port).replaceAll('{tokenPrefix}', token.slice(0, 20)).replaceAll('{token}', token);
}

const authOf = () => ctx.target.headers;
const ownHost = () => new URL(ctx.target.mcpUrl).host;

describe('transport: Host header (DNS rebinding)', () => {
  it.each(vectors.host.map((v) => [v.value || '(empty)', v] as const))('Host %s', async (_name, vector) => {
    const got = await statuses({ ...authOf(), host: fill(vector.value ?? '') });
    if (vector.allow) for (const status of got) expect(status).toBeLessThan(300);
    else expect(got).toEqual([403, 403]);
  });
});

describe('transport: Origin header (cross-site requests)', () => {
  it.each(vectors.origin.map((v) => [v.value ?? '(absent)', v] as const))('Origin %s', async (_name, vector) => {
    const origin: Record<string, string> = vector.value === null ? {} : { origin: fill(vector.value) };
    const got = await statuses({ ...authOf(), host: ownHost(), ...origin });
    if (vector.allow) for (const status of got) expect(status, vector.why).toBeLessThan(300);
    else expect(got, vector.why).toEqual([403, 403]);
  });
});

describe('transport: access token', () => {
  it.for(vectors.authorization.map((v) => [v.value ?? '(absent)', v] as const))('Authorization %s', async ([, vector], t) => {
    if (!ctx.target.token) t.skip('the hub runs with --no-auth');
    const auth: Record<string, string> = vector.value === null ? {} : { authorization: fill(vector.value) };
    const got = await statuses({ host: ownHost(), ...auth });
    if (vector.allow) for (const status of got) expect(status, vector.why).toBeLessThan(300);
    else expect(got, vector.why).toEqual([401, 401]);
  });

  it('takes the token as ?access_token= on GET /openspace/instructions only', async (t) => {
    if (!ctx.target.token) t.skip('the hub runs with --no-auth');
    const token = encodeURIComponent(ctx.target.token ?? '');
    expect(await send(`/openspace/instructions?access_token=${token}`, { host: ownHost() })).toBe(200);
    expect(await send(`/openspace/instructions?access_token=wrong`, { host: ownHost() })).toBe(401);
    expect(await send(`/openspace/health?access_token=${token}`, { host: ownHost() })).toBe(401);
    expect(
      await send(
        `/mcp?access_token=${token}`,
        { host: ownHost(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        'POST',
        INITIALIZE,
      ),
    ).toBe(401);
  });

  it('an MCP client without the token cannot connect', async (t) => {
    if (!ctx.target.token) t.skip('the hub runs with --no-auth');
    await expect(connectAgent(ctx.target.mcpUrl, 'no-token')).rejects.toThrow(/401|Unauthorized|token/i);
  });
});

describe('limits: calls per agent turn (NFR-3.7.2)', () => {
  it('answers the 51st call of a turn with RATE_LIMITED at once; a new turn (POST /openspace/turn) serves again', async () => {
    const agent = await connectAgent(ctx.target, 'busy-agent');
    try {
      for (let i = 0; i < 50; i++) await agent.ok('openspace.pane.list');
      const refused = await agent.fails('openspace.pane.list', {}, 'RATE_LIMITED');
      expect(refused).toMatchObject({ limit: 'turn' });
      expect(refused.error).toMatch(/50/);
      // Other sessions have turns of their own.
      await ctx.agent.ok('openspace.pane.list');
      const sessionId = agent.sessionId;
      const res = await fetch(`${ctx.target.origin}/openspace/turn`, {
        method: 'POST',
        headers: { ...ctx.target.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId }),
      });
      expect(await res.json()).toEqual({ success: true, sessions: 1 });
      await agent.ok('openspace.pane.list');
    } finally {
      await agent.close();
    }
  });

  it('refuses a malformed turn signal', async () => {
    const res = await fetch(`${ctx.target.origin}/openspace/turn`, {
      method: 'POST',
      headers: { ...ctx.target.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 42 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, code: 'INVALID_ARGUMENT' });
  });
});
