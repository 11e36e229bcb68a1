/**
 * NO_DEBUGGER, which the conformance suite cannot produce on a machine that has every debugger and a
 * sandbox that starts (CI installs them all): a sandbox that cannot start fails the debugger's
 * start, saying why, and nothing runs outside it instead.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { commandRunner } from './adapters.js';

it('a sandbox that cannot start is NO_DEBUGGER saying why, and the program does not run unsandboxed', async () => {
  const dir = mkdtempSync('/var/tmp/openspace-no-debugger-');
  try {
    const marker = join(dir, 'ran');
    const run = commandRunner(
      { command: async () => ({ unavailable: 'bwrap: setting up uid map: Permission denied' }) },
      join(dir, 'hooks'),
    );
    await expect(run(['/bin/sh', '-c', `touch ${marker}`], dir)).rejects.toMatchObject({
      code: 'NO_DEBUGGER',
      message: 'The agent sandbox cannot start here: bwrap: setting up uid map: Permission denied',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
