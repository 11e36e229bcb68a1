/**
 * openspace.test.run beside the runner run directly, by `npm run bench` (and alone:
 * `node --import tsx ci/bench-tests.ts`). A Vitest project and a node --test project, each with a
 * one-test file and a 200-test file; the family's WorkspaceTests (the code both IDEs run for an
 * agent's test.run, in the agent sandbox, reading its reporter back) is timed beside
 * `vitest run <file>` or `node --test <file>` run alone, unsandboxed, as a person would type it:
 * interleaved in the same run. Aim: ≤ 1.2× the runner plus 150 ms (issue 31).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { testSandbox, WorkspaceTests } from '../src/families/test/service.js';
import { SandboxRuntime } from '../src/security/sandbox-runtime.js';
import { sandboxSettings } from '../src/security/sandbox.js';
import { probeBwrap } from '../src/security/sandbox-host.js';

const SAMPLES = 9;

type RunnerName = 'vitest' | 'node';

export interface TestsBench {
  runner: RunnerName;
  file: string;
  tests: number;
  runnerMs: number;
  toolMs: number;
  ratio: number;
  extraMs: number;
  sandboxed: boolean;
}

/** A project of `runner`'s with a one-test file and a 200-test file. Not under /tmp, which the sandbox keeps private. */
function project(runner: RunnerName): string {
  const dir = mkdtempSync(`/var/tmp/openspace-bench-${runner}-`);
  mkdirSync(join(dir, 'test'));
  const many = Array.from({ length: 200 }, (_, i) => `test('case ${i}', () => { if (${i} * 2 !== ${i * 2}) throw new Error('no'); });`);
  if (runner === 'node') {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test test/' } }));
    writeFileSync(join(dir, 'test/one.test.mjs'), "import { test } from 'node:test';\ntest('adds', () => {});\n");
    writeFileSync(join(dir, 'test/many.test.mjs'), `import { test } from 'node:test';\n${many.join('\n')}\n`);
  } else {
    // The project's Vitest is OpenSpace's own, linked into its node_modules.
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ type: 'module', scripts: { test: 'vitest run' }, devDependencies: { vitest: '^4' } }),
    );
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(fileURLToPath(new URL('../node_modules/vitest', import.meta.url)), join(dir, 'node_modules/vitest'));
    writeFileSync(join(dir, 'test/one.test.mjs'), "import { test } from 'vitest';\ntest('adds', () => {});\n");
    writeFileSync(join(dir, 'test/many.test.mjs'), `import { test } from 'vitest';\n${many.join('\n')}\n`);
  }
  return dir;
}

function runDirectly(runner: RunnerName, dir: string, file: string): Promise<void> {
  const argv =
    runner === 'node'
      ? [process.execPath, '--test', file]
      : [process.execPath, fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', file];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const p50 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

export async function benchTests(): Promise<TestsBench[]> {
  const rows: TestsBench[] = [];
  for (const runner of ['vitest', 'node'] as const) {
    const dir = project(runner);
    const runtime = probeBwrap().available
      ? new SandboxRuntime(sandboxSettings({ network: false }).settings, { workspace: dir })
      : undefined;
    const tests = new WorkspaceTests({ root: dir, sandbox: () => runtime && testSandbox(runtime, dir) });
    try {
      for (const [file, count] of [
        ['test/one.test.mjs', 1],
        ['test/many.test.mjs', 200],
      ] as const) {
        const direct: number[] = [];
        const tool: number[] = [];
        await tests.run({ paths: [file], timeoutMs: 60_000, by: 'agent' }); // warm-up
        for (let i = 0; i < SAMPLES; i++) {
          direct.push(await timed(() => runDirectly(runner, dir, file)));
          tool.push(
            await timed(async () => {
              const run = await tests.run({ paths: [file], timeoutMs: 60_000, by: 'agent' });
              if (run.counts.passed !== count) throw new Error(`${file}: ${run.counts.passed} passed, ${count} expected`);
            }),
          );
        }
        const runnerMs = p50(direct);
        const toolMs = p50(tool);
        rows.push({
          runner,
          file,
          tests: count,
          runnerMs,
          toolMs,
          ratio: toolMs / runnerMs,
          extraMs: toolMs - runnerMs,
          sandboxed: runtime !== undefined,
        });
      }
    } finally {
      await runtime?.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(
    `\ntest.run beside the runner run directly (p50 of ${SAMPLES}; the tool in the agent sandbox${rows[0]?.sandboxed ? '' : ': NOT AVAILABLE here, unsandboxed'}):`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.runner === 'node' ? 'node --test' : 'Vitest'}, ${r.file} (${r.tests} test${r.tests === 1 ? '' : 's'}): the runner ${r.runnerMs.toFixed(0)} ms, test.run ${r.toolMs.toFixed(0)} ms: ×${r.ratio.toFixed(2)}, +${r.extraMs.toFixed(0)} ms`,
    );
  }
  console.log('  Aim: ≤ 1.2× the runner + 150 ms.');
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchTests();
