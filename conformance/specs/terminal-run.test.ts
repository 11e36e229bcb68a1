/**
 * openspace.terminal.run (issue 14): a command's exit code, its own output and its duration, read
 * through shell integration (OSC 133 marks) on every target — the scripted shell prints the marks
 * itself, real bash (simulated IDE on disk, Theia) gets them from OpenSpace's integration script.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { eventually, useTarget } from '../setup.js';
import { COMMAND_ANSWERS } from '../../src/families/terminal/commands.js';

// 100 000 lines of 100 characters, the last without a newline (fold adds none).
const TEN_MB = "head -c 10000000 /dev/zero | tr '\\0' a | fold -w 100";
const NPM_TEST = 'npm test';
const LINE = 'a'.repeat(100);

// The scripted shell has no sleep, no pipes and no npm: canned answers behave the same way.
const ctx = useTarget({
  scriptedResponses: [
    { match: 'sleep 2', output: '', delayMs: 2000 },
    { match: 'sleep 30', output: '', delayMs: 30_000 },
    { match: TEN_MB, output: `${LINE}\n`.repeat(99_999) + LINE },
    { match: NPM_TEST, output: '\n> npm-project@1.0.0 test\n> node check.js\n\n2 passed, 1 failed\n', exitCode: 3 },
    { match: 'rm -rf run-scratch', output: '' },
  ],
});
const agent = () => ctx.agent;
const scripted = () => ctx.target.sim?.terminalBackend === 'scripted';

// Written before the first agent terminal: outside a git repository, what was there before any agent
// is the person's, so deleting it asks (in the sandbox as in the scripted shell).
beforeAll(async () => {
  await agent().ok('openspace.file.write', { path: 'run-scratch/file.txt', content: 'x\n' });
});

/** Read a terminal until check() holds for the read, as an agent polls. */
async function readUntil(terminalId: string, check: (read: Record<string, unknown>) => void, timeoutMs = 10_000) {
  return eventually(
    async () => {
      const read = await agent().ok('openspace.terminal.read_output', { terminalId, lines: 20 });
      check(read);
      return read;
    },
    timeoutMs,
    50,
  );
}

describe('openspace.terminal.run answers when the command has finished', () => {
  it('opens the agent terminal when none is given, and answers exit codes 0, 1 and 127 with only the command’s output', async () => {
    const first = await agent().ok('openspace.terminal.run', { command: 'echo hello' });
    expect(first).toMatchObject({ terminalId: 'agent', exitCode: 0, output: ['hello'], truncated: false, timedOut: false, created: true });
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(first.cursor).toBe(first.startCursor + 1);
    const { terminals } = await agent().ok('openspace.terminal.list');
    expect(terminals).toContainEqual(expect.objectContaining({ terminalId: 'agent', title: 'agent', running: true }));

    const failed = await agent().ok('openspace.terminal.run', { command: 'false' });
    expect(failed).toMatchObject({ terminalId: 'agent', exitCode: 1, output: [], timedOut: false });
    expect(failed.created).toBeUndefined();
    expect(failed.partial).toBeUndefined();

    // A command no one knows: the sandbox contains it, so it runs without a question.
    const unknown = await agent().ok('openspace.terminal.run', { terminalId: 'agent', command: 'no-such-command-xyz' });
    expect(unknown.exitCode).toBe(127);
    expect(unknown.output).toHaveLength(1);
    expect(unknown.output[0]).toMatch(/no-such-command-xyz: command not found/);

    // Output without a final newline is still the command's last line; never the prompt after it.
    const noNewline = await agent().ok('openspace.terminal.run', { command: 'printf abc' });
    expect(noNewline).toMatchObject({ exitCode: 0, output: ['abc'], truncated: false });
    expect(noNewline.partial).toBeUndefined();
    const twoLines = await agent().ok('openspace.terminal.run', { command: "printf 'one\\ntwo'" });
    expect(twoLines).toMatchObject({ exitCode: 0, output: ['one', 'two'] });
    expect(twoLines.cursor).toBe(twoLines.startCursor + 1); // the cursor counts complete lines, as read_output's
    const echoed = await agent().ok('openspace.terminal.run', { command: 'echo after' });
    expect(echoed.output).toEqual(['after']); // the unfinished line (and the prompt on it) is not the next command's

    // What the person sees holds the echoed command line before the output: run leaves it out.
    const read = await agent().ok('openspace.terminal.read_output', { terminalId: 'agent', since: first.startCursor - 1, lines: 1 });
    expect(read.output[0]).toMatch(/echo hello$/);
  });

  it('answers the exit code of npm test, with its output', async () => {
    await agent().ok('openspace.file.write', {
      path: 'npm-project/package.json',
      content: JSON.stringify({ name: 'npm-project', version: '1.0.0', scripts: { test: 'node check.js' } }, null, 2),
    });
    await agent().ok('openspace.file.write', {
      path: 'npm-project/check.js',
      content: "console.log('2 passed, 1 failed');\nprocess.exit(3);\n",
    });
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'npm-project', cwd: 'npm-project' });
    const result = await agent().ok('openspace.terminal.run', { terminalId, command: NPM_TEST, timeoutMs: 60_000 });
    expect(result).toMatchObject({ terminalId, timedOut: false });
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('2 passed, 1 failed');
    expect(result.output.join('\n')).not.toMatch(new RegExp(`${NPM_TEST}$`, 'm'));
  }, 60_000);

  it('answers a 10 MB output with exit 0 and its last lines; the rest is left to read_output', async () => {
    const started = Date.now();
    const result = await agent().ok('openspace.terminal.run', { command: TEN_MB, timeoutMs: 60_000 });
    const took = Date.now() - started;
    expect(result).toMatchObject({ exitCode: 0, truncated: true, timedOut: false });
    // The last 200 lines: 199 complete ones and the last, which no newline ended.
    expect(result.output).toHaveLength(200);
    expect(result.output.every((l: string) => l === LINE)).toBe(true);
    expect(result.partial).toBeUndefined();
    expect(result.cursor - result.startCursor).toBe(99_999);
    expect(took, `10 MB took ${took} ms`).toBeLessThan(30_000);
    // The start scrolled out of the ring buffer: read_output says how much is gone.
    const head = await agent().ok('openspace.terminal.read_output', { terminalId: 'agent', since: result.startCursor, lines: 5 });
    expect(head.dropped).toBeGreaterThan(0);
    expect(head.output).toEqual(Array(5).fill(LINE));
  }, 60_000);

  it('answers timedOut for a command that outlives timeoutMs; it runs on, the terminal is busy, and read_output shows how it ended', async () => {
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'run-timeout' });
    const result = await agent().ok('openspace.terminal.run', { terminalId, command: 'sleep 2', timeoutMs: 300 });
    expect(result).toMatchObject({ terminalId, timedOut: true, output: [] });
    expect(result.exitCode).toBeUndefined();
    expect(result.durationMs).toBeLessThan(2000);
    const busy = await agent().fails('openspace.terminal.run', { terminalId, command: 'echo next' }, 'TERMINAL_BUSY');
    expect(busy.error).toMatch(/read_output/);
    const read = await readUntil(terminalId, (r) => expect(r.lastCommand).toBeDefined());
    expect(read.lastCommand).toMatchObject({ exitCode: 0 });
    expect((read.lastCommand as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(1500);
    expect(Date.parse((read.lastCommand as { finishedAt: string }).finishedAt)).not.toBeNaN();
    // No longer busy.
    expect(await agent().ok('openspace.terminal.run', { terminalId, command: 'echo next' })).toMatchObject({
      exitCode: 0,
      output: ['next'],
    });
  });

  it('answers 130 when a person (here a second session) interrupts the command with Ctrl-C', async () => {
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'run-interrupt' });
    const other = await connectAgent(ctx.target, 'interrupting-agent');
    try {
      const pending = agent().call('openspace.terminal.run', { terminalId, command: 'sleep 30', timeoutMs: 20_000 });
      // The command runs once the other session's run is refused as busy with where it started.
      await eventually(
        async () => {
          const busy = await other.fails('openspace.terminal.run', { terminalId, command: 'true' }, 'TERMINAL_BUSY');
          expect(busy.startCursor).toBeTypeOf('number');
        },
        10_000,
        50,
      );
      await other.ok('openspace.terminal.send', { terminalId, text: '\u0003', enter: false });
      const result = await pending;
      expect(result).toMatchObject({ success: true, terminalId, exitCode: 130, timedOut: false });
      expect(result.durationMs).toBeLessThan(20_000);
      const read = await agent().ok('openspace.terminal.read_output', { terminalId });
      expect(read.lastCommand).toMatchObject({ exitCode: 130 });
    } finally {
      await other.close();
    }
  }, 30_000);

  it('gives read_output the exit code of a command typed with terminal.send', async () => {
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'run-send' });
    const fresh = await agent().ok('openspace.terminal.read_output', { terminalId });
    expect(fresh.lastCommand).toBeUndefined();
    await agent().ok('openspace.terminal.send', { terminalId, text: 'false' });
    await readUntil(terminalId, (r) => expect(r.lastCommand).toMatchObject({ exitCode: 1 }));
    await agent().ok('openspace.terminal.send', { terminalId, text: 'true' });
    await readUntil(terminalId, (r) => expect(r.lastCommand).toMatchObject({ exitCode: 0 }));
  });

  it('answers shellExited with the shell’s code when the command ends the shell', async () => {
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'run-exit' });
    const result = await agent().ok('openspace.terminal.run', { terminalId, command: 'exit 3' });
    expect(result).toMatchObject({ terminalId, exitCode: 3, shellExited: true, timedOut: false });
    await agent().fails('openspace.terminal.run', { terminalId, command: 'true' }, 'TERMINAL_EXITED');
  });
});

describe('openspace.terminal.run refuses what it cannot run', () => {
  it('refuses a terminal without shell integration with SHELL_INTEGRATION_UNAVAILABLE, naming what to use instead', async (t) => {
    if (scripted()) t.skip('the scripted shell always reports its commands');
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'plain-sh', shellPath: '/bin/sh' });
    const started = Date.now();
    const result = await agent().fails('openspace.terminal.run', { terminalId, command: 'true' }, 'SHELL_INTEGRATION_UNAVAILABLE');
    expect(result.error).toMatch(/terminal\.send/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("needs the person's permission for a terminal they opened (it answers with its output); Theia's has no integration", async (t) => {
    const sim = ctx.target.sim;
    const page = ctx.target.page;
    let terminalId: string | undefined;
    if (sim) terminalId = (await sim.terminals.personOpens('their-shell')).terminalId;
    else if (page) {
      const { terminals } = await agent().ok('openspace.terminal.list');
      terminalId = terminals.find((x: { personal?: boolean; running: boolean }) => x.personal && x.running)?.terminalId;
    }
    if (!terminalId) return t.skip('needs a person to open a terminal: only the simulated IDE and Theia offer one');
    const dialog = page?.locator('.dialogBlock', { hasText: 'wants to read the output of your terminal' });
    const answer = async (button: 'Allow' | 'Deny') => {
      await dialog!.waitFor({ state: 'visible', timeout: 10_000 });
      await dialog!.getByRole('button', { name: button }).click();
    };
    const refused = agent().call('openspace.terminal.run', { terminalId, command: 'echo theirs' });
    if (page) await answer('Deny');
    expect(await refused).toMatchObject({ success: false, code: 'CONSENT_REQUIRED' });

    if (sim) {
      // The simulated IDE's person runs the same shells: with permission, run works there. Their real
      // shell is outside any sandbox, so every command asks the person (here: allowed once); the
      // scripted shell reaches nothing but its workspace, and echo runs unasked.
      sim.personTerminalReads = 'allow';
      const allowing = await connectAgent(ctx.target, 'allowing-agent', { ask: () => ({ answer: COMMAND_ANSWERS.once }) });
      try {
        const ran = await eventually(() => allowing.ok('openspace.terminal.run', { terminalId, command: 'echo theirs' }), 10_000, 50);
        expect(ran).toMatchObject({ exitCode: 0, output: ['theirs'] });
        if (scripted()) expect(allowing.asked).toEqual([]);
        else {
          expect(allowing.asked.length).toBeGreaterThan(0);
          for (const question of allowing.asked) expect(question).toMatch(/^Agent wants to run: echo theirs — runs outside any sandbox/);
        }
      } finally {
        await allowing.close();
      }
    } else {
      // Theia's own terminal never got the integration: send and read_output are the way there.
      const allowed = agent().call('openspace.terminal.run', { terminalId, command: 'echo theirs' });
      await answer('Allow');
      const result = await allowed;
      expect(result).toMatchObject({ success: false, code: 'SHELL_INTEGRATION_UNAVAILABLE' });
      expect(result.error).toMatch(/terminal\.send/);
    }
  });

  it('refuses more than one line, and unknown terminals', async () => {
    await agent().fails('openspace.terminal.run', { command: 'echo a\necho b' }, 'INVALID_ARGUMENT');
    await agent().fails('openspace.terminal.run', { terminalId: 'no-such-terminal', command: 'true' }, 'TERMINAL_NOT_FOUND');
  });

  it('refuses while text typed without Enter waits at the prompt', async () => {
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'run-typed' });
    await agent().ok('openspace.terminal.run', { terminalId, command: 'true' });
    await agent().ok('openspace.terminal.send', { terminalId, text: 'echo half', enter: false });
    await agent().fails('openspace.terminal.run', { terminalId, command: 'true' }, 'TERMINAL_BUSY');
    await agent().ok('openspace.terminal.send', { terminalId, text: '\u0015', enter: false });
    expect(await agent().ok('openspace.terminal.run', { terminalId, command: 'echo whole' })).toMatchObject({ output: ['whole'] });
  });

  it('asks before a command the sandbox cannot contain, as terminal.send does: refused without anyone to ask, run once allowed', async (t) => {
    if (ctx.target.page) t.skip('Theia asks the person with its own dialog: the next test');
    const before = await agent().ok('openspace.terminal.read_output', { terminalId: 'agent', lines: 1 });
    const refused = await agent().fails('openspace.terminal.run', { command: 'rm -rf .' }, 'CONFIRMATION_REQUIRED');
    expect(refused.reasons).toContainEqual(expect.objectContaining({ rule: 'deletes-person-files' }));
    const after = await agent().ok('openspace.terminal.read_output', { terminalId: 'agent', since: before.cursor });
    expect(after.output).toEqual([]);
    expect(after.partial).toBe(before.partial);

    // run-scratch was there before any agent terminal (beforeAll): deleting it asks, and runs once allowed.
    const asking = await connectAgent(ctx.target, 'asking-agent', { ask: () => ({ answer: COMMAND_ANSWERS.once }) });
    try {
      const allowed = await asking.ok('openspace.terminal.run', { terminalId: 'agent', command: 'rm -rf run-scratch' });
      expect(allowed).toMatchObject({ exitCode: 0, timedOut: false });
      expect(asking.asked).toHaveLength(1);
      expect(asking.asked[0]).toMatch(/rm -rf run-scratch/);
    } finally {
      await asking.close();
    }
  });

  it('on Theia asks the person, who can deny: CONFIRMATION_DENIED and nothing typed', async (t) => {
    const page = ctx.target.page;
    if (!page) return t.skip('Theia only');
    const before = await agent().ok('openspace.terminal.read_output', { terminalId: 'agent', lines: 1 });
    const text = 'rm -rf .';
    const pending = agent().call('openspace.terminal.run', { command: text });
    const dialog = page.locator('.dialogBlock', { hasText: `Agent wants to run: ${text}` });
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Deny' }).click();
    expect(await pending).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
    const after = await agent().ok('openspace.terminal.read_output', { terminalId: 'agent', since: before.cursor });
    expect(after.output.join('\n')).not.toContain(text);
    expect(after.partial).toBe(before.partial);
  });
});
