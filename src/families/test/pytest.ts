/**
 * pytest as a test runner. A plugin of ours (loaded with `-p`) appends what pytest collects and runs
 * to a JSON-lines file in the exchange directory, a line per event, so a killed run still leaves
 * what it did. Test IDs are pytest's node IDs.
 */
import { execFile } from 'node:child_process';
import { access, constants, readdir, readFile } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import {
  readReport,
  relativeTo,
  type Exchange,
  type FileError,
  type Invocation,
  type Runner,
  type TestCase,
  type TestOutcome,
} from './runner.js';

const PLUGIN = 'openspace_pytest';
const REPORT = 'openspace-pytest.jsonl';

const PLUGIN_SOURCE = String.raw`"""OpenSpace's pytest plugin: appends what pytest collects and runs to a JSON-lines file."""
import json
import os
import traceback

_ROOT = os.getcwd()
_exchange = os.environ.get("OPENSPACE_TEST_EXCHANGE")
# Opened (and emptied) on import, before conftest files load: a run that fails early leaves no stale
# report. xdist workers stay quiet; their controller reports.
_out = open(os.path.join(_exchange, "${REPORT}"), "w", encoding="utf-8") if _exchange and not os.environ.get("PYTEST_XDIST_WORKER") else None
_current = None
_compared = {}
_tests = {}
_collect_errors = {}


def _emit(event):
    if _out is not None and not _out.closed:
        _out.write(json.dumps(event) + "\n")
        _out.flush()


def _first_lines(text, count=10):
    return "\n".join(str(text).splitlines()[:count])[:4000]


def _repr(value):
    try:
        text = repr(value)
    except Exception:
        return "<unrepresentable>"
    return text if len(text) <= 2000 else text[:2000] + "..."


def _in_workspace(path):
    rel = os.path.relpath(os.path.normpath(os.path.join(_ROOT, str(path))), _ROOT)
    return None if rel.startswith("..") or "site-packages" in rel else rel.replace(os.sep, "/")


def _where(longrepr):
    # Where the error was raised if that is in the workspace, else the deepest workspace frame.
    entries = getattr(getattr(longrepr, "reprtraceback", None), "reprentries", None) or []
    places = [getattr(longrepr, "reprcrash", None)] + [getattr(e, "reprfileloc", None) for e in reversed(entries)]
    for place in places:
        path = place is not None and getattr(place, "path", None) and _in_workspace(place.path)
        if path:
            return {"path": path, "line": place.lineno}
    return {}


def _failure(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    lines = report.longreprtext.splitlines()
    # No crash (a missing fixture): pytest's "E" lines say what went wrong.
    message = crash.message if crash is not None else "\n".join(l[1:].strip() for l in lines if l.startswith("E ")) or "\n".join(lines[-10:])
    failure = {"message": _first_lines(message), **_where(report.longrepr)}
    compared = _compared.get(report.nodeid)
    if compared and message.startswith(("assert", "AssertionError")):
        failure["actual"], failure["expected"] = compared
    return failure


def pytest_configure(config):
    _emit({"kind": "start", "collectOnly": bool(config.option.collectonly)})


def pytest_collection_finish(session):
    _emit({"kind": "collected", "items": [{"nodeid": i.nodeid, "file": i.location[0], "line0": i.location[1]} for i in session.items]})


def pytest_exception_interact(node, call, report):
    if getattr(report, "when", None) != "collect" or call.excinfo is None:
        return
    error = call.excinfo.value.__cause__ or call.excinfo.value
    file, line = str(getattr(node, "path", "")), None
    if isinstance(error, SyntaxError) and error.filename == file:
        line = error.lineno
    else:
        for frame, lineno in traceback.walk_tb(error.__traceback__):
            if frame.f_code.co_filename == file:
                line = lineno
    message = "".join(traceback.format_exception_only(type(error), error)).strip()
    _collect_errors[report.nodeid] = (message, line)


def pytest_collectreport(report):
    if report.failed:
        tail = "\n".join(report.longreprtext.splitlines()[-10:])
        message, line = _collect_errors.pop(report.nodeid, (tail, None))
        _emit({"kind": "error", "path": report.nodeid.split("::")[0], "message": _first_lines(message, 20), "line": line})


def pytest_runtest_logstart(nodeid, location):
    global _current
    _current = nodeid
    _compared.pop(nodeid, None)


def pytest_assertrepr_compare(config, op, left, right):
    # Only '==' names an expected value; the last failing one is the assertion that ended the test.
    if op == "==" and _current is not None:
        _compared[_current] = (_repr(left), _repr(right))


def pytest_runtest_logreport(report):
    test = _tests.setdefault(report.nodeid, {"status": "passed", "durationMs": 0.0})
    test["durationMs"] = round(test["durationMs"] + report.duration * 1000, 3)
    test["file"], test["line0"] = report.location[0], report.location[1]
    if report.failed and test["status"] != "failed":
        test["status"], test["failure"] = "failed", _failure(report)
    elif report.skipped and test["status"] == "passed":
        test["status"] = "skipped"


def pytest_runtest_logfinish(nodeid, location):
    test = _tests.pop(nodeid, None)
    if test is not None:
        _emit({"kind": "test", "nodeid": nodeid, **test})


def pytest_sessionfinish(session, exitstatus):
    _emit({"kind": "end", "exitstatus": int(exitstatus)})


def pytest_unconfigure(config):
    if _out is not None:
        _out.close()
`;

const FLAGS = ['-m', 'pytest', '-p', 'no:cacheprovider', '-p', PLUGIN, '--rootdir=.', '-q', '--color=no'];
const NOT_INSTALLED = 'pytest is not installed: apt-get install python3-pytest or pip install pytest';

/** The Python with pytest, by root and PATH (pyenv picks a Python by directory). Only found ones stay: installing pytest later needs no restart. */
const resolving = new Map<string, Promise<string | undefined>>();
const resolved = new Map<string, string>();
const interpreterKey = (root: string): string => `${root}\0${process.env.PATH ?? ''}`;

function probe(python: string, root: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import sys, pytest; print(sys.executable)'], { cwd: root, timeout: 20_000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || python),
    );
  });
}

async function findInterpreter(root: string): Promise<string | undefined> {
  // Absolute PATH entries only: a relative one would run the workspace's own `python3`.
  const onPath = (process.env.PATH ?? '').split(delimiter).filter((dir) => isAbsolute(dir));
  for (const python of new Set([...onPath.map((dir) => join(dir, 'python3')), '/usr/bin/python3'])) {
    const runnable = await access(python, constants.X_OK).then(
      () => true,
      () => false,
    );
    // sys.executable, not a pyenv shim: no shell script in between, and the same Python in the sandbox.
    const found = runnable ? await probe(python, root) : undefined;
    if (found) return found;
  }
  return undefined;
}

function interpreter(root: string): Promise<string | undefined> {
  const key = interpreterKey(root);
  let found = resolving.get(key);
  if (!found) {
    found = findInterpreter(root).then((python) => {
      if (python) resolved.set(key, python);
      else resolving.delete(key);
      return python;
    });
    resolving.set(key, found);
  }
  return found;
}

const CONFIGS: [file: string, section?: RegExp][] = [
  ['pytest.ini'],
  ['conftest.py'],
  ['pyproject.toml', /^\[tool\.pytest/m],
  ['setup.cfg', /^\[tool:pytest\]/m],
  ['tox.ini', /^\[pytest\]/m],
];

async function usesPytest(root: string): Promise<boolean> {
  for (const [file, section] of CONFIGS) {
    const text = await readFile(join(root, file), 'utf8').catch(() => undefined);
    if (text !== undefined && (!section || section.test(text))) return true;
  }
  for (const dir of ['.', 'tests', 'test']) {
    const names = await readdir(join(root, dir)).catch(() => [] as string[]);
    if (names.some((name) => pytest.owns(name))) return true;
  }
  return false;
}

function invocation(root: string, exchange: Exchange, args: string[]): Invocation {
  return {
    argv: [resolved.get(interpreterKey(root)) ?? 'python3', ...FLAGS, ...args],
    // No bytecode: pytest would write __pycache__ into the workspace for every test file.
    env: {
      PYTHONPATH: [exchange.inside, process.env.PYTHONPATH].filter(Boolean).join(delimiter),
      PYTHONDONTWRITEBYTECODE: '1',
      OPENSPACE_TEST_EXCHANGE: exchange.inside,
    },
  };
}

const workspacePath = z.string().refine((path) => path !== '' && !isAbsolute(path) && !path.split('/').includes('..'));
const location = { nodeid: z.string(), file: z.string().nullish(), line0: z.number().int().nonnegative().nullish() };
const event = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start'), collectOnly: z.boolean() }),
  z.object({ kind: z.literal('collected'), items: z.array(z.object(location)) }),
  z.object({
    kind: z.literal('test'),
    ...location,
    status: z.enum(['passed', 'failed', 'skipped']),
    durationMs: z.number().nonnegative(),
    failure: z
      .object({
        message: z.string(),
        expected: z.string().optional(),
        actual: z.string().optional(),
        path: workspacePath.optional(),
        line: z.number().int().positive().optional(),
      })
      .optional(),
  }),
  z.object({ kind: z.literal('error'), path: z.string(), message: z.string(), line: z.number().int().positive().nullish() }),
  z.object({ kind: z.literal('end'), exitstatus: z.number() }),
]);

/** A test of a node ID: `path::Class::name[params]` (params may hold `::`, so they are split off first). */
function testCase({ nodeid, file, line0 }: z.infer<z.ZodObject<typeof location>>): TestCase | undefined {
  const bracket = nodeid.indexOf('[');
  const parts = (bracket < 0 ? nodeid : nodeid.slice(0, bracket)).split('::');
  const path = parts[0]!;
  if (parts.length < 2 || !workspacePath.safeParse(path).success) return undefined;
  const name = parts.pop()! + (bracket < 0 ? '' : nodeid.slice(bracket));
  // A test inherited from a class in another file is declared there: its line would mislead.
  const line = file === path && typeof line0 === 'number' ? line0 + 1 : undefined;
  return { id: nodeid, name, suite: parts.slice(1), path, line, runner: 'pytest' };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** pytest runs nothing when an asked-for node ID or file is missing, and says so on stderr. */
function notFound(output: string, root: string, tests: TestCase[] = []): FileError[] {
  return [...output.matchAll(/^ERROR: (?:file or directory )?not found: (\S+)/gm)].map(([, arg]) => {
    const test = tests.find((t) => arg === t.id || arg!.endsWith(`/${t.id}`));
    const file = arg!.split('::')[0]!;
    return { path: test?.path ?? relativeTo(root, file) ?? file, message: `not found: ${test?.id ?? arg}` };
  });
}

export const pytest: Runner = {
  name: 'pytest',

  async detect(root) {
    const uses = await usesPytest(root);
    // Found now so that discover() and run(), which cannot wait, have it.
    if (uses) void interpreter(root);
    return uses;
  },

  async missing(root) {
    return (await interpreter(root)) ? undefined : NOT_INSTALLED;
  },

  owns: (path) => /^test_.*\.py$|_test\.py$/.test(path.slice(path.lastIndexOf('/') + 1)),

  files: () => ({ [`${PLUGIN}.py`]: PLUGIN_SOURCE }),

  discover: ({ root, paths, exchange }) => invocation(root, exchange, ['--collect-only', '--', ...paths]),

  // No per-test timeout: pytest has none of its own (pytest-timeout may be absent); the caller kills the run.
  run: ({ root, paths, tests, exchange }) =>
    invocation(root, exchange, [
      // Else one file with a syntax error stops every other file's tests.
      '--continue-on-collection-errors',
      '--',
      ...(tests?.length ? new Set(tests.map((test) => test.id)) : paths),
    ]),

  async read({ root, exchange, end, tests: asked }) {
    const output = `${end.stdout}\n${end.stderr}`.trim();
    const errors = notFound(output, root, asked);
    const text = await readReport(exchange, REPORT);
    let collectOnly: boolean | undefined;
    const collected: TestCase[] = [];
    const tests: TestOutcome[] = [];
    for (const line of text?.split('\n') ?? []) {
      const parsed = event.safeParse(parseJson(line));
      if (!parsed.success) continue;
      const e = parsed.data;
      if (e.kind === 'start') collectOnly = e.collectOnly;
      else if (e.kind === 'collected') collected.push(...e.items.flatMap((item) => testCase(item) ?? []));
      else if (e.kind === 'error') errors.push({ path: e.path || '.', message: e.message, line: e.line ?? undefined });
      else if (e.kind === 'test') {
        const test = testCase(e);
        if (test) tests.push({ ...test, status: e.status, durationMs: e.durationMs, failure: e.failure });
      }
    }
    // The plugin is imported before pytest reads its arguments and config: no start, no report.
    if (collectOnly === undefined) {
      if ((end.code === 4 && /not found/.test(output)) || end.code === 5) return { tests: [], errors };
      throw new Error(`pytest did not report: ${output.split('\n').slice(-20).join('\n')}`);
    }
    // Discovery runs nothing: its tests are reported as not run.
    if (collectOnly) return { tests: collected.map((test) => ({ ...test, status: 'skipped' as const })), errors };
    return { tests, errors };
  },
};

export default pytest;
