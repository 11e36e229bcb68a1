/**
 * The Theia app, installed and built when its sources changed, and its backend started: what the
 * conformance target, the benchmark and `npm run theia` share.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const THEIA_APP = fileURLToPath(new URL('../theia-app', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function run(command: string, args: string[], what: string): void {
  process.stderr.write(`openspace: ${what}…\n`);
  const result = spawnSync(command, args, { cwd: THEIA_APP, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write(`openspace: ${what} failed (exit ${result.status}).\n`);
    process.exit(1);
  }
}

/** Install (npm ci) when node_modules is missing or older than the lock file; build when sources are newer than the bundle. */
export function prepareTheia(): void {
  const installed = join(THEIA_APP, 'node_modules', '.package-lock.json');
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(join(THEIA_APP, 'package-lock.json')).mtimeMs) {
    run('npm', ['ci', '--no-audit', '--no-fund'], 'installing the Theia app (first run, about a minute)');
  }
  const bundle = join(THEIA_APP, 'lib', 'backend', 'main.js');
  const sources = [join(ROOT, 'src'), join(THEIA_APP, 'openspace', 'src'), join(THEIA_APP, 'package.json'), join(THEIA_APP, 'esbuild.mjs')];
  if (!existsSync(bundle) || Math.max(...sources.map(newest)) > statSync(bundle).mtimeMs) {
    run('npx', ['theia', 'build', '--mode', 'development'], 'building the Theia app');
  }
}

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
      // Its stdin is a pipe this process holds and never writes to: when this process ends, however
      // it ends, the backend reads its end and stops (theia-app/openspace/src/node/lost-output.ts).
      stdio: ['pipe', 'pipe', stdio === 'inherit' ? 'inherit' : 'pipe'],
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
