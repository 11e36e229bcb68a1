/**
 * The person's own terminals (issue 14): an agent reads a terminal the person opened only after
 * they allowed it (CONSENT_REQUIRED otherwise); terminals OpenSpace opened stay readable. The
 * simulated IDE's person opens one through its person API and answers with a setting; in Theia the
 * terminal Theia opened at start is the person's, and they answer a dialog.
 */
import { describe, expect, it } from 'vitest';
import { useTarget } from '../setup.js';

const ctx = useTarget();

/** A terminal the person opened themselves: Theia's own at start, or one the simulated IDE's person opens. */
async function personalTerminal(): Promise<string | undefined> {
  if (ctx.target.sim) return (await ctx.target.sim.terminals.personOpens('mine')).terminalId;
  if (!ctx.target.page) return undefined;
  const { terminals } = await ctx.agent.ok('openspace.terminal.list', {});
  return terminals.find((t: { personal?: boolean }) => t.personal)?.terminalId;
}

describe("reading the person's terminals", () => {
  it('needs their permission; the terminals an agent opens do not', async (t) => {
    const terminalId = await personalTerminal();
    if (!terminalId) return t.skip('needs a person to open a terminal: only the simulated IDE and Theia offer one');
    const { terminals } = await ctx.agent.ok('openspace.terminal.list', {});
    expect(terminals.find((x: { terminalId: string }) => x.terminalId === terminalId)).toMatchObject({ personal: true });

    const own = await ctx.agent.ok('openspace.terminal.create', { title: 'mine-too' });
    expect(terminals.find((x: { terminalId: string }) => x.terminalId === own.terminalId)).toBeUndefined();
    expect(await ctx.agent.ok('openspace.terminal.read_output', { terminalId: own.terminalId })).toMatchObject({ success: true });
    const listed = (await ctx.agent.ok('openspace.terminal.list', {})).terminals;
    expect(listed.find((x: { terminalId: string }) => x.terminalId === own.terminalId).personal).toBeUndefined();

    const page = ctx.target.page;
    const dialog = page?.locator('.dialogBlock', { hasText: 'wants to read the output of your terminal' });
    // Refused.
    const refused = ctx.agent.call('openspace.terminal.read_output', { terminalId });
    if (page) {
      await dialog!.waitFor({ state: 'visible', timeout: 10_000 });
      await dialog!.getByRole('button', { name: 'Deny' }).click();
    }
    const answer = await refused;
    expect(answer).toMatchObject({ success: false, code: 'CONSENT_REQUIRED' });
    expect(answer.error).toContain('opened themselves');

    // Allowed, then readable without asking again.
    if (ctx.target.sim) ctx.target.sim.personTerminalReads = 'allow';
    const allowed = ctx.agent.call('openspace.terminal.read_output', { terminalId });
    if (page) {
      await dialog!.waitFor({ state: 'visible', timeout: 10_000 });
      await dialog!.getByRole('button', { name: 'Allow' }).click();
    }
    expect(await allowed).toMatchObject({ success: true, terminalId });
    expect(await ctx.agent.ok('openspace.terminal.read_output', { terminalId, lines: 5 })).toMatchObject({ terminalId });
    if (page) expect(await dialog!.count()).toBe(0);
  });
});
