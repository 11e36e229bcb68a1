/**
 * Vitest (4.x) as a test runner, the workspace's own copy in node_modules. A reporter of ours
 * appends a JSON line per finished test file to the exchange directory, so a run killed at its time
 * limit still leaves the files it finished. Discovery is a run whose name pattern matches no test:
 * Vitest then reports every test, skipped and todo ones too, with its line, and runs no test body or
 * hook (`vitest list` leaves out skipped tests and does not call reporters).
 */
import { readFile } from 'node:fs/promises';
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
  readReport,
  relativeTo,
  testId,
  workspaceFrame,
  type Exchange,
  type FileError,
  type Invocation,
  type Runner,
  type TestOutcome,
} from './runner.js';

const REPORTER = 'vitest-reporter.mjs';
const REPORT = 'vitest-report.jsonl';
/** A name pattern that matches no test. */
const NOT_INSTALLED = 'Vitest is not installed in the workspace (no node_modules/vitest): run npm install';

/** Runs inside Vitest's main process (Reporter API of Vitest 4). */
const REPORTER_SOURCE = `import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.OPENSPACE_TEST_EXCHANGE;
const out = dir ? join(dir, '${REPORT}') : undefined;
// Written at once, line by line: a killed run leaves the files it finished.
const emit = (event) => out && appendFileSync(out, JSON.stringify(event) + '\\n');
// Bounded: a failing toEqual on a big object prints all of it.
const text = (value) => (typeof value === 'string' ? value.slice(0, 20000) : undefined);
const error = (e) => ({
  name: text(e?.name), message: text(String(e?.message ?? e)), stack: text(e?.stack), expected: text(e?.expected), actual: text(e?.actual),
  stacks: (Array.isArray(e?.stacks) ? e.stacks : []).map((s) => ({ file: String(s.file), line: s.line })),
});
// Why a test meant to run did not: the error of the nearest block around it (a failed beforeAll).
function blocker(test) {
  for (let block = test.parent; block; block = block.type === 'module' ? undefined : block.parent) {
    const [first] = block.errors();
    if (first) return error(first);
  }
}
function testOf(test) {
  const suite = [];
  for (let block = test.parent; block.type === 'suite'; block = block.parent) suite.unshift(block.name);
  const { state, errors } = test.result();
  const mode = test.options.mode;
  return {
    name: test.name, suite, line: test.location?.line, mode, state, durationMs: test.diagnostic()?.duration,
    errors: (errors ?? []).map(error),
    blocker: state === 'skipped' && (mode === 'run' || mode === 'only') ? blocker(test) : undefined,
  };
}
export default class OpenSpaceReporter {
  onInit() { if (out) writeFileSync(out, JSON.stringify({ kind: 'start' }) + '\\n'); }
  onTestModuleEnd(module) {
    emit({ kind: 'module', file: module.moduleId, errors: module.errors().map(error), tests: [...module.children.allTests()].map(testOf) });
  }
  onTestRunEnd(_modules, unhandled) { emit({ kind: 'end', errors: unhandled.map(error) }); }
}
`;

const TestError = z.object({
  name: z.string().optional(),
  message: z.string(),
  stack: z.string().optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  // An odd frame drops the frames, not the test.
  stacks: z.array(z.object({ file: z.string(), line: z.number().int().positive() })).catch([]),
});
type TestError = z.infer<typeof TestError>;

const Event = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start') }),
  z.object({
    kind: z.literal('module'),
    file: z.string(),
    errors: z.array(TestError),
    tests: z.array(
      z.object({
        name: z.string(),
        suite: z.array(z.string()),
        line: z.number().int().positive().optional(),
        mode: z.string(),
        state: z.enum(['pending', 'passed', 'failed', 'skipped']),
        durationMs: z.number().nonnegative().optional().catch(undefined),
        errors: z.array(TestError),
        blocker: TestError.optional(),
      }),
    ),
  }),
  z.object({ kind: z.literal('end'), errors: z.array(TestError) }),
]);

/** An error's first lines, without colours; its kind named unless it is a plain assertion. */
function describeError({ name, message }: TestError): string {
  const named = name && name !== 'Error' && name !== 'AssertionError' && !message.startsWith(name) ? `${name}: ${message}` : message;
  return named.replace(ANSI, '').split('\n').slice(0, 20).join('\n').trim();
}

/** Where an error happened in the workspace: in `prefer` (the test file) if it went through it, else the first workspace frame. */
function where(error: TestError, root: string, prefer: string): { path: string; line: number } | undefined {
  const frames = error.stacks.flatMap(({ file, line }) => {
    const path = file.includes('/node_modules/') ? undefined : relativeTo(root, file);
    return path === undefined ? [] : [{ path, line }];
  });
  return frames.find((f) => f.path === prefer) ?? frames[0] ?? workspaceFrame(error.stack, root, prefer);
}

/** A test file that did not load or whose file-level hooks failed; a syntax error names its line only in its text. */
function fileError(error: TestError, root: string, path: string): FileError {
  const message = describeError(error);
  const at = where(error, root, path);
  if (at?.path === path) return { path, message, line: at.line };
  if (at) return { path, message: `${message}\n(at ${at.path}:${at.line})` };
  const line = new RegExp(`(?:${escapeRegExp(join(root, path))}|${escapeRegExp(path)}):(\\d+)`).exec(message)?.[1];
  return { path, message, ...(line && { line: Number(line) }) };
}

/** A path Vitest would take for a flag if it began with a dash. */
const filter = (path: string): string => (path.startsWith('-') ? `./${path}` : path);

function invocation(root: string, exchange: Exchange, args: string[], paths: string[]): Invocation {
  return {
    argv: [
      process.execPath,
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      `--reporter=${join(exchange.inside, REPORTER)}`,
      '--includeTaskLocation',
      '--passWithNoTests',
      // No results cache written into the workspace's node_modules, no coverage: neither is asked for.
      '--no-cache',
      '--coverage.enabled=false',
      ...args,
      ...paths.map(filter),
    ],
    env: { OPENSPACE_TEST_EXCHANGE: exchange.inside, NO_COLOR: '1', FORCE_COLOR: '0' },
  };
}

interface PackageJson {
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  scripts?: Record<string, unknown>;
}

const CONFIGS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `vitest.config.${ext}`);

export const vitest: Runner = {
  name: 'vitest',

  async detect(root) {
    try {
      const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as PackageJson;
      const test = pkg.scripts?.test;
      // The test script names another runner: that is the project's (vitest may be there for something else).
      if (typeof test === 'string' && !/\bvitest\b/.test(test) && /\bnode\b[^|&;]*\s--test\b|\bjest\b/.test(test)) return false;
      if (pkg.dependencies?.vitest || pkg.devDependencies?.vitest || (typeof test === 'string' && /\bvitest\b/.test(test))) return true;
    } catch {
      // no package.json, or not JSON: the config files may still tell
    }
    for (const config of CONFIGS) if (await exists(join(root, config))) return true;
    return false;
  },

  async missing(root) {
    return (await exists(join(root, 'node_modules', 'vitest', 'vitest.mjs'))) ? undefined : NOT_INSTALLED;
  },

  owns: (path) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(path.slice(path.lastIndexOf('/') + 1)),

  files: () => ({ [REPORTER]: REPORTER_SOURCE }),

  discover: ({ root, paths, exchange }) => invocation(root, exchange, [`--testNamePattern=${MATCH_NOTHING}`], paths),

  // The workspace's own pool stays (Vitest's default is forks): threads were 0.2 s faster here but
  // break tests that chdir or load native addons.
  run: ({ root, paths, tests, exchange, timeoutMs }) => {
    const pattern = exactNamesPattern(tests);
    const files = tests ? [...new Set(tests.map((t) => t.path))] : paths;
    return invocation(root, exchange, [`--testTimeout=${timeoutMs}`, ...pattern], files);
  },

  async read({ root, exchange, end, tests: asked }) {
    const events = reportLines((await readReport(exchange, REPORT)) ?? '', Event);
    // The reporter starts after Vitest read its config: without its first line, Vitest failed before any test.
    if (events[0]?.kind !== 'start') throw didNotReport('Vitest', end);
    const wanted = asked && new Set(asked.map((t) => t.id));
    const tests: TestOutcome[] = [];
    const errors: FileError[] = [];
    for (const event of events) {
      if (event.kind === 'end') {
        for (const error of event.errors) {
          const at = where(error, root, '');
          errors.push({ path: at?.path ?? '.', message: `Unhandled error: ${describeError(error)}`, ...(at && { line: at.line }) });
        }
      }
      if (event.kind !== 'module') continue;
      const path = relativeTo(root, event.file);
      if (path === undefined) continue;
      const blockers = new Set<string>();
      for (const test of event.tests) {
        const id = testId(path, test.suite, test.name);
        // Tests the name pattern left out did not run: they are not the ones asked for.
        if (wanted && !wanted.has(id)) continue;
        const error = test.errors[0] ?? test.blocker;
        if (test.blocker) blockers.add(test.blocker.message);
        const failed = test.state === 'failed' || (test.state === 'skipped' && !!test.blocker);
        const at = failed && error ? where(error, root, path) : undefined;
        tests.push({
          id,
          name: test.name,
          suite: test.suite,
          path,
          ...(test.line !== undefined && { line: test.line }),
          runner: 'vitest',
          status: test.mode === 'todo' ? 'todo' : failed ? 'failed' : test.state === 'passed' ? 'passed' : 'skipped',
          ...(test.durationMs !== undefined && { durationMs: Math.round(test.durationMs) }),
          ...(failed && {
            failure: {
              message: error ? describeError(error) : 'failed',
              ...(error?.expected !== undefined && error.actual !== undefined && { expected: error.expected, actual: error.actual }),
              ...at,
            },
          }),
        });
      }
      // A failed beforeAll is told with each test it stopped; other file errors (a load error, an afterAll) on their own.
      for (const error of event.errors) if (!blockers.has(error.message)) errors.push(fileError(error, root, path));
    }
    return { tests, errors };
  },
};

export default vitest;
