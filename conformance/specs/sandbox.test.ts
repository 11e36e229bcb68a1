/**
 * Agent terminals run in a sandbox (issue 17: bubblewrap on Linux), seen through the MCP tools in a
 * real shell, with every confirmation accepted: a fake home holding canary credentials, a directory
 * beside the workspace, the hub's lock file, the workspace itself, /tmp, the network, and what the
 * shell started once its terminal is closed. Then a workspace whose settings try to loosen the
 * sandbox. Skipped where there is no real shell (the in-memory simulated IDE's scripted one).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { connectAgent, type Agent, type Result } from '../client.js';
import { lockFilePath } from '../../src/hub/auth.js';
import { COMMAND_ANSWERS } from '../../src/commands/terminal.js';
import { SANDBOX_ENABLED_SETTING, SANDBOX_HIDDEN_PATHS_SETTING, SANDBOX_NETWORK_SETTING } from '../../src/security/sandbox.js';
import { eventually, useTarget, type TargetContext } from '../setup.js';

/** Harmless, and unlike a real key nothing redaction would hide: output either shows it or it was not read. */
const CANARY = 'openspace-canary-5f1e07';

// Outside /tmp: sandboxed shells have a /tmp of their own, so what they cannot see there proves nothing.
const base = mkdtempSync('/var/tmp/openspace-sandbox-');
const home = join(base, 'home');
const beside = join(base, 'beside');
mkdirSync(join(home, '.ssh'), { recursive: true });
writeFileSync(join(home, '.ssh', 'id_rsa'), `${CANARY} private key\n`);
writeFileSync(join(home, '.netrc'), `machine example.com login ${CANARY}\n`);
writeFileSync(join(home, 'notes.txt'), 'notes anyone may read\n');
mkdirSync(beside);
writeFileSync(join(beside, 'keep.txt'), 'keep me\n');
// The hubs started here announce themselves outside /tmp and outside the fake home too.
const testLockDir = process.env.OPENSPACE_LOCK_DIR;
process.env.OPENSPACE_LOCK_DIR = join(base, 'locks');
afterAll(() => {
  process.env.OPENSPACE_LOCK_DIR = testLockDir;
  rmSync(base, { recursive: true, force: true });
});

/** A connection whose person says yes to everything: MCP elicitation, or Allow in Theia's dialog. */
function confirmingAgent(ctx: TargetContext) {
  let agent: Agent;
  beforeAll(async () => {
    agent = await connectAgent(ctx.target, 'sandbox-agent', { ask: () => ({ allow: true, answer: COMMAND_ANSWERS.once }) });
  });
  afterAll(() => agent?.close());

  const skipWithoutShell = (t: TestContext) => {
    if (ctx.target.sim?.terminalBackend === 'scripted')
      t.skip('the scripted shell reaches nothing outside its in-memory workspace: there is no sandbox to test');
  };
  /** A command run with the person's yes if it asks (commands not known to be safe do). */
  const run = async (command: string, terminalId?: string): Promise<Result> => {
    const answer = agent.ok('openspace.terminal.run', { command, ...(terminalId && { terminalId }), timeoutMs: 20_000 });
    const page = ctx.target.page;
    if (page) {
      const dialog = page.locator('.dialogBlock', { hasText: `Agent wants to run: ${command}` });
      const asked = await Promise.race([
        answer.then(
          () => false,
          () => false,
        ),
        dialog.waitFor({ state: 'visible', timeout: 20_000 }).then(
          () => true,
          () => false,
        ),
      ]);
      if (asked) await dialog.getByRole('button', { name: COMMAND_ANSWERS.once }).click();
    }
    return answer;
  };
  /** A command the dangerous-command check stops, run once the person said yes. */
  const runConfirmed = async (command: string): Promise<Result> => {
    const asked = agent.asked.length;
    const result = await run(command);
    const page = ctx.target.page;
    if (!page) expect(agent.asked.slice(asked).join('\n')).toContain(command);
    return result;
  };
  return { agent: () => agent, skipWithoutShell, run, runConfirmed };
}

/** Connect to the hub's port from inside the terminal: prints "connected", or the error's code. */
const connectToHub = (ctx: TargetContext) =>
  `node -e "require('net').connect(${new URL(ctx.target.origin).port}, '127.0.0.1')` +
  `.on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(3) })"`;

/** A directory of links to every program on this PATH but bwrap (Theia's backend needs ps and the rest to shut down). */
function pathWithoutBwrap(): string {
  const dir = join(base, 'path-without-bwrap');
  mkdirSync(dir);
  for (const from of (process.env.PATH ?? '').split(delimiter).filter((d) => existsSync(d))) {
    for (const name of readdirSync(from))
      if (name !== 'bwrap' && !existsSync(join(dir, name))) symlinkSync(join(from, name), join(dir, name));
  }
  return dir;
}

/** Processes on this machine whose command line holds `text` (Linux's /proc). */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('an agent terminal in the default sandbox', () => {
  const ctx = useTarget({ home, workspaceParent: base, lockFile: true });
  const { agent, skipWithoutShell, run, runConfirmed } = confirmingAgent(ctx);

  it("says it is sandboxed; the person's own terminals are not", async (t) => {
    skipWithoutShell(t);
    expect(await agent().ok('openspace.terminal.create', { title: 'sandboxed' })).toMatchObject({ sandboxed: true });
    if (ctx.target.sim) await ctx.target.sim.terminals.personOpens('mine');
    const { terminals } = await agent().ok('openspace.terminal.list');
    expect(terminals.find((x: { terminalId: string }) => x.terminalId === 'sandboxed')).toMatchObject({ sandboxed: true });
    const personal = terminals.filter((x: { personal?: boolean }) => x.personal);
    expect(personal.length).toBeGreaterThan(0);
    for (const terminal of personal) expect(terminal.sandboxed).toBe(false);
  });

  it("reads the person's home but not their credentials, nor the hub's lock file", async (t) => {
    skipWithoutShell(t);
    expect(await run('echo "$HOME"; cat ~/notes.txt')).toMatchObject({ exitCode: 0, output: [home, 'notes anyone may read'] });

    const key = await run('cat ~/.ssh/id_rsa');
    expect(key.exitCode).not.toBe(0);
    expect(key.output.join('\n')).not.toContain(CANARY);
    expect(await run('ls -a ~/.ssh')).toMatchObject({ exitCode: 0, output: [expect.stringMatching(/^\.\s+\.\.$/)] });
    const netrc = await run('cat ~/.netrc');
    expect(netrc.exitCode).not.toBe(0);
    expect(netrc.output.join('\n')).not.toContain(CANARY);

    const lockFile = lockFilePath(Number(new URL(ctx.target.origin).port));
    const token = JSON.parse(readFileSync(lockFile, 'utf8')).authToken as string;
    expect(token.length).toBeGreaterThan(30);
    const lock = await run(`cat ${lockFile}`);
    expect(lock.exitCode).not.toBe(0);
    expect(lock.output.join('\n')).not.toContain(token.slice(0, 12));
  });

  it('cannot write or delete beside the workspace, even with the person’s yes', async (t) => {
    skipWithoutShell(t);
    expect(await run('ls ../beside')).toMatchObject({ exitCode: 0, output: ['keep.txt'] });
    expect((await runConfirmed('rm -rf ../beside')).exitCode).not.toBe(0);
    expect((await runConfirmed('echo changed > ../beside/keep.txt')).exitCode).not.toBe(0);
    expect((await run(`node -e "require('fs').writeFileSync('../beside/new.txt', 'x')"`)).exitCode).not.toBe(0);
    expect(readdirSync(beside)).toEqual(['keep.txt']);
    expect(readFileSync(join(beside, 'keep.txt'), 'utf8')).toBe('keep me\n');
  });

  it('works in the workspace as usual: create, edit, delete, and programs writing files', async (t) => {
    skipWithoutShell(t);
    const edited = await run('echo draft > made.txt && sed -i s/draft/final/ made.txt && cat made.txt');
    expect(edited).toMatchObject({ exitCode: 0, output: ['final'] });
    expect(await run(`node -e "require('fs').writeFileSync('by-node.txt', 'written by node')"`)).toMatchObject({ exitCode: 0 });
    expect(await agent().ok('openspace.file.read', { path: 'by-node.txt' })).toMatchObject({ content: 'written by node' });
    expect(await run('rm made.txt by-node.txt && ls')).toMatchObject({ exitCode: 0 });
    expect(existsSync(join(ctx.target.workspaceDir!, 'made.txt'))).toBe(false);
    expect(existsSync(join(ctx.target.workspaceDir!, 'by-node.txt'))).toBe(false);
  });

  it('has a /tmp of its own', async (t) => {
    skipWithoutShell(t);
    const name = `/tmp/openspace-sandbox-probe-${process.pid}`;
    expect(await run(`echo inside > ${name} && cat ${name}`)).toMatchObject({ exitCode: 0, output: ['inside'] });
    expect(existsSync(name)).toBe(false);
  });

  it('keeps the network unless the person turns it off', async (t) => {
    skipWithoutShell(t);
    expect(await run(connectToHub(ctx))).toMatchObject({ exitCode: 0, output: ['connected'] });
  });

  it('ends everything its shell started when the terminal closes', async (t) => {
    skipWithoutShell(t);
    const marker = `4242.${process.pid}`;
    const { terminalId } = await agent().ok('openspace.terminal.create', { title: 'spawner' });
    // A subshell's background job is no job of the shell: closing an unsandboxed terminal leaves it running.
    expect(await run(`(sleep ${marker} > /dev/null 2>&1 < /dev/null &)`, terminalId)).toMatchObject({ exitCode: 0 });
    await eventually(() => expect(processesWith(`sleep\0${marker}`)).not.toEqual([]));
    await agent().ok('openspace.terminal.close', { terminalId });
    await eventually(() => expect(processesWith(`sleep\0${marker}`)).toEqual([]), 10_000, 100);
  });
});

describe('a workspace whose settings try to loosen the sandbox', () => {
  const ctx = useTarget({
    home,
    workspaceParent: base,
    sandbox: { network: false },
    workspaceSettings: {
      [SANDBOX_ENABLED_SETTING]: false,
      [SANDBOX_NETWORK_SETTING]: true,
      // Tightening is allowed.
      [SANDBOX_HIDDEN_PATHS_SETTING]: ['~/notes.txt'],
    },
  });
  const { agent, skipWithoutShell, run } = confirmingAgent(ctx);

  it("is ignored: the sandbox stays on, the person's network off stays off; the paths it hides are hidden", async (t) => {
    skipWithoutShell(t);
    expect(await agent().ok('openspace.terminal.create', { title: 'strict' })).toMatchObject({ sandboxed: true });
    const key = await run('cat ~/.ssh/id_rsa', 'strict');
    expect(key.exitCode).not.toBe(0);
    expect(key.output.join('\n')).not.toContain(CANARY);
    const notes = await run('cat ~/notes.txt', 'strict');
    expect(notes.exitCode).not.toBe(0);
    expect(notes.output).not.toContain('notes anyone may read');
    const offline = await run(connectToHub(ctx), 'strict');
    expect(offline.exitCode).toBe(3);
    expect(offline.output).not.toContain('connected');
  });
});

describe('where bubblewrap cannot run', () => {
  const ctx = useTarget({ home, workspaceParent: base, ideEnv: { PATH: pathWithoutBwrap() } });
  const { agent, skipWithoutShell } = confirmingAgent(ctx);

  it('Theia tells the person once, agent terminals run unsandboxed, and dangerous commands still ask', async (t) => {
    skipWithoutShell(t);
    const page = ctx.target.page;
    if (!page) return t.skip('the simulated IDE says it on stderr when it starts (sim/cli.test.ts); its bwrap was found in this process');
    for (const title of ['first', 'second']) {
      expect(await agent().ok('openspace.terminal.create', { title })).toMatchObject({ sandboxed: false });
    }
    const notice = page.locator('.theia-notification-toasts .theia-notification-message', {
      hasText: 'agent terminals run WITHOUT a sandbox',
    });
    await notice.first().waitFor({ state: 'visible', timeout: 10_000 });
    expect(await notice.first().textContent()).toContain('bubblewrap (bwrap) is not installed');
    expect(await notice.count()).toBe(1);

    const text = 'rm -rf ~/projects';
    const answer = agent().call('openspace.terminal.send', { terminalId: 'first', text });
    const dialog = page.locator('.dialogBlock', { hasText: `Agent wants to run: ${text}` });
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Deny' }).click();
    expect(await answer).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
  });
});
