/**
 * The first agent command in a workspace needs the person's consent (NFR-3.8.2; on the simulated
 * IDE on disk: asked through the agent's MCP client), and a session left idle is ended and cleaned
 * up (NFR-3.7.1). Theia's consent dialog has its own E2E test (theia-app/e2e).
 */
import { describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { eventually, useTarget } from '../setup.js';

// Long enough that a loaded machine never idles out the session the consent test uses between its calls.
const IDLE_MS = 4000;
const ctx = useTarget({ consent: 'ask', sessionIdleMs: IDLE_MS });

describe('consent (NFR-3.8.2)', () => {
  it('without consent every agent call answers CONSENT_REQUIRED and does nothing; consent given through elicitation holds for the workspace', async (t) => {
    if (!ctx.target.sim) t.skip('Theia asks with its own dialog (E2E)');
    const refused = await ctx.agent.fails('openspace.file.write', { path: 'consent.txt', content: 'x' }, 'CONSENT_REQUIRED');
    expect(refused.error).toMatch(/allow/i);
    await ctx.agent.fails('openspace.file.read', { path: 'consent.txt' }, 'CONSENT_REQUIRED');

    let allow = false;
    const agent = await connectAgent(ctx.target, 'consenting-agent', { ask: () => (allow ? { allow: true } : undefined) });
    const { asked } = agent;
    try {
      expect(await agent.call('openspace.pane.list', {})).toMatchObject({ success: false, code: 'CONSENT_REQUIRED' });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/The AI agent "consenting-agent" wants to control your IDE/);
      allow = true;
      expect(await agent.call('openspace.file.write', { path: 'consent.txt', content: 'x' })).toMatchObject({ success: true });
      expect(asked).toHaveLength(2);
      // Asked once: later calls, and other sessions, go through.
      expect(await agent.call('openspace.file.read', { path: 'consent.txt' })).toMatchObject({ success: true, content: 'x' });
      expect(asked).toHaveLength(2);
      await ctx.agent.ok('openspace.file.read', { path: 'consent.txt' });
    } finally {
      await agent.close();
    }
  });
});

describe('idle sessions (NFR-3.7.1)', () => {
  it(`a session without requests for ${IDLE_MS} ms is ended and what it created is closed`, async (t) => {
    if (!ctx.target.sim) t.skip('the idle timeout of a started Theia is fixed at start');
    const idler = await connectAgent(ctx.target, 'idle-agent');
    await idler.ok('openspace.terminal.create', { title: 'idle-scratch' });
    const observer = await connectAgent(ctx.target, 'observer');
    try {
      await eventually(async () => {
        const terminals = (await observer.ok('openspace.terminal.list')).terminals.map((x: { terminalId: string }) => x.terminalId);
        expect(terminals).not.toContain('idle-scratch');
      }, IDLE_MS * 4);
      // The ended session is gone: its next request is refused, as MCP says, with 404.
      await expect(idler.client.listTools()).rejects.toThrow(/404|session/i);
    } finally {
      await observer.close();
      await idler.close().catch(() => undefined);
    }
  });
});
