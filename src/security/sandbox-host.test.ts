import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { sandboxSettings } from './sandbox.js';
import { endSandboxSession, probeBwrap, sandboxCommand } from './sandbox-host.js';
import { eventually } from '../../conformance/setup.js';

// Outside /tmp, which the sandbox replaces with a private one.
const base = mkdtempSync('/var/tmp/openspace-sandbox-host-');
const home = join(base, 'home');
const workspace = join(base, 'workspace');
mkdirSync(join(home, '.aws'), { recursive: true });
mkdirSync(workspace);
writeFileSync(join(home, '.aws', 'credentials'), 'canary-aws\n');
writeFileSync(join(home, 'readable.txt'), 'readable\n');
const lockDir = join(base, 'locks');
mkdirSync(lockDir);
writeFileSync(join(lockDir, '3100.lock'), 'canary-token\n');
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Run a bash command line in the sandbox; its exit status and output. */
function inSandbox(script: string, choices = {}) {
  const bwrap = probeBwrap();
  if (!bwrap.available) throw new Error(bwrap.reason);
  const { settings } = sandboxSettings(choices);
  const [file, ...args] = sandboxCommand(
    bwrap.path,
    settings,
    { workspace, cwd: workspace, home, alsoHidden: [lockDir, join(base, 'not-there')] },
    ['/bin/bash', '-c', script],
  );
  const result = spawnSync(file!, args, { encoding: 'utf8', env: { ...process.env, HOME: home, OPENSPACE_TOKEN: 'x'.repeat(40) } });
  return { status: result.status, out: result.stdout + result.stderr };
}

describe('a shell in the sandbox (real bubblewrap)', () => {
  const bwrap = probeBwrap();
  const skipWithout = (t: TestContext) => {
    if (!bwrap.available) t.skip(`no sandbox on this machine: ${bwrap.reason}`);
  };

  it('reads the home directory but not the hidden paths, nor the hub lock directory', (t) => {
    skipWithout(t);
    expect(inSandbox('cat ~/readable.txt')).toEqual({ status: 0, out: 'readable\n' });
    expect(inSandbox('cat ~/.aws/credentials').status).not.toBe(0);
    expect(inSandbox(`cat ${lockDir}/3100.lock`).status).not.toBe(0);
    expect(inSandbox('echo "token=${OPENSPACE_TOKEN-unset}"').out).toBe('token=unset\n');
  });

  it('writes the workspace and its own /tmp, nothing else', (t) => {
    skipWithout(t);
    expect(inSandbox('echo made > made.txt && echo tmp > /tmp/sandbox-host-test && cat /tmp/sandbox-host-test').status).toBe(0);
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
    expect(existsSync('/tmp/sandbox-host-test')).toBe(false);
    expect(inSandbox(`echo no > ${join(home, 'written.txt')}`).status).not.toBe(0);
    expect(existsSync(join(home, 'written.txt'))).toBe(false);
  });

  it('has no network when the settings say so', async (t) => {
    skipWithout(t);
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const connect = `exec 3<>/dev/tcp/127.0.0.1/${(server.address() as AddressInfo).port} && echo connected`;
      expect(inSandbox(connect)).toMatchObject({ status: 0, out: 'connected\n' });
      expect(inSandbox(connect, { network: false }).status).not.toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('what is left of a terminal', () => {
  /** Processes whose command line holds `text`. */
  const running = (text: string) =>
    readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // ended meanwhile
      }
    });

  it('ends every process still in the session its leader led', async () => {
    const marker = `4243.${process.pid}`;
    // A session leader whose children outlive it, as a sandbox's init does when bwrap dies while setting it up.
    const leader = spawn('setsid', ['bash', '-c', `sleep ${marker} & sleep ${marker} & wait`], { stdio: 'ignore' });
    await eventually(() => expect(running(`sleep\0${marker}`)).toHaveLength(2));
    leader.kill('SIGKILL');
    await new Promise((r) => leader.once('exit', r));
    expect(running(`sleep\0${marker}`)).toHaveLength(2);
    endSandboxSession(leader.pid!);
    await eventually(() => expect(running(`sleep\0${marker}`)).toHaveLength(0));
  });
});
