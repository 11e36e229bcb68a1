/**
 * What the runners' unit tests share: test cases written by hand, and a runner run for real the way
 * the service runs it (its files in a fresh exchange directory, its command line in the fixture
 * workspace, its report read back), without the sandbox. For tests only.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange, Invocation, ProcessEnd, Runner, RunnerReport, TestCase } from './runner.js';

/** The cases of one test file: `at(name, line, suite)`. */
export const casesIn =
  (path: string, runner: TestCase['runner']) =>
  (name: string, line: number, suite: string[] = []): TestCase => ({
    id: [path, ...suite, name].join('::'),
    name,
    suite,
    path,
    line,
    runner,
  });

/** A test's case, without its outcome. */
export const caseOf = ({ id, name, suite, path, line, runner }: TestCase): TestCase => ({ id, name, suite, path, line, runner });

/** Run what `make` gives for a fresh exchange directory in `root` (with `env` over this process's), and read the runner's report. */
export function runnerIn(runner: Runner, root: string, env: Record<string, string> = {}) {
  return async (make: (exchange: Exchange) => Invocation, tests?: TestCase[]): Promise<RunnerReport> => {
    const dir = mkdtempSync(join(tmpdir(), `${runner.name}-exchange-`));
    try {
      for (const [name, text] of Object.entries(runner.files())) writeFileSync(join(dir, name), text);
      const exchange = { inside: dir, host: dir };
      const end = await execute(root, make(exchange), env);
      return await runner.read({ root, exchange, end, tests });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

function execute(root: string, invocation: Invocation, env: Record<string, string>): Promise<ProcessEnd> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = invocation.argv;
    const child = spawn(program!, args, { cwd: root, env: { ...process.env, ...env, ...invocation.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
