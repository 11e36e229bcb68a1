/**
 * Jest as a test runner (30.x; 29.7 tried too), the workspace's own copy in node_modules. A
 * reporter of ours appends a JSON line per finished test file to the exchange directory, so a run
 * killed at its time limit still leaves the files it finished.
 *
 * Discovery is a run whose name pattern matches no test, with the tests' locations asked for: Jest
 * then reports every test, skipped and todo ones and each case of `test.each` too, with the line of
 * its declaration, and runs no test body and no hook (circus runs the hooks of a block only when a
 * test in it would run); the project's global setup and teardown are replaced by a module that does
 * nothing. (`jest --collectTests`, Jest 30.4+, also runs no test, but it calls no reporter and gives
 * every test a null location.)
 *
 * Jest runs ES modules only under `node --experimental-vm-modules`: OpenSpace adds that flag when
 * the project's test script has it, and otherwise runs test files as the project's Jest does
 * (CommonJS, or what its transform makes of them).
 */
import { join } from 'node:path';
import { z } from 'zod';
import {
  ANSI,
  didNotReport,
  escapeRegExp,
  exactNamesPattern,
  exists,
  MATCH_NOTHING,
  reportLines,
  readPackageJson,
  readReport,
  relativeTo,
  testId,
  workspaceFrame,
  type Exchange,
  type FileError,
  type Invocation,
  type Runner,
  type TestOutcome,
  type TestStatus,
} from './runner.js';

const REPORTER = 'jest-reporter.cjs';
const REPORT = 'jest-report.jsonl';
/** What discovery gives Jest for the project's global setup and teardown. */
const NO_HOOK = 'jest-no-global-hook.cjs';
/** A name pattern that matches no test (Jest compiles it case-insensitively: no matter). */
const NOT_INSTALLED = 'Jest is not installed in the workspace (no node_modules/jest): run npm install';

/** Runs inside Jest's main process (the reporter API of Jest 27 to 30). */
const REPORTER_SOURCE = `'use strict';
const { appendFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { inspect } = require('node:util');

const dir = process.env.OPENSPACE_TEST_EXCHANGE;
const out = dir ? join(dir, '${REPORT}') : undefined;
// Written at once, line by line: a killed run leaves the files it finished.
const emit = (event) => out && appendFileSync(out, JSON.stringify(event) + '\\n');
// Bounded: a failing toEqual on a big object prints all of it.
const text = (value) => (typeof value === 'string' ? value.slice(0, 20000) : undefined);

// Values as Jest's own messages print them (jest-matcher-utils, found from the Jest that runs), else util.inspect.
let print = (value) => inspect(value, { depth: 6, breakLength: 100 });
try {
  const core = createRequire(createRequire(process.argv[1]).resolve('@jest/core'));
  const utils = createRequire(core.resolve('jest-snapshot'))('jest-matcher-utils');
  if (typeof utils.stringify === 'function') print = (value) => utils.stringify(value);
} catch {
  // another layout of node_modules: inspect will do
}
const show = (value) => { try { return text(print(value)); } catch { return undefined; } };

// An expect() failure carries its matcher's values (toBe, toEqual, toStrictEqual have expected and actual).
function values(detail) {
  const result = detail && typeof detail === 'object' ? detail.matcherResult : undefined;
  if (!result || typeof result !== 'object' || !('expected' in result) || !('actual' in result)) return {};
  return { expected: show(result.expected), actual: show(result.actual) };
}
const error = (e) => e && ({ name: text(e.name ?? e.type), message: text(String(e.message ?? '')), stack: text(e.stack) });

class OpenSpaceReporter {
  onRunStart() { if (out) writeFileSync(out, JSON.stringify({ kind: 'start' }) + '\\n'); }
  onTestFileResult(_test, result) {
    emit({
      kind: 'file',
      file: result.testFilePath,
      error: error(result.testExecError),
      tests: (result.testResults ?? []).map((t) => ({
        name: t.title, suite: t.ancestorTitles, status: t.status, line: t.location?.line, durationMs: t.duration ?? undefined,
        failure: t.status === 'failed' ? { message: text(t.failureMessages?.[0] ?? ''), ...values(t.failureDetails?.[0]) } : undefined,
      })),
    });
  }
  onRunComplete(_contexts, results) { emit({ kind: 'end', error: error(results?.runExecError) }); }
  getLastError() { return undefined; }
}
module.exports = OpenSpaceReporter;
`;

const JestError = z.object({ name: z.string().optional(), message: z.string(), stack: z.string().optional() });
type JestError = z.infer<typeof JestError>;

const Event = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start') }),
  z.object({
    kind: z.literal('file'),
    file: z.string(),
    error: JestError.optional(),
    tests: z.array(
      z.object({
        name: z.string(),
        suite: z.array(z.string()),
        status: z.string(),
        line: z.number().int().positive().optional().catch(undefined),
        durationMs: z.number().nonnegative().optional().catch(undefined),
        failure: z.object({ message: z.string(), expected: z.string().optional(), actual: z.string().optional() }).optional(),
      }),
    ),
  }),
  z.object({ kind: z.literal('end'), error: JestError.optional() }),
]);

/** The rest is skipped: circus says `pending` for test.skip and for the tests a name pattern left out, Jasmine `disabled`. */
const STATUS: Record<string, TestStatus> = { passed: 'passed', failed: 'failed', todo: 'todo' };

/** A failure's text without its stack and colours: its first lines, `Error: ` dropped from a plain error. */
function firstLines(message: string): string {
  const lines = message.replace(ANSI, '').split('\n');
  const stack = lines.findIndex((l) => /^\s+at /.test(l));
  const kept = (stack < 0 ? lines : lines.slice(0, stack)).slice(0, 20).join('\n').trim();
  return kept.replace(/^Error: /, '');
}

/**
 * A test file that did not load (a syntax error, a failing require) or whose file-level code failed
 * (an afterAll): Jest's message names the line as Babel's `(line:column)` or a frame of the file.
 */
function fileError(error: JestError, root: string, path: string): FileError {
  // An afterAll's error comes with its stack only.
  const raw = (error.message || firstLines(error.stack ?? '') || 'the test file failed to run').replace(ANSI, '');
  const file = join(root, path);
  // Babel and Node put the file's path before the message.
  const first = raw.split('\n').find((l) => l.trim() !== '') ?? raw;
  const said = first.replace(new RegExp(`^${escapeRegExp(file)}:\\s*`), '').trim();
  const name = error.name && error.name !== 'Error' && !said.startsWith(error.name) ? `${error.name}: ` : '';
  const babel = /\((\d+):\d+\)\s*$/.exec(first)?.[1];
  const node = new RegExp(`^${escapeRegExp(file)}:(\\d+)`, 'm').exec(`${error.stack ?? ''}\n${raw}`)?.[1];
  const frame = workspaceFrame(error.stack, root, path);
  const line = babel ?? node ?? (frame?.path === path ? String(frame.line) : undefined);
  return { path, message: `${name}${said}`, ...(line && { line: Number(line) }) };
}

/** Jest's arguments for what to run: test files by path; a directory (or anything else) as a pattern of absolute paths. */
function selection(root: string, paths: string[]): string[] {
  if (paths.length === 0) return [];
  if (paths.every((p) => jest.owns(p))) return ['--runTestsByPath', ...paths.map((p) => join(root, p))];
  return paths.map((p) => `^${escapeRegExp(join(root, p))}(?:/|$)`);
}

/** The workspaces whose test script runs Jest under `--experimental-vm-modules` (found by detect). */
const esm = new Set<string>();

function invocation(root: string, exchange: Exchange, args: string[], paths: string[]): Invocation {
  return {
    argv: [
      process.execPath,
      ...(esm.has(root) ? ['--experimental-vm-modules'] : []),
      join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
      `--reporters=${join(exchange.inside, REPORTER)}`,
      '--testLocationInResults',
      '--passWithNoTests',
      // No snapshot written (--ci), no watchman, no coverage: none is asked for.
      '--ci',
      '--watchman=false',
      '--coverage=false',
      // Jest's cache (its haste map, transformed files) goes with the exchange directory: a run leaves none behind.
      `--cacheDirectory=${join(exchange.inside, 'jest-cache')}`,
      // A handle a test left open would keep Jest waiting to the run's time limit after its last test.
      '--forceExit',
      ...args,
      ...selection(root, paths),
    ],
    env: { OPENSPACE_TEST_EXCHANGE: exchange.inside, NO_COLOR: '1', FORCE_COLOR: '0' },
  };
}

const CONFIGS = ['js', 'cjs', 'mjs', 'ts', 'json'].map((ext) => `jest.config.${ext}`);

export const jest: Runner = {
  name: 'jest',

  async detect(root) {
    const pkg = await readPackageJson(root);
    const test = pkg?.scripts?.test;
    if (typeof test === 'string' && /--experimental-vm-modules\b/.test(test)) esm.add(root);
    else esm.delete(root);
    // The test script names another runner: that is the project's (jest may be there for something else).
    if (typeof test === 'string' && !/\bjest\b/.test(test) && /\bvitest\b|\bnode\b[^|&;]*\s--test\b/.test(test)) return false;
    if (pkg?.dependencies?.jest || pkg?.devDependencies?.jest || pkg?.jest || (typeof test === 'string' && /\bjest\b/.test(test)))
      return true;
    for (const config of CONFIGS) if (await exists(join(root, config))) return true;
    return false;
  },

  async missing(root) {
    return (await exists(join(root, 'node_modules', 'jest', 'bin', 'jest.js'))) ? undefined : NOT_INSTALLED;
  },

  // Jest's default testMatch: *.test.* and *.spec.* files, and every script under a __tests__ folder.
  owns: (path) =>
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(path.slice(path.lastIndexOf('/') + 1)) || /(^|\/)__tests__\/.*\.[cm]?[jt]sx?$/.test(path),

  files: () => ({ [REPORTER]: REPORTER_SOURCE, [NO_HOOK]: 'module.exports = () => {};\n' }),

  discover: ({ root, paths, exchange }) => {
    const noHook = join(exchange.inside, NO_HOOK);
    return invocation(
      root,
      exchange,
      [`--testNamePattern=${MATCH_NOTHING}`, `--globalSetup=${noHook}`, `--globalTeardown=${noHook}`],
      paths,
    );
  },

  run: ({ root, paths, tests, exchange, timeoutMs }) => {
    // Jest matches names ignoring case: read() keeps only the tests asked for.
    const pattern = exactNamesPattern(tests);
    const files = tests ? [...new Set(tests.map((t) => t.path))] : paths;
    return invocation(root, exchange, [`--testTimeout=${timeoutMs}`, ...pattern], files);
  },

  async read({ root, exchange, end, tests: asked }) {
    const events = reportLines((await readReport(exchange, REPORT)) ?? '', Event);
    // The reporter starts after Jest read its config and found the tests: without its first line, Jest failed before.
    if (events[0]?.kind !== 'start') throw didNotReport('Jest', end);
    const wanted = asked && new Set(asked.map((t) => t.id));
    const tests: TestOutcome[] = [];
    const errors: FileError[] = [];
    for (const event of events) {
      if (event.kind === 'end' && event.error && (event.error.message || event.error.stack)) {
        const at = workspaceFrame(event.error.stack, root);
        const message = firstLines(event.error.message || event.error.stack || '');
        errors.push({ path: at?.path ?? '.', message: `Jest: ${message}`, ...(at && { line: at.line }) });
      }
      if (event.kind !== 'file') continue;
      const path = relativeTo(root, event.file);
      if (path === undefined) continue;
      for (const test of event.tests) {
        const id = testId(path, test.suite, test.name);
        // Tests the name pattern left out did not run, and -t ignores case: only those asked for.
        if (wanted && !wanted.has(id)) continue;
        const status = STATUS[test.status] ?? 'skipped';
        const failure = status === 'failed' ? test.failure : undefined;
        tests.push({
          id,
          name: test.name,
          suite: test.suite,
          path,
          ...(test.line !== undefined && { line: test.line }),
          runner: 'jest',
          status,
          ...(test.durationMs !== undefined && { durationMs: Math.round(test.durationMs) }),
          ...(status === 'failed' && {
            failure: {
              message: failure?.message ? firstLines(failure.message) : 'failed',
              ...(failure?.expected !== undefined &&
                failure.actual !== undefined && { expected: failure.expected, actual: failure.actual }),
              ...workspaceFrame(failure?.message, root, path),
            },
          }),
        });
      }
      if (event.error) errors.push(fileError(event.error, root, path));
    }
    return { tests, errors };
  },
};

export default jest;
