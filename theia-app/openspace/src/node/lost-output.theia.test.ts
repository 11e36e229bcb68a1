/**
 * The built Theia backend, started as the test harness and `npm run theia` start it (its stdout and
 * stderr read through pipes), by a process that is then killed: the backend ends instead of logging
 * each EPIPE of its broken output to that same output, at 100% of a CPU, for good.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { eventually } from '../../../../conformance/setup.js';

const THEIA_APP = fileURLToPath(new URL('../../../', import.meta.url));
const workspace = mkdtempSync(join(tmpdir(), 'openspace-lost-output-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** The CPU seconds a process has used, or undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return fields[0] === 'Z' ? undefined : (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

it('a backend whose starter was killed ends within seconds', { timeout: 60_000 }, async () => {
  // The starter prints the backend's pid once it listens, then kills itself.
  const starter = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { spawn } from 'node:child_process';
      const backend = spawn(process.execPath, ['lib/backend/main.js', ${JSON.stringify(workspace)}, '--hostname', '127.0.0.1', '--port', '0'],
        { cwd: ${JSON.stringify(THEIA_APP)}, stdio: ['ignore', 'pipe', 'pipe'] });
      backend.stdout.on('data', (d) => { if (/listening on/i.test(d)) { process.stdout.write(backend.pid + '\\n', () => process.kill(process.pid, 'SIGKILL')); } });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
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
