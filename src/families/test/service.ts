/**
 * The workspace's tests through the project's own runners (Node only; the simulated IDE and Theia's
 * backend each make one per workspace). A runner runs as agent code does, in the agent sandbox,
 * with a directory of ours bound inside for its reporter: it writes what happened there, OpenSpace
 * reads it back, and what a test printed or threw is sanitized and redacted like terminal output.
 * One run at a time; it ends at its time limit or when cancelled, answering with what finished.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../../contract/index.js';
import { redact } from '../../security/redact.js';
import { EXCHANGE_DIRECTORY_INSIDE, sandboxEnvironment } from '../../security/sandbox.js';
import { TerminalSanitizer } from '../../security/sanitize.js';
import type { TestDiscovery, TestPort, TestRunInfo } from './port.js';
import type { FileError, Invocation, ProcessEnd, Runner, RunnerReport, TestCase, TestOutcome } from './runner.js';
import { MAX_LISTED_TESTS } from './tools.js';
import nodeTest from './node-test.js';
import vitest from './vitest.js';
import jest from './jest.js';
import pytest from './pytest.js';

/** The runners OpenSpace knows, in the order a run goes through them. */
export const RUNNERS: readonly Runner[] = [vitest, jest, nodeTest, pytest];

/** How much of a runner's output is kept, from its end, to say why it did not report. */
const OUTPUT_TAIL = 16 * 1024;
const MAX_MESSAGE = 4000;
const MAX_VALUE = 2000;

export interface WorkspaceTestsOptions {
  /** The workspace directory (absolute, real). */
  root: string;
  /** The agent sandbox as it is now (settings can turn it off); undefined: none, and the commands ask the person first. */
  sandbox: () => TestSandbox | undefined;
  runners?: readonly Runner[];
  /** The runners the person's settings name (openspace.test.runners), used instead of finding them; undefined: found. */
  chosen?: () => readonly string[] | undefined;
}

/** The command line running `argv` in the agent sandbox, with the host directory `exchange` writable inside at `exchangeInside`. */
export interface TestSandbox {
  exchangeInside: string;
  command(argv: string[], exchange: string): Promise<string[]>;
}

/** An IDE's agent sandboxes (src/security/sandbox-runtime.ts) as the test runs use them, in the workspace `root`. */
export function testSandbox(
  runtime: { command(argv: string[], cwd: string, env: NodeJS.ProcessEnv, exchange: string): Promise<string[] | { unavailable: string }> },
  root: string,
): TestSandbox {
  return {
    exchangeInside: EXCHANGE_DIRECTORY_INSIDE,
    async command(argv, exchange) {
      const line = await runtime.command(argv, root, process.env, exchange);
      if ('unavailable' in line) throw new ToolError('NO_TEST_RUNNER', `The agent sandbox cannot start here: ${line.unavailable}`);
      return line;
    },
  };
}

type Work = { paths: string[]; tests?: TestCase[]; timeoutMs: number };

export class WorkspaceTests implements TestPort {
  /** Stop the runners' processes now running (one at a time in a run, one per runner in a discovery). */
  private readonly stops = new Set<() => void>();
  private busy = false;
  /** A cancel came during the run or discovery in progress. */
  private cancelled = false;
  private lastRun: TestRunInfo | undefined;
  private readonly listeners = new Set<(run: TestRunInfo) => void>();
  private readonly runners: readonly Runner[];

  constructor(private readonly options: WorkspaceTestsOptions) {
    this.runners = options.runners ?? RUNNERS;
  }

  get sandboxed(): boolean {
    return this.options.sandbox() !== undefined;
  }

  last(): TestRunInfo | undefined {
    return this.lastRun;
  }

  onRun(listener: (run: TestRunInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  cancel(): boolean {
    if (!this.busy) return false;
    this.cancelled = true;
    for (const stop of this.stops) stop();
    return true;
  }

  discover(paths: string[]): Promise<TestDiscovery> {
    return this.alone(() => this.list(paths, 120_000));
  }

  run(request: Parameters<TestPort['run']>[0]): Promise<TestRunInfo> {
    return this.alone(async () => {
      const startedAt = new Date();
      const abort = () => this.cancel();
      request.signal?.addEventListener('abort', abort, { once: true });
      try {
        return await this.runAlone(request, startedAt);
      } finally {
        request.signal?.removeEventListener('abort', abort);
      }
    });
  }

  private async runAlone(request: Parameters<TestPort['run']>[0], startedAt: Date): Promise<TestRunInfo> {
    {
      let tests: TestCase[] | undefined;
      try {
        tests = request.names || request.at ? await this.select(request) : undefined;
      } catch (err) {
        if (!this.cancelled) throw err;
        tests = [];
      }
      const paths = tests ? [...new Set(tests.map((t) => t.path))] : request.paths;
      const reports: RunnerReport[] = [];
      const runners = await this.runnersFor(paths);
      let ended: 'timed-out' | 'cancelled' | undefined;
      const deadline = Date.now() + request.timeoutMs;
      for (const { runner, paths: own } of runners) {
        if (this.cancelled) {
          ended = 'cancelled';
          break;
        }
        const mine = tests?.filter((t) => t.runner === runner.name);
        if (mine?.length === 0) continue;
        const result = await this.execute(runner, 'run', { paths: own, tests: mine, timeoutMs: Math.max(1000, deadline - Date.now()) });
        reports.push(result.report);
        if (result.ended) {
          ended = result.ended;
          break;
        }
      }
      const outcomes = reports.flatMap((r) => r.tests).map(cleanOutcome);
      const errors = reports.flatMap((r) => r.errors).map(cleanError);
      const count = (status: TestOutcome['status']) => outcomes.filter((t) => t.status === status).length;
      const failed = outcomes.filter((t) => t.status === 'failed');
      const rest = outcomes.filter((t) => t.status !== 'failed');
      const listed = [...failed, ...rest].slice(0, Math.max(MAX_LISTED_TESTS, failed.length));
      const run: TestRunInfo = {
        status: ended ?? (failed.length > 0 || errors.length > 0 ? 'failed' : 'passed'),
        runners: runners.map((r) => r.runner.name),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        by: request.by,
        counts: { passed: count('passed'), failed: failed.length, skipped: count('skipped'), todo: count('todo') },
        tests: listed,
        errors,
        ...(listed.length < outcomes.length && { truncated: true }),
      };
      this.lastRun = run;
      for (const listener of this.listeners) listener(run);
      return run;
    }
  }

  /** One run or discovery at a time: a second waits for nothing, it is refused. */
  private async alone<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy)
      throw new ToolError('TEST_RUN_BUSY', 'A test run is in progress: wait for its answer, or stop it with openspace.test.cancel.');
    this.busy = true;
    this.cancelled = false;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  private async list(paths: string[], timeoutMs: number): Promise<TestDiscovery> {
    const runners = await this.runnersFor(paths);
    const found: TestDiscovery = { runners: runners.map((r) => r.runner.name), tests: [], errors: [] };
    // The runners list their tests at once: a discovery runs no test, so they cannot get in each
    // other's way, and a workspace with Jest and pytest waits for the slower, not for both.
    const listed = await Promise.allSettled(
      runners.map(({ runner, paths: own }) => this.execute(runner, 'discover', { paths: own, timeoutMs })),
    );
    for (const [i, outcome] of listed.entries()) {
      if (outcome.status === 'rejected') throw outcome.reason;
      const { runner } = runners[i]!;
      const { report, ended } = outcome.value;
      if (ended === 'cancelled') throw new ToolError('TEST_RUN_FAILED', 'The discovery was cancelled.');
      if (ended) throw new ToolError('TEST_RUN_FAILED', `${runner.name} did not finish listing the tests within ${timeoutMs / 1000} s.`);
      found.tests.push(...report.tests.map(({ id, name, suite, path, line, runner }) => ({ id, name, suite, path, line, runner })));
      found.errors.push(...report.errors.map(cleanError));
    }
    // A folder goes to every runner the workspace uses: name those that found something in it.
    if (found.tests.length > 0) found.runners = found.runners.filter((r) => found.tests.some((t) => t.runner === r));
    found.tests = found.tests.map((t) => ({ ...t, name: clean(t.name, MAX_VALUE), suite: t.suite.map((s) => clean(s, MAX_VALUE)) }));
    return found;
  }

  /** The tests that names or a line pick, found by a discovery of the files they can be in. */
  private async select(request: Parameters<TestPort['run']>[0]): Promise<TestCase[]> {
    const ids = request.names?.filter((n) => n.includes('::')).map((n) => n.split('::')[0]!);
    const scope = request.at ? [request.at.path] : ids?.length === request.names?.length ? [...new Set(ids)] : request.paths;
    const { tests } = await this.list(scope, request.timeoutMs);
    if (request.at) {
      const { path, line } = request.at;
      const before = tests.filter((t) => t.path === path && t.line !== undefined && t.line <= line);
      const test = before.sort((a, b) => b.line! - a.line!)[0];
      if (!test)
        throw new ToolError('TEST_NOT_FOUND', `No test starts at or above line ${line} of ${path}; openspace.test.discover lists them.`);
      return [test];
    }
    const names = new Set(request.names);
    const picked = tests.filter((t) => names.has(t.id) || names.has(t.name) || names.has([...t.suite, t.name].join(' > ')));
    const unmatched = [...names].filter((n) => !picked.some((t) => n === t.id || n === t.name || n === [...t.suite, t.name].join(' > ')));
    if (unmatched.length > 0) {
      const words = unmatched.join(' ').toLowerCase().split(/\W+/).filter(Boolean);
      const near = tests.filter((t) => words.some((w) => t.name.toLowerCase().includes(w))).slice(0, 10);
      throw new ToolError(
        'TEST_NOT_FOUND',
        `No test is named ${unmatched.map((n) => JSON.stringify(n)).join(', ')}.${near.length ? ` Near: ${near.map((t) => JSON.stringify([...t.suite, t.name].join(' > '))).join(', ')}.` : ' openspace.test.discover lists them.'}`,
        { names: unmatched },
      );
    }
    return picked;
  }

  /** The runners the paths belong to (none: every runner the workspace uses), each with its paths. */
  private async runnersFor(paths: string[]): Promise<{ runner: Runner; paths: string[] }[]> {
    const root = this.options.root;
    // Every runner looks (node --test learns the test script's loaders there); the person's settings may name them instead.
    const named = this.options.chosen?.();
    const found = await Promise.all(this.runners.map(async (runner) => ({ runner, uses: await runner.detect(root) })));
    const used = found.filter(({ runner, uses }) => (named ? named.includes(runner.name) : uses)).map(({ runner }) => runner);
    const chosen = new Map<Runner, string[]>();
    for (const path of paths) {
      const directory = await stat(join(root, path)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      const owners = directory
        ? used
        : [used.find((r) => r.owns(path)) ?? this.runners.find((r) => r.owns(path))].filter((r) => r !== undefined);
      if (owners.length === 0)
        throw new ToolError('NO_TEST_RUNNER', `${path} is not a test file of a runner this workspace uses (${RUNNER_LIST}).`);
      for (const runner of owners) chosen.set(runner, [...(chosen.get(runner) ?? []), path]);
    }
    if (paths.length === 0) for (const runner of used) chosen.set(runner, []);
    if (chosen.size === 0) throw new ToolError('NO_TEST_RUNNER', `No test runner found in the workspace. OpenSpace runs ${RUNNER_LIST}.`);
    for (const runner of chosen.keys()) {
      const why = await runner.missing(root);
      if (why) throw new ToolError('NO_TEST_RUNNER', why, { runner: runner.name });
    }
    return [...chosen].map(([runner, paths]) => ({ runner, paths }));
  }

  /** Run one runner's command line to its end (or its time limit, or a cancel), and read what its reporter wrote. */
  private async execute(
    runner: Runner,
    mode: 'discover' | 'run',
    work: Work,
  ): Promise<{ report: RunnerReport; ended?: 'timed-out' | 'cancelled' }> {
    const root = this.options.root;
    const host = await mkdtemp(join(tmpdir(), 'openspace-tests-'));
    try {
      await Promise.all(Object.entries(runner.files()).map(([name, text]) => writeFile(join(host, name), text)));
      const sandbox = this.options.sandbox();
      const inside = sandbox?.exchangeInside ?? host;
      const exchange = { inside, host };
      const invocation: Invocation =
        mode === 'discover' ? runner.discover({ root, paths: work.paths, exchange }) : runner.run({ root, ...work, exchange });
      const variables = { NO_COLOR: '1', FORCE_COLOR: '0', OPENSPACE_TEST_EXCHANGE: inside, ...invocation.env };
      // The sandbox passes on an allowlisted environment only: the runner's variables go on its command line.
      const argv = ['/usr/bin/env', ...Object.entries(variables).map(([k, v]) => `${k}=${v}`), ...invocation.argv];
      const line = sandbox ? await sandbox.command(argv, host) : argv;
      const { end, ended } = await this.spawn(line, work.timeoutMs);
      let report: RunnerReport;
      try {
        report = await runner.read({ root, exchange, end, tests: work.tests });
      } catch (err) {
        if (ended) return { report: { tests: [], errors: [] }, ended };
        throw new ToolError('TEST_RUN_FAILED', clean(err instanceof Error ? err.message : String(err), MAX_MESSAGE), {
          runner: runner.name,
        });
      }
      return { report, ...(ended && { ended }) };
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  }

  private spawn(line: string[], timeoutMs: number): Promise<{ end: ProcessEnd; ended?: 'timed-out' | 'cancelled' }> {
    return new Promise((resolve, reject) => {
      const child = spawn(line[0]!, line.slice(1), {
        cwd: this.options.root,
        env: sandboxEnvironment(process.env),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = { stdout: '', stderr: '' };
      const keep = (name: 'stdout' | 'stderr') => (chunk: Buffer) =>
        void (out[name] = (out[name] + chunk.toString('utf8')).slice(-OUTPUT_TAIL));
      child.stdout.on('data', keep('stdout'));
      child.stderr.on('data', keep('stderr'));
      // The runner and all it started (its workers) are one process group.
      const stop = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      this.stops.add(stop);
      if (this.cancelled) stop();
      let timedOut = false;
      const timer = setTimeout(() => ((timedOut = true), stop()), timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        this.stops.delete(stop);
        reject(new ToolError('NO_TEST_RUNNER', `The test runner did not start: ${err.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        this.stops.delete(stop);
        const ended = this.cancelled ? 'cancelled' : timedOut ? 'timed-out' : undefined;
        resolve({ end: { code, signal, ...out }, ...(ended && { ended }) });
      });
    });
  }
}

const RUNNER_LIST =
  'Vitest (vitest in package.json or a vitest.config file), Jest (jest in package.json or a jest.config file), node --test (a test script that runs node --test) and pytest (pytest.ini, conftest.py or test_*.py files)';

/** A runner's text as an agent may read it: escape sequences removed, secrets redacted, bounded. */
function clean(text: string, max: number): string {
  const plain = redact(new TerminalSanitizer().write(text)).text;
  return plain.length > max ? `${plain.slice(0, max)}…` : plain;
}

function cleanOutcome(test: TestOutcome): TestOutcome {
  const cleaned = { ...test, name: clean(test.name, MAX_VALUE), suite: test.suite.map((s) => clean(s, MAX_VALUE)) };
  if (test.failure) {
    const { message, expected, actual } = test.failure;
    cleaned.failure = {
      ...test.failure,
      message: clean(message, MAX_MESSAGE),
      ...(expected !== undefined && { expected: clean(expected, MAX_VALUE) }),
      ...(actual !== undefined && { actual: clean(actual, MAX_VALUE) }),
    };
  }
  return cleaned;
}

function cleanError(error: FileError): FileError {
  return { ...error, message: clean(error.message, MAX_MESSAGE) };
}
