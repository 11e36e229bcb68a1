/**
 * The built Theia backend, started as `npm run theia` and the test harness start it
 * (conformance/theia-launch.ts), stops when the process that started it is killed, and when that
 * process closes its stdin: before, it lived on, and once it logged a line to its broken output it
 * spun at 100% of a CPU for good.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { eventually } from '../../../../conformance/setup.js';
import { startTheia } from '../../../../conformance/theia-launch.js';
import { statFields } from '../../../../src/security/sandbox-processes.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const workspace = mkdtempSync(join(tmpdir(), 'openspace-lost-output-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** The CPU seconds a process has used, or undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && fields[0] !== 'Z' ? (Number(fields[11]) + Number(fields[12])) / 100 : undefined;
}

it('a backend whose starter was killed stops within seconds', { timeout: 60_000 }, async () => {
  // The starter prints the backend's pid once it listens, then kills itself.
  const starter = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { startTheia } from './conformance/theia-launch.ts';
      const { child, origin } = startTheia(${JSON.stringify(workspace)}, 0, 'pipe');
      child.stderr.resume();
      await origin;
      process.stdout.write(child.pid + '\\n', () => process.kill(process.pid, 'SIGKILL'));`,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  starter.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => starter.once('exit', resolve));
  const pid = Number(out.trim());
  expect(pid, `the starter's output: ${JSON.stringify(out)}`).toBeGreaterThan(0);
  try {
    await eventually(() => expect(cpuSeconds(pid), 'the orphaned backend still runs').toBeUndefined(), 15_000, 100);
  } finally {
    if (cpuSeconds(pid) !== undefined) process.kill(pid, 'SIGKILL');
  }
});

it('a backend stops once the stdin its starter holds is closed, its output still read', { timeout: 60_000 }, async () => {
  const { child, origin } = startTheia(workspace, 0, 'pipe');
  child.stdout!.resume();
  child.stderr!.resume();
  try {
    await origin;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.end();
    await expect(
      Promise.race([exited.then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still running after 15 s'), 15_000))]),
    ).resolves.toBe('stopped');
  } finally {
    child.kill('SIGKILL');
  }
});
