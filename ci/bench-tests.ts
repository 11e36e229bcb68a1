/**
 * openspace.test.run beside the runner run directly, by `npm run bench` (and alone:
 * `node --import tsx ci/bench-tests.ts`). A node --test project with a one-test file and a
 * 200-test file; the family's WorkspaceTests (the code both IDEs run for an agent's test.run, in
 * the agent sandbox, reading its reporter back) is timed beside `node --test <file>` run alone,
 * unsandboxed, as a person would type it: interleaved in the same run. Aim: ≤ 1.2× the runner plus
 * 150 ms (issue 31).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { testSandbox, WorkspaceTests } from '../src/families/test/service.js';
import { SandboxRuntime } from '../src/security/sandbox-runtime.js';
import { sandboxSettings } from '../src/security/sandbox.js';
import { probeBwrap } from '../src/security/sandbox-host.js';

const SAMPLES = 9;

export interface TestsBench {
  file: string;
  tests: number;
  runnerMs: number;
  toolMs: number;
  ratio: number;
  extraMs: number;
  sandboxed: boolean;
}

function project(): string {
  // Not under /tmp, which the sandbox keeps private.
  const dir = mkdtempSync('/var/tmp/openspace-bench-tests-');
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test test/' } }));
  writeFileSync(join(dir, 'test/one.test.mjs'), "import { test } from 'node:test';\ntest('adds', () => {});\n");
  const many = Array.from({ length: 200 }, (_, i) => `test('case ${i}', () => { if (${i} * 2 !== ${i * 2}) throw new Error('no'); });`);
  writeFileSync(join(dir, 'test/many.test.mjs'), `import { test } from 'node:test';\n${many.join('\n')}\n`);
  return dir;
}

function runDirectly(dir: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--test', file], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
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
  const dir = project();
  const runtime = probeBwrap().available ? new SandboxRuntime(sandboxSettings({ network: false }).settings, { workspace: dir }) : undefined;
  const tests = new WorkspaceTests({ root: dir, sandbox: () => runtime && testSandbox(runtime, dir) });
  const rows: TestsBench[] = [];
  try {
    for (const [file, count] of [
      ['test/one.test.mjs', 1],
      ['test/many.test.mjs', 200],
    ] as const) {
      const runner: number[] = [];
      const tool: number[] = [];
      await tests.run({ paths: [file], timeoutMs: 60_000, by: 'agent' }); // warm-up
      for (let i = 0; i < SAMPLES; i++) {
        runner.push(await timed(() => runDirectly(dir, file)));
        tool.push(
          await timed(async () => {
            const run = await tests.run({ paths: [file], timeoutMs: 60_000, by: 'agent' });
            if (run.counts.passed !== count) throw new Error(`${file}: ${run.counts.passed} passed, ${count} expected`);
          }),
        );
      }
      const runnerMs = p50(runner);
      const toolMs = p50(tool);
      rows.push({
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
  console.log(
    `\ntest.run beside node --test run directly (p50 of ${SAMPLES}; the tool in the agent sandbox${rows[0]?.sandboxed ? '' : ': NOT AVAILABLE here, unsandboxed'}):`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.file} (${r.tests} test${r.tests === 1 ? '' : 's'}): node --test ${r.runnerMs.toFixed(0)} ms, test.run ${r.toolMs.toFixed(0)} ms: ×${r.ratio.toFixed(2)}, +${r.extraMs.toFixed(0)} ms`,
    );
  }
  console.log('  Aim: ≤ 1.2× the runner + 150 ms.');
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchTests();
