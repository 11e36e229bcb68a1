/**
 * Start the built Theia app's backend (`npm run theia:build` builds it): what the conformance
 * target, the benchmark and `npm run theia` share.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const THEIA_APP = fileURLToPath(new URL('../theia-app', import.meta.url));

/** Start Theia's backend on a workspace (none: no folder open); resolves with its origin once it listens. */
export function startTheia(
  workspace: string | undefined,
  port: number,
  stdio: 'inherit' | 'pipe' = 'inherit',
  env: Record<string, string> = {},
) {
  const folder = workspace === undefined ? [] : [workspace];
  const child = spawn(
    process.execPath,
    [join(THEIA_APP, 'lib', 'backend', 'main.js'), ...folder, '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: THEIA_APP,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', stdio === 'inherit' ? 'inherit' : 'pipe'],
    },
  );
  const origin = new Promise<string>((resolveOrigin, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+?)\.?\s/i.exec(seen);
      if (match) resolveOrigin(match[1]!.replace(/\/$/, ''));
    });
    child.once('exit', (code) => reject(new Error(`Theia exited with code ${code} before listening:\n${seen}`)));
  });
  return { child, origin };
}
