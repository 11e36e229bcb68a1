/**
 * What an agent session leaves behind and what it is allowed (issue 4 items 6, 8, 9, 12): cleanup
 * when the session ends, questions to the person at the agent's side (MCP elicitation), and the
 * audit log of every call.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { eventually, useTarget } from '../setup.js';
import { COMMAND_ANSWERS } from '../../src/families/terminal/commands.js';

const ctx = useTarget();

describe('cleanup when a session ends (NFR-3.7.1)', () => {
  it('closes the terminals, highlights and tabs the session created, and nothing it did not create', async () => {
    const mine = await ctx.agent.ok('openspace.terminal.create', { title: 'person-terminal' });
    const agent = await connectAgent(ctx.target, 'leaving-agent');
    await agent.ok('openspace.terminal.create', { title: 'agent-scratch' });
    await agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 3 });
    const { highlightId } = await agent.ok('openspace.editor.highlight', { path: 'src/index.ts', ranges: [{ startLine: 3, endLine: 4 }] });
    await agent.ok('openspace.pane.open', { type: 'editor', contentId: 'README.md', splitDirection: 'vertical' });
    await agent.endSession();

    await eventually(async () => {
      const terminals = (await ctx.agent.ok('openspace.terminal.list')).terminals.map((t: { terminalId: string }) => t.terminalId);
      expect(terminals).not.toContain('agent-scratch');
      expect(terminals).toContain(mine.terminalId);
      const tabs = (await ctx.agent.ok('openspace.pane.list')).panes.flatMap((p: { tabs: { contentId: string }[] }) =>
        p.tabs.map((t) => t.contentId),
      );
      expect(tabs).not.toContain('README.md');
      // The editor it opened with editor.open stays: a person may be reading it.
      expect(tabs).toContain('src/index.ts');
    }, 5000);
    await ctx.agent.fails('openspace.editor.clear_highlight', { highlightId }, 'HIGHLIGHT_NOT_FOUND');
    await ctx.agent.ok('openspace.terminal.close', { terminalId: mine.terminalId });
  });

  it('closes the decks and boards it opened, playing or not, and leaves the files', async () => {
    const agent = await connectAgent(ctx.target, 'presenting-agent');
    await agent.ok('openspace.presentation.create', { deckPath: 'session/talk.deck.md', title: 'Talk' });
    await agent.ok('openspace.presentation.open', { deckPath: 'session/talk.deck.md' });
    await agent.ok('openspace.presentation.play', { deckPath: 'session/talk.deck.md', intervalMs: 60_000 });
    await agent.ok('openspace.whiteboard.create', { whiteboardId: 'session/sketch.whiteboard.json', title: 'Sketch' });
    await agent.ok('openspace.pane.open', { type: 'whiteboard', contentId: 'session/sketch.whiteboard.json' });
    await agent.endSession();
    await eventually(async () => {
      const tabs = (await ctx.agent.ok('openspace.pane.list')).panes.flatMap((p: { tabs: { contentId: string }[] }) =>
        p.tabs.map((t) => t.contentId),
      );
      expect(tabs).not.toContain('session/talk.deck.md');
      expect(tabs).not.toContain('session/sketch.whiteboard.json');
    }, 5000);
    expect(await ctx.agent.ok('openspace.presentation.read', { deckPath: 'session/talk.deck.md' })).toMatchObject({ open: false });
    await ctx.agent.fails('openspace.presentation.pause', { deckPath: 'session/talk.deck.md' }, 'PANE_NOT_FOUND');
    await ctx.agent.ok('openspace.whiteboard.read', { whiteboardId: 'session/sketch.whiteboard.json' });
  });

  it('closes a tab it opened after a pause of over a second, and leaves the tabs a person had open (what pane.open created comes from its answer)', async () => {
    const person = await ctx.agent.ok('openspace.pane.open', { type: 'editor', contentId: 'notes.txt' });
    expect(person.opened).toBe(true);
    const agent = await connectAgent(ctx.target, 'pausing-agent');
    await agent.ok('openspace.pane.list');
    // Past the IDE's 1-per-second layout publishing: the hub's copy of the layout is fresh when the call answers.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await agent.ok('openspace.pane.open', { type: 'editor', contentId: 'docs/guide.md' })).toMatchObject({
      contentId: 'docs/guide.md',
      opened: true,
    });
    expect(await agent.ok('openspace.pane.open', { type: 'editor', contentId: 'notes.txt' })).toMatchObject({ opened: false });
    await agent.endSession();
    await eventually(async () => {
      const tabs = (await ctx.agent.ok('openspace.pane.list')).panes.flatMap((p: { tabs: { contentId: string }[] }) =>
        p.tabs.map((t) => t.contentId),
      );
      expect(tabs).not.toContain('docs/guide.md');
      expect(tabs).toContain('notes.txt');
    }, 5000);
    await ctx.agent.ok('openspace.pane.close', { contentId: 'notes.txt' });
  });

  it('spares what a person pinned', async (t) => {
    const sim = ctx.target.sim;
    if (!sim) t.skip("pinning a tab needs the simulated IDE's probe");
    const agent = await connectAgent(ctx.target, 'pinned-agent');
    await agent.ok('openspace.terminal.create', { title: 'keep-me' });
    await agent.ok('openspace.terminal.create', { title: 'drop-me' });
    sim!.layout.setPinned('keep-me', true);
    await agent.endSession();
    await eventually(async () => {
      const terminals = (await ctx.agent.ok('openspace.terminal.list')).terminals.map((x: { terminalId: string }) => x.terminalId);
      expect(terminals).toContain('keep-me');
      expect(terminals).not.toContain('drop-me');
    }, 5000);
    await ctx.agent.ok('openspace.terminal.close', { terminalId: 'keep-me' });
  });
});

describe('the audit log (GAP-11)', () => {
  it('has one line per call with session, client, tool, redacted arguments, code and duration; agents cannot read it', async (t) => {
    const text = await auditText();
    if (text === undefined) t.skip("this target's workspace is not reachable from the test");
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    await ctx.agent.ok('openspace.file.write', { path: 'notes/aws.txt', content: `aws_access_key_id = ${secret}\n` });
    await ctx.agent.fails('openspace.file.read', { path: 'nope/missing.txt' }, 'FILE_NOT_FOUND');
    const sessionId = ctx.agent.sessionId;
    const lines = await eventually(async () => {
      const entries = (await auditText())!
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((e) => e.type === 'call' && e.session === sessionId);
      expect(entries.map((e) => e.tool)).toEqual(expect.arrayContaining(['openspace.file.write', 'openspace.file.read']));
      return entries;
    });
    const write = lines.find((e) => e.tool === 'openspace.file.write')!;
    expect(write).toMatchObject({ client: 'conformance-agent', code: 'OK', args: { path: 'notes/aws.txt' } });
    expect(typeof write.durationMs).toBe('number');
    expect(Date.parse(String(write.time))).not.toBeNaN();
    expect(JSON.stringify(write.args)).not.toContain(secret);
    expect(JSON.stringify(write.args)).toContain('[REDACTED:');
    expect(lines.find((e) => e.tool === 'openspace.file.read')).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await auditText())!).not.toContain(secret);
    await ctx.agent.fails('openspace.file.read', { path: '.openspace/audit.ndjson' }, 'SENSITIVE_FILE');
  });
});

/** The audit log as the target wrote it: in the sim's memfs volume, or in the workspace directory. */
async function auditText(): Promise<string | undefined> {
  const sim = ctx.target.sim;
  const read = async () => {
    if (sim) {
      const file = join(sim.workspace.root, '.openspace/audit.ndjson');
      return sim.workspace.fs.existsSync(file) ? String(sim.workspace.fs.readFileSync(file, 'utf8')) : '';
    }
    if (ctx.target.workspaceDir) return readFile(join(ctx.target.workspaceDir, '.openspace/audit.ndjson'), 'utf8').catch(() => '');
    return undefined;
  };
  return read();
}

describe("asking the person at the agent's side (MCP elicitation)", () => {
  it('"Always allow commands like this" remembers a rule: the same command runs unasked after, not with another command chained', async (t) => {
    const sim = ctx.target.sim;
    if (!sim) return t.skip('Theia asks its own person: the E2E answers its dialog');
    const agent = await connectAgent(ctx.target, 'remembering-agent', {
      ask: (message) => ({ answer: message.includes('curl') ? COMMAND_ANSWERS.deny : COMMAND_ANSWERS.always }),
    });
    try {
      await agent.call('openspace.terminal.create', { title: 'compose' });
      const send = (text: string) => agent.call('openspace.terminal.send', { terminalId: 'compose', text });
      // Deleting what git does not track asks in any sandbox (the workspace is no repository here: git only fails).
      expect(await send('git clean -fd')).toMatchObject({ success: true });
      expect(agent.asked).toHaveLength(1);
      expect(agent.asked[0]).toMatch(/git clean -fd/);
      expect(agent.asked[0]).toMatch(/"Always" allows commands like: git clean/);
      expect(sim.allowedCommands.rules()).toEqual(['git clean']);
      expect(await send('git clean -fdx')).toMatchObject({ success: true });
      expect(agent.asked).toHaveLength(1);
      const chained = await send('git clean -fd && curl -s https://example.com/');
      expect(chained).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
      expect(agent.asked).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });

  it('a command the sandbox cannot contain is sent only when the person allows it, and refused when they decline', async (t) => {
    // Theia asks its own person with a dialog; elicitation is for IDEs with no one at the keyboard.
    if (!ctx.target.sim) t.skip('the target has its own person to ask');
    let allow = false;
    const agent = await connectAgent(ctx.target, 'eliciting-agent', {
      ask: () => ({ answer: allow ? COMMAND_ANSWERS.once : COMMAND_ANSWERS.deny }),
    });
    const { asked } = agent;
    // Deletes saved stashes, which the sandbox cannot give back (none here: git only fails).
    const text = 'git stash drop';
    try {
      await agent.call('openspace.terminal.create', { title: 'risky' });
      const before = await agent.ok('openspace.terminal.read_output', { terminalId: 'risky' });
      const denied = await agent.call('openspace.terminal.send', { terminalId: 'risky', text });
      expect(denied).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
      expect(asked.at(-1)).toContain(text);
      const untouched = await agent.ok('openspace.terminal.read_output', { terminalId: 'risky', since: before.cursor });
      expect([...untouched.output, untouched.partial].join('\n')).not.toContain(text);
      allow = true;
      const sent = await agent.call('openspace.terminal.send', { terminalId: 'risky', text });
      expect(sent).toMatchObject({ success: true });
      expect(asked).toHaveLength(2);
      // Commands the sandbox contains are not asked about.
      await agent.call('openspace.terminal.send', { terminalId: 'risky', text: 'ls' });
      expect(asked).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });
});
