import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { becomes } from './sandbox-processes.js';

const SLEEP = realpathSync('/bin/sleep');

describe('becomes', () => {
  it('waits while a launch chain runs something else, and sees the program it execs', async () => {
    // As a sandbox's launch does: a shell that execs the program later, in the same process.
    const child = spawn('/bin/sh', ['-c', 'sleep 0.3; exec /bin/sleep 5'], { stdio: 'ignore' });
    try {
      expect(await becomes(child.pid!, SLEEP, 5_000)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('is false once the process ended, and after the wait for one that never runs the program', async () => {
    const quick = spawn('/bin/sh', ['-c', 'exit 0'], { stdio: 'ignore' });
    await new Promise((r) => quick.once('exit', r));
    expect(await becomes(quick.pid!, SLEEP, 5_000)).toBe(false);
    const other = spawn('/bin/sh', ['-c', 'read line'], { stdio: 'pipe' });
    try {
      const started = Date.now();
      expect(await becomes(other.pid!, SLEEP, 200)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
