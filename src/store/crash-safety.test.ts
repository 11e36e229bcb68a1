/**
 * Crash safety (issue 5): a process writing large files through the store is killed with SIGKILL at
 * random moments; the file is always exactly the old or the new content, and the next start leaves
 * no temporary file behind. The writer is the store bundled into one file, so that a trial costs a
 * Node start and not a TypeScript compile.
 */
import { spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMP_FILE } from './file-access.js';
import { WorkspaceFiles } from './workspace-files.js';

const TRIALS = 200;
const LANES = 2;
const SIZE = 2 * 1024 * 1024;

const WRITER = `
import * as fs from 'node:fs';
import { WorkspaceFiles } from './workspace-files.ts';
const [root, size] = [process.argv[2], Number(process.argv[3])];
const contents = ['A', 'B'].map((c) => c.repeat(size - 1) + '\\n');
const files = await WorkspaceFiles.create({ fs, root, kind: 'disk' });
process.stdout.write('ready\\n');
for (let i = 1; ; i++) {
  await files.writeText('data/big.txt', contents[i % 2]);
  process.stdout.write('w\\n');
}
`;

let base: string;
let writer: string;

beforeAll(async () => {
  base = nodeFs.realpathSync(await mkdtemp(nodePath.join(os.tmpdir(), 'openspace-crash-')));
  writer = nodePath.join(base, 'writer.mjs');
  await build({
    stdin: { contents: WRITER, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts', sourcefile: 'writer.ts' },
    outfile: writer,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@vscode/ripgrep', 'chokidar'],
    // The writer validates nothing: a stand-in for zod (the contract builds its schemas at load) makes its start cheaper.
    plugins: [
      {
        name: 'zod-stand-in',
        setup(b) {
          b.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', namespace: 'stand-in' }));
          b.onLoad({ filter: /.*/, namespace: 'stand-in' }, () => ({
            contents: 'const z = new Proxy(function () {}, { get: () => z, apply: () => z }); export { z }; export default z;',
            loader: 'js',
          }));
        },
      },
    ],
    banner: { js: "import { createRequire as __osCreateRequire } from 'node:module'; const require = __osCreateRequire(import.meta.url);" },
    minify: true,
    logLevel: 'error',
  });
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

function tempFiles(root: string): string[] {
  return nodeFs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => TEMP_FILE.test(nodePath.basename(f)));
}

/**
 * How long one write takes on this machine now: the writer's own pace over a few writes. Kills are
 * spread over a few writes' time, so that some land before any write finished, some mid-write and
 * some after, however fast or loaded the machine is (a fixed window made the test vacuous, and
 * fail, when writes were slower than it).
 */
function writeMs(root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, root, String(SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let ready = 0;
    let writes = 0;
    child.stdout.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        if (line === 'ready') ready = performance.now();
        else if (line === 'w' && ++writes === 5) {
          child.kill('SIGKILL');
          resolve((performance.now() - ready) / 5);
        }
      }
    });
    child.once('exit', (code, signal) => signal !== 'SIGKILL' && reject(new Error(`writer exited ${code}`)));
  });
}

/** Start the writer, let it write for a random moment, SIGKILL it. */
function killedWriter(root: string, killAfterMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, root, String(SIZE)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), killAfterMs));
    child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited ${code}: ${stderr}`))));
  });
}

describe('crash safety', () => {
  it(
    `a writer killed with SIGKILL at random moments (${TRIALS} trials): always the old or the new content, no temporary file after the next start`,
    { timeout: 300_000 },
    async () => {
      const old = Buffer.from('A'.repeat(SIZE - 1) + '\n');
      const fresh = Buffer.from('B'.repeat(SIZE - 1) + '\n');
      const seen = { old: 0, new: 0, leftovers: 0 };
      const started = Date.now();
      const pace = nodePath.join(base, 'pace');
      nodeFs.mkdirSync(nodePath.join(pace, 'data'), { recursive: true });
      const window = 3 * (await writeMs(pace));
      await Promise.all(
        Array.from({ length: LANES }, async (_, lane) => {
          const root = nodePath.join(base, `ws-${lane}`);
          nodeFs.mkdirSync(nodePath.join(root, 'data'), { recursive: true });
          nodeFs.writeFileSync(nodePath.join(root, 'data', 'big.txt'), old);
          for (let trial = lane; trial < TRIALS; trial += LANES) {
            await killedWriter(root, Math.random() * window);
            const now = nodeFs.readFileSync(nodePath.join(root, 'data', 'big.txt'));
            const isOld = now.equals(old);
            const isNew = now.equals(fresh);
            expect(isOld || isNew, `trial ${trial}: ${now.length} bytes, neither the old nor the new content`).toBe(true);
            if (isOld) seen.old++;
            else seen.new++;
            if (tempFiles(root).length > 0) seen.leftovers++;
            // The next start cleans up what the killed writer left.
            await WorkspaceFiles.create({ fs: nodeFs, root, kind: 'disk' });
            expect(tempFiles(root), `trial ${trial}: temporary files after the next start`).toEqual([]);
          }
        }),
      );
      // Not vacuous: kills landed mid-write (leftovers) and both contents were seen.
      expect(seen.old).toBeGreaterThan(0);
      expect(seen.new).toBeGreaterThan(0);
      expect(seen.leftovers).toBeGreaterThan(0);
      console.log(
        `crash safety: ${TRIALS} kills within ${window.toFixed(0)} ms of the start, in ${((Date.now() - started) / 1000).toFixed(1)} s: old ${seen.old}, new ${seen.new}, temporary files left by the kill ${seen.leftovers}`,
      );
    },
  );
});
