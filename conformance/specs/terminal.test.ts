import { describe, expect, it } from 'vitest';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();

/** Read a terminal until some line matches, as an agent polls. */
async function waitForLine(terminalId: string, pattern: RegExp, since?: number) {
  return eventually(async () => {
    const read = await ctx.agent.ok('openspace.terminal.read_output', { terminalId, since, lines: 1000 });
    expect(
      read.output.some((l: string) => pattern.test(l)),
      `no line matching ${pattern} in ${JSON.stringify(read.output)}`,
    ).toBe(true);
    return read;
  }, 5000);
}

describe('US-3.3 agent creates a terminal and runs a command', () => {
  it('creates "test-runner", sends to it by title and reads "hello" back (AC-3.3.1–3.3.5, AC-3.4.2, T3, T4)', async () => {
    const created = await ctx.agent.ok('openspace.terminal.create', { title: 'test-runner' });
    expect(created).toMatchObject({ terminalId: 'test-runner', title: 'test-runner', cwd: '' });
    const { panes } = await ctx.agent.ok('openspace.pane.list');
    const bottom = panes.find((p: { area: string }) => p.area === 'bottom');
    expect(bottom.tabs).toContainEqual(expect.objectContaining({ contentId: 'test-runner', type: 'terminal', title: 'test-runner' }));

    const sent = await ctx.agent.ok('openspace.terminal.send', { terminalId: 'test-runner', text: 'echo hello\n' });
    expect(sent.terminalId).toBe('test-runner');
    const read = await waitForLine('test-runner', /^hello$/, sent.cursor);
    expect(read.output.join('\n')).not.toMatch(/\u001b/);
    expect(read.running).toBe(true);
  });

  it('presses Enter unless told not to, and reads incrementally with since: no gaps, no repeats', async () => {
    const { terminalId } = await ctx.agent.ok('openspace.terminal.create', { title: 'incremental' });
    const first = await ctx.agent.ok('openspace.terminal.send', { terminalId, text: 'echo one' });
    const r1 = await waitForLine(terminalId, /^one$/, first.cursor);
    await ctx.agent.ok('openspace.terminal.send', { terminalId, text: 'echo two' });
    const r2 = await waitForLine(terminalId, /^two$/, r1.cursor);
    expect(r2.output).not.toContain('one');
    const again = await ctx.agent.ok('openspace.terminal.read_output', { terminalId, since: r2.cursor });
    expect(again.output).toEqual([]);
    expect(again.cursor).toBe(r2.cursor);
    expect(again.more).toBe(false);

    // Typed without Enter: nothing runs until Enter comes.
    const typed = await ctx.agent.ok('openspace.terminal.send', { terminalId, text: 'echo three', enter: false });
    const partial = await ctx.agent.ok('openspace.terminal.read_output', { terminalId, since: typed.cursor });
    expect(partial.output).not.toContain('three');
    await ctx.agent.ok('openspace.terminal.send', { terminalId, text: '\r', enter: false });
    await waitForLine(terminalId, /^three$/, typed.cursor);
  });

  it('returns the last N lines with lines, and pages with since', async () => {
    const { terminalId } = await ctx.agent.ok('openspace.terminal.create', { title: 'pager' });
    const sent = await ctx.agent.ok('openspace.terminal.send', { terminalId, text: 'printf "l1\\nl2\\nl3\\nl4\\n"' });
    await waitForLine(terminalId, /^l4$/, sent.cursor);
    const last = await ctx.agent.ok('openspace.terminal.read_output', { terminalId, lines: 2 });
    expect(last.output).toHaveLength(2);
    const page1 = await ctx.agent.ok('openspace.terminal.read_output', { terminalId, since: sent.cursor, lines: 2 });
    const page2 = await ctx.agent.ok('openspace.terminal.read_output', { terminalId, since: page1.cursor, lines: 100 });
    const lines = [...page1.output, ...page2.output];
    expect(lines.filter((l: string) => /^l\d$/.test(l))).toEqual(['l1', 'l2', 'l3', 'l4']);
    expect(page1.more).toBe(true);
  });

  it('lists terminals and gives readable, unique IDs from titles', async () => {
    const a = await ctx.agent.ok('openspace.terminal.create', { title: 'Build Logs' });
    const b = await ctx.agent.ok('openspace.terminal.create', { title: 'Build Logs' });
    expect(a.terminalId).toBe('build-logs');
    expect(b.terminalId).toBe('build-logs-2');
    const untitled = await ctx.agent.ok('openspace.terminal.create', {});
    expect(untitled.terminalId).toMatch(/^terminal-\d+$/);
    const { terminals } = await ctx.agent.ok('openspace.terminal.list');
    expect(terminals.map((t: { terminalId: string }) => t.terminalId)).toEqual(
      expect.arrayContaining(['test-runner', 'build-logs', 'build-logs-2', untitled.terminalId]),
    );
    // Two terminals share the title: the title alone is ambiguous.
    await ctx.agent.fails('openspace.terminal.send', { terminalId: 'Build Logs', text: 'true' }, 'INVALID_ARGUMENT');
  });

  it('starts in a working directory inside the workspace and refuses one outside', async () => {
    const created = await ctx.agent.ok('openspace.terminal.create', { title: 'in-src', cwd: 'src' });
    expect(created.cwd).toBe('src');
    const sent = await ctx.agent.ok('openspace.terminal.send', { terminalId: 'in-src', text: 'pwd' });
    await waitForLine('in-src', /\/src$/, sent.cursor);
    await ctx.agent.fails('openspace.terminal.create', { cwd: '../..' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.terminal.create', { cwd: 'no-such-dir' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.terminal.create', { cwd: 'README.md' }, 'NOT_A_DIRECTORY');
  });

  it('answers unknown terminals with TERMINAL_NOT_FOUND naming the open ones', async () => {
    const result = await ctx.agent.fails('openspace.terminal.send', { terminalId: 'nope', text: 'ls' }, 'TERMINAL_NOT_FOUND');
    expect(result.error).toMatch(/test-runner/);
    await ctx.agent.fails('openspace.terminal.read_output', { terminalId: 'nope' }, 'TERMINAL_NOT_FOUND');
    await ctx.agent.fails('openspace.terminal.close', { terminalId: 'nope' }, 'TERMINAL_NOT_FOUND');
  });

  it('reports an exited shell and refuses to send to it with TERMINAL_EXITED', async () => {
    const { terminalId } = await ctx.agent.ok('openspace.terminal.create', { title: 'short-lived' });
    await ctx.agent.ok('openspace.terminal.send', { terminalId, text: 'exit 3' });
    const read = await eventually(async () => {
      const r = await ctx.agent.ok('openspace.terminal.read_output', { terminalId });
      expect(r.running).toBe(false);
      return r;
    }, 5000);
    expect(read.exitCode).toBe(3);
    await ctx.agent.fails('openspace.terminal.send', { terminalId, text: 'echo late' }, 'TERMINAL_EXITED');
  });

  it('closes a terminal: gone from the list and from the bottom panel', async () => {
    const { terminalId } = await ctx.agent.ok('openspace.terminal.create', { title: 'closing' });
    expect((await ctx.agent.ok('openspace.terminal.close', { terminalId: 'closing' })).terminalId).toBe(terminalId);
    const { terminals } = await ctx.agent.ok('openspace.terminal.list');
    expect(terminals.map((t: { terminalId: string }) => t.terminalId)).not.toContain(terminalId);
    const { panes } = await ctx.agent.ok('openspace.pane.list');
    expect(JSON.stringify(panes)).not.toContain(`"${terminalId}"`);
  });

  it('replaces secrets a command prints with [REDACTED:<kind>] and says redacted:true', async () => {
    // Built at run time so no token-shaped literal sits in the source.
    const token = `ghp_${'Z9y8X7w6V5'.repeat(3)}uvwxyz`;
    const { terminalId } = await ctx.agent.ok('openspace.terminal.create', { title: 'secrets' });
    const sent = await ctx.agent.ok('openspace.terminal.send', { terminalId, text: `echo token=${token}` });
    const read = await waitForLine(terminalId, /^token=\[REDACTED:github_token\]$/, sent.cursor);
    expect(read.redacted).toBe(true);
    expect(JSON.stringify(read)).not.toContain(token.slice(4, 24));
    const clean = await ctx.agent.ok('openspace.terminal.send', { terminalId, text: 'echo nothing-secret-here' });
    const plain = await waitForLine(terminalId, /^nothing-secret-here$/, clean.cursor);
    expect(plain.redacted).toBe(false);
  });
});

describe('a terminal whose shell is not a shell', () => {
  it('is refused with INVALID_ARGUMENT, and no terminal opens: another program would run unjudged', async () => {
    const before = (await ctx.agent.ok('openspace.terminal.list')).terminals.length;
    for (const shellPath of ['/usr/bin/python3', '/usr/bin/make', 'bash', '/bin/sh -c id', '/tmp/../usr/bin/env']) {
      const refused = await ctx.agent.call('openspace.terminal.create', { title: 'not-a-shell', shellPath });
      expect(refused, shellPath).toMatchObject({ success: false, code: 'INVALID_ARGUMENT' });
    }
    expect((await ctx.agent.ok('openspace.terminal.list')).terminals.length).toBe(before);
  });
});
