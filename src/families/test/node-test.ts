/**
 * `node --test`, Node's own runner (Node 20 here): the workspace uses it when its test script runs
 * `node … --test`. Node 20 has no list mode: discovery runs the files with a name pattern that
 * matches nothing, which reports every test and suite with its line and runs no test body (module
 * top levels and describe callbacks still run, as in any runner's collection). Our reporter writes
 * one JSON line per event into the exchange directory.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { escapeRegExp, readReport, relativeTo, testId, workspaceFrame, type Runner, type TestOutcome, type FileError } from './runner.js';

const REPORT = 'node-report.ndjson';
const REPORTER = 'node-reporter.mjs';
/** A name pattern that matches no test: Node 20 then reports every test (skipped, "does not match pattern") without running it. */
const NEVER = '(?!)';

/** Runs inside the runner's process: one line per test start, end and stderr chunk. */
const REPORTER_SOURCE = `import { inspect } from 'node:util';
const show = (v) => (typeof v === 'string' ? v : inspect(v, { depth: 4, breakLength: 100 }));
export default async function* (source) {
  for await (const { type, data } of source) {
    if (type === 'test:stderr') { yield JSON.stringify({ type, file: data.file, text: String(data.message) }) + '\\n'; continue; }
    if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') continue;
    const error = data.details?.error;
    const cause = error?.cause ?? error;
    yield JSON.stringify({
      type, name: data.name, nesting: data.nesting, file: data.file, line: data.line,
      skip: data.skip, todo: data.todo, suite: data.details?.type === 'suite', durationMs: data.details?.duration_ms,
      error: error && {
        kind: error.failureType,
        message: String(cause?.message ?? cause),
        stack: typeof cause?.stack === 'string' ? cause.stack : undefined,
        ...(cause && typeof cause === 'object' && 'expected' in cause && 'actual' in cause ? { expected: show(cause.expected), actual: show(cause.actual) } : {}),
      },
    }) + '\\n';
  }
}
`;

const Event = z.discriminatedUnion('type', [
  z.object({ type: z.literal('test:stderr'), file: z.string().optional(), text: z.string() }),
  z.object({
    type: z.enum(['test:start', 'test:pass', 'test:fail']),
    name: z.string(),
    nesting: z.number().int().min(0).max(1000),
    file: z.string().optional(),
    line: z.number().int().optional(),
    skip: z.union([z.boolean(), z.string()]).optional(),
    todo: z.union([z.boolean(), z.string()]).optional(),
    suite: z.boolean(),
    durationMs: z.number().optional(),
    error: z
      .object({
        kind: z.string().optional(),
        message: z.string(),
        stack: z.string().optional(),
        expected: z.string().optional(),
        actual: z.string().optional(),
      })
      .optional(),
  }),
]);

interface PackageJson {
  scripts?: Record<string, string>;
}

async function testScript(root: string): Promise<string | undefined> {
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as PackageJson;
    const script = pkg.scripts?.test;
    return typeof script === 'string' && /\bnode\b[^|&;]*\s--test\b/.test(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

/** The loaders the test script gives node (`--import tsx`, `--loader ts-node/esm`, `-r x`): the same for our runs. */
function loaderFlags(script: string | undefined): string[] {
  const flags: string[] = [];
  for (const m of (script ?? '').matchAll(/(?:^|\s)(--import|--loader|--experimental-loader|--require|-r)(?:=|\s+)(\S+)/g))
    flags.push(`${m[1]}=${m[2]}`);
  return flags;
}

const flagsByRoot = new Map<string, string[]>();

export const nodeTest: Runner = {
  name: 'node',
  async detect(root) {
    const script = await testScript(root);
    flagsByRoot.set(root, loaderFlags(script));
    return script !== undefined;
  },
  async missing() {
    return undefined; // the runner is the Node that runs OpenSpace
  },
  owns(path) {
    const name = path.split('/').pop()!;
    if (!/\.[cm]?[jt]sx?$/.test(name)) return false;
    return /(^|[.\-_])test([.\-_]|$)/.test(name) || /(^|\/)test\//.test(path);
  },
  files: () => ({ [REPORTER]: REPORTER_SOURCE }),
  discover: ({ root, paths, exchange }) => ({
    argv: [
      process.execPath,
      ...(flagsByRoot.get(root) ?? []),
      '--test',
      `--test-name-pattern=${NEVER}`,
      ...reporter(exchange.inside),
      ...paths,
    ],
  }),
  run: ({ root, paths, tests, exchange, timeoutMs }) => {
    const files = tests ? [...new Set(tests.map((t) => t.path))] : paths;
    const names = tests ? [...new Set(tests.map((t) => `--test-name-pattern=^${escapeRegExp(t.name)}$`))] : [];
    return {
      argv: [
        process.execPath,
        ...(flagsByRoot.get(root) ?? []),
        '--test',
        `--test-timeout=${timeoutMs}`,
        ...names,
        ...reporter(exchange.inside),
        ...files,
      ],
    };
  },
  async read({ root, exchange, end, tests }) {
    const text = (await readReport(exchange, REPORT)) ?? '';
    // Node ran no test file and said why (a loader it could not find, a bad flag): not an empty run.
    if (text === '' && end.code !== 0) {
      const said = `${end.stdout}\n${end.stderr}`.trim().split('\n').slice(-20).join('\n');
      throw new Error(`node --test ended with ${end.code ?? end.signal} and reported no test${said ? `; it said:\n${said}` : ''}`);
    }
    const wanted = tests && new Set(tests.map((t) => t.id));
    const outcomes: TestOutcome[] = [];
    const errors: FileError[] = [];
    const stacks = new Map<string, string[]>();
    const stderr = new Map<string, string>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      let parsed;
      try {
        parsed = Event.safeParse(JSON.parse(line));
      } catch {
        continue;
      }
      if (!parsed.success) continue;
      const event = parsed.data;
      const file = event.file ?? '';
      if (event.type === 'test:stderr') {
        stderr.set(file, (stderr.get(file) ?? '') + event.text);
        continue;
      }
      const path = relativeTo(root, file);
      if (path === undefined) continue;
      const stack = (stacks.get(file) ?? []).slice(0, event.nesting);
      if (event.type === 'test:start') {
        stacks.set(file, [...stack, event.name]);
        continue;
      }
      // A file that failed to load reports as one test named after the file.
      if (event.name === file) {
        if (event.type === 'test:fail') errors.push(loadError(path, stderr.get(file), event.error?.message));
        continue;
      }
      if (event.suite) continue;
      const id = testId(path, stack, event.name);
      // A run of chosen tests reports the others as skipped by the name pattern: they did not run.
      if (wanted && !wanted.has(id)) continue;
      const outcome: TestOutcome = {
        id,
        name: event.name,
        suite: stack,
        path,
        ...(event.line !== undefined && { line: event.line }),
        runner: 'node',
        status: event.todo ? 'todo' : event.skip ? 'skipped' : event.type === 'test:fail' ? 'failed' : 'passed',
        ...(event.durationMs !== undefined && { durationMs: Math.round(event.durationMs) }),
      };
      if (event.type === 'test:fail' && event.error && !event.todo) {
        const at = workspaceFrame(event.error.stack, root, path);
        outcome.failure = {
          message: event.error.kind === 'testTimeoutFailure' ? `timed out: ${event.error.message}` : event.error.message,
          ...(event.error.expected !== undefined && { expected: event.error.expected, actual: event.error.actual }),
          ...(at ?? {}),
        };
      }
      outcomes.push(outcome);
    }
    return { tests: outcomes, errors };
  },
};

function reporter(inside: string): string[] {
  return [`--test-reporter=${join(inside, REPORTER)}`, `--test-reporter-destination=${join(inside, REPORT)}`];
}

/** A file that did not load: the error Node printed (`SyntaxError: …`), and the line its first line names. */
function loadError(path: string, stderr: string | undefined, fallback: string | undefined): FileError {
  const text = stderr ?? '';
  const message = text.split('\n').find((l) => /^\w*Error\b/.test(l)) ?? fallback ?? 'the file failed to load';
  const line = /^(?:file:\/\/)?\/[^\n]*?:(\d+)\n/.exec(text)?.[1];
  return { path, message: message.trim(), ...(line && { line: Number(line) }) };
}

export default nodeTest;
