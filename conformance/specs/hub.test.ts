import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/families/index.js';
import { connectAgent } from '../client.js';
import { eventually, tabsShown, useTarget } from '../setup.js';

const ctx = useTarget();

async function instructions(): Promise<string> {
  const res = await fetch(`${ctx.target.origin}/openspace/instructions`, { headers: ctx.target.headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/markdown/);
  return res.text();
}

describe('FR-3.8 GET /openspace/instructions', () => {
  it('follows the prompt structure: title, how to use the tools, current state, examples — and lists no schemas', async () => {
    const text = await instructions();
    expect(text).toMatch(/^# System Instructions: Theia OpenSpace IDE Control\n/);
    expect(text).toContain('MCP tools prefixed with "openspace."');
    expect(text).toContain('Call tools/list');
    const state = text.indexOf('## Current IDE State');
    const examples = text.indexOf('## Examples');
    expect(state).toBeGreaterThan(0);
    expect(examples).toBeGreaterThan(state);
    const exampleLines = text
      .slice(examples)
      .split('\n')
      .filter((l) => /^\d\. /.test(l));
    expect(exampleLines.length).toBeGreaterThanOrEqual(2);
    expect(exampleLines.length).toBeLessThanOrEqual(3);
    expect(text).toContain('openspace.editor.open');
    expect(text).not.toContain('inputSchema');
    expect(text).not.toContain('openspace.file.search');
    expect(text.length).toBeLessThan(4000);
  });

  it('names the open file, the active file and the terminal within a second of the window showing them (AC-3.10.1, AC-3.10.3)', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/auth.ts', line: 30 });
    await ctx.agent.ok('openspace.terminal.create', { title: 'instr-term' });
    // The second change is folded into the publish a second after the first (FR-3.10.4). Timed from
    // when the window shows the tabs: how fast a busy window lays out a new editor is not the
    // publisher's doing (the latency spec times the commands themselves).
    await tabsShown(ctx.target);
    const started = Date.now();
    const text = await eventually(
      async () => {
        const t = await instructions();
        expect(t).toMatch(/Active file: src\/auth\.ts/);
        expect(t).toMatch(/Terminals: .*instr-term/);
        return t;
      },
      3000,
      20,
    );
    expect(Date.now() - started).toBeLessThan(1200);
    expect(text).toMatch(/Main area: .*editor: src\/auth\.ts \(active/);
    expect(text).toMatch(/Bottom panel: .*terminal: instr-term/);
    expect(text).toMatch(/Active pane: /);
  });

  it('names the open decks with the slide they show, and the open whiteboards, as they change', async () => {
    await ctx.agent.ok('openspace.presentation.create', { deckPath: 'instr.deck.md', title: 'Instr' });
    await ctx.agent.ok('openspace.presentation.open', { deckPath: 'instr.deck.md' });
    await ctx.agent.ok('openspace.whiteboard.create', { whiteboardId: 'instr.whiteboard.json', title: 'Instr' });
    await ctx.agent.ok('openspace.whiteboard.open', { whiteboardId: 'instr.whiteboard.json' });
    await eventually(async () => {
      const t = await instructions();
      expect(t).toMatch(/Presentations: instr\.deck\.md \(slideIndex 0, stopped\)/);
      expect(t).toMatch(/Whiteboards: instr\.whiteboard\.json/);
    }, 3000);
    await ctx.agent.ok('openspace.presentation.navigate', { deckPath: 'instr.deck.md', slideIndex: 2 });
    await eventually(async () => expect(await instructions()).toMatch(/instr\.deck\.md \(slideIndex 2, stopped\)/), 3000);
    await ctx.agent.ok('openspace.pane.close', { contentId: 'instr.deck.md' });
    await ctx.agent.ok('openspace.pane.close', { contentId: 'instr.whiteboard.json' });
    await eventually(async () => expect(await instructions()).not.toMatch(/instr\.(deck|whiteboard)/), 3000);
  });

  it('drops a closed file from the state (AC-3.10.2)', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'notes.txt' });
    await eventually(async () => expect(await instructions()).toContain('editor: notes.txt'), 3000);
    await ctx.agent.ok('openspace.editor.close', { path: 'notes.txt' });
    await eventually(async () => expect(await instructions()).not.toContain('notes.txt'), 3000);
  });
});

describe('hub endpoints', () => {
  it('reports health with the connected IDE and the tool count', async () => {
    const health = (await (await fetch(`${ctx.target.origin}/openspace/health`, { headers: ctx.target.headers })).json()) as {
      sessions: number;
    };
    expect(health).toMatchObject({ status: 'ok', bridge: { connected: true }, tools: TOOLS.length });
    expect(health.sessions).toBeGreaterThanOrEqual(1);
  });

  it('takes a pane state snapshot on POST /openspace/state and rejects a malformed one', async () => {
    const bad = await fetch(`${ctx.target.origin}/openspace/state`, {
      method: 'POST',
      headers: { ...ctx.target.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ panes: 'nope' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, code: 'INVALID_ARGUMENT' });
  });

  it('answers register-bridge for an unknown IDE connection with 404 BRIDGE_UNAVAILABLE and a bad body with 400', async () => {
    const unknown = await fetch(`${ctx.target.origin}/openspace/register-bridge`, {
      method: 'POST',
      headers: { ...ctx.target.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ bridgeId: 'never-connected' }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, code: 'BRIDGE_UNAVAILABLE' });
    const bad = await fetch(`${ctx.target.origin}/openspace/register-bridge`, {
      method: 'POST',
      headers: { ...ctx.target.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(400);
    // The IDE that serves is unaffected.
    await ctx.agent.ok('openspace.pane.list');
  });

  it('refuses requests whose Host header is not a loopback name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const url = new URL(ctx.target.mcpUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: '/openspace/instructions', headers: { host: 'evil.example:80' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('MCP tool calls', () => {
  it('tier 1: schema violations answer INVALID_ARGUMENT naming every offending field, and nothing runs', async () => {
    const result = await ctx.agent.fails('openspace.editor.open', { path: 42, line: 0, bogus: true }, 'INVALID_ARGUMENT');
    expect(result.error).toMatch(/path/);
    expect(result.error).toMatch(/line/);
    expect(result.error).toMatch(/bogus/);
    expect(result.fields).toEqual(expect.arrayContaining(['path', 'line', 'bogus']));
    await ctx.agent.fails('openspace.file.write', { path: 'x.txt' }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.file.read', { path: 'x.txt' }, 'FILE_NOT_FOUND');
  });

  it('tier 2: only openspace.* tools — anything else answers UNKNOWN_TOOL', async () => {
    const outside = await ctx.agent.fails('shell.exec', { cmd: 'ls' }, 'UNKNOWN_TOOL');
    expect(outside.error).toMatch(/openspace\.\*/);
    await ctx.agent.fails('openspace.editor.explode', {}, 'UNKNOWN_TOOL');
  });

  it('answers every call in order, each after the previous (T6, NFR-3.3.2), even when sent at once', async () => {
    await ctx.agent.ok('openspace.file.write', { path: 'seq.txt', content: '0' });
    // Ten at once: as many as a session may have waiting (NFR-3.1.4); they run in the order sent.
    const calls = Array.from({ length: 10 }, (_, i) => ctx.agent.call('openspace.file.write', { path: 'seq.txt', content: String(i + 1) }));
    const results = await Promise.all(calls);
    expect(results.every((r) => r.success)).toBe(true);
    expect((await ctx.agent.ok('openspace.file.read', { path: 'seq.txt' })).content).toBe('10');
  });

  it('serves several agents at once, each in its own session', async () => {
    const other = await connectAgent(ctx.target, 'second-agent');
    try {
      const [a, b] = await Promise.all([ctx.agent.ok('openspace.pane.list'), other.ok('openspace.pane.list')]);
      expect(a.panes.length).toBe(b.panes.length);
      expect((await other.client.listTools()).tools).toHaveLength(TOOLS.length + 1); // every tool, and openspace.tools.enable
    } finally {
      await other.close();
    }
  });

  it('answers ping, the protocol floor', async () => {
    expect(await ctx.agent.client.ping()).toEqual({});
  });
});
