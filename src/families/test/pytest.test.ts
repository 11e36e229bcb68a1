import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pytest from './pytest.js';
import type { Exchange, ProcessEnd, RunnerReport } from './runner.js';
import { caseOf, casesIn, runnerIn } from './runner-test-kit.js';

const CALC = [
  'import pytest', // 1
  '',
  '',
  'def add(a, b):', // 4
  '    return a + b',
  '',
  '',
  'def test_passes():', // 8
  '    assert add(1, 2) == 3',
  '',
  '',
  'def test_fails():', // 12
  '    assert add(1, 1) == 3', // 13
  '',
  '',
  '@pytest.mark.skip(reason="not today")', // 16: a decorated test is declared from its first decorator
  'def test_skipped():',
  '    pass',
  '',
  '',
  '@pytest.mark.parametrize("n", [1, 2, 3])', // 21
  'def test_param(n):',
  '    assert n > 0',
  '',
  '',
  'class TestGroup:',
  '    def test_in_class(self):', // 27
  '        assert True',
  '',
];

const BROKEN = ['import os', '', 'def test_broken(:', '    pass', ''];

const test = casesIn('tests/test_calc.py', 'pytest');

const TESTS = [
  test('test_passes', 8),
  test('test_fails', 12),
  test('test_skipped', 16),
  test('test_param[1]', 21),
  test('test_param[2]', 21),
  test('test_param[3]', 21),
  test('test_in_class', 27, ['TestGroup']),
];

function fixture(): string {
  const root = mkdtempSync('/var/tmp/pytest-fixture-');
  mkdirSync(join(root, 'tests'));
  writeFileSync(join(root, 'tests', 'test_calc.py'), CALC.join('\n'));
  writeFileSync(join(root, 'tests', 'test_broken.py'), BROKEN.join('\n'));
  return root;
}

/** A fresh exchange directory with the runner's plugin, where OpenSpace would put it (a dot directory pytest does not collect). */
function exchange(root: string): Exchange {
  mkdirSync(join(root, '.openspace'), { recursive: true });
  const dir = mkdtempSync(join(root, '.openspace', 'exchange-'));
  for (const [name, text] of Object.entries(pytest.files())) writeFileSync(join(dir, name), text);
  return { inside: dir, host: dir };
}

const PATH = process.env.PATH ?? '';
const PYTHONS = [
  { python: 'the first python3 on PATH', PATH },
  { python: "Debian's /usr/bin/python3 (pytest 7.2)", PATH: `/usr/bin:${PATH}` },
];

describe.each(PYTHONS)('pytest with $python', ({ PATH }) => {
  const root = fixture();
  let discovered: RunnerReport;
  let ran: RunnerReport;
  let one: RunnerReport;

  beforeAll(async () => {
    const run = runnerIn(pytest, root, { PATH });
    // The interpreter is chosen by PATH: discover() and run() take the one missing() found.
    const previous = process.env.PATH;
    process.env.PATH = PATH;
    try {
      expect(await pytest.missing(root)).toBeUndefined();
      const only = [TESTS[4]!];
      [discovered, ran, one] = await Promise.all([
        run((where) => pytest.discover({ root, paths: [], exchange: where })),
        run((where) => pytest.run({ root, paths: [], exchange: where, timeoutMs: 10_000 })),
        run((where) => pytest.run({ root, paths: [], tests: only, exchange: where, timeoutMs: 10_000 }), only),
      ]);
    } finally {
      process.env.PATH = previous;
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('discovers every test with its suite and 1-based declaration line', () => {
    expect(discovered.tests.map(caseOf)).toEqual(TESTS);
  });

  it('reports the file that does not compile, with its line', () => {
    const broken = { path: 'tests/test_broken.py', line: 3, message: expect.stringContaining('SyntaxError') };
    expect(discovered.errors).toEqual([broken]);
    expect(ran.errors).toEqual([broken]);
  });

  it('runs every test of the other files despite the broken one', () => {
    expect(Object.fromEntries(ran.tests.map((t) => [t.id, t.status]))).toEqual({
      'tests/test_calc.py::test_passes': 'passed',
      'tests/test_calc.py::test_fails': 'failed',
      'tests/test_calc.py::test_skipped': 'skipped',
      'tests/test_calc.py::test_param[1]': 'passed',
      'tests/test_calc.py::test_param[2]': 'passed',
      'tests/test_calc.py::test_param[3]': 'passed',
      'tests/test_calc.py::TestGroup::test_in_class': 'passed',
    });
    expect(ran.tests.map(caseOf)).toEqual(TESTS);
    expect(ran.tests.every((t) => typeof t.durationMs === 'number')).toBe(true);
  });

  it('tells what the failing assertion said, its values and its line', () => {
    expect(ran.tests.find((t) => t.name === 'test_fails')?.failure).toEqual({
      message: 'assert 2 == 3\n +  where 2 = add(1, 1)',
      expected: '3',
      actual: '2',
      path: 'tests/test_calc.py',
      line: 13,
    });
  });

  it('runs exactly the test asked for by node ID', () => {
    expect(one.tests.map((t) => [t.id, t.status])).toEqual([['tests/test_calc.py::test_param[2]', 'passed']]);
    expect(one.errors).toEqual([]);
  });

  // Other plugins may leave theirs (pytest-benchmark makes .benchmarks).
  it('leaves no cache or bytecode of its own in the workspace', () => {
    expect(readdirSync(root)).not.toContain('.pytest_cache');
    expect(readdirSync(join(root, 'tests')).sort()).toEqual(['test_broken.py', 'test_calc.py']);
  });
});

describe('pytest without running it', () => {
  const root = mkdtempSync('/var/tmp/pytest-fixture-');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const end = (code: number, stderr = ''): ProcessEnd => ({ code, signal: null, stdout: '', stderr });

  it('tells a pytest workspace by its config or its test files', async () => {
    expect(await pytest.detect(root)).toBe(false);
    writeFileSync(join(root, 'pyproject.toml'), '[project]\nname = "x"\n');
    expect(await pytest.detect(root)).toBe(false);
    writeFileSync(join(root, 'pyproject.toml'), '[tool.pytest.ini_options]\naddopts = "-q"\n');
    expect(await pytest.detect(root)).toBe(true);
    rmSync(join(root, 'pyproject.toml'));
    mkdirSync(join(root, 'test'));
    writeFileSync(join(root, 'test', 'calc_test.py'), '');
    expect(await pytest.detect(root)).toBe(true);
  });

  it('owns test_*.py and *_test.py', () => {
    expect(['a/test_x.py', 'x_test.py', 'test_x.pyc', 'x.py', 'tests/helper.py'].map(pytest.owns)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('reads a missing node ID or no tests as nothing run, and anything else without a report as a crash', async () => {
    const where = { inside: root, host: root };
    const asked = [test('test_gone', 4)];
    const gone = end(4, `ERROR: not found: /elsewhere/tests/test_calc.py::test_gone\n(no match in any of [<Module test_calc.py>])\n`);
    expect(await pytest.read({ root, exchange: where, end: gone, tests: asked })).toEqual({
      tests: [],
      errors: [{ path: 'tests/test_calc.py', message: 'not found: tests/test_calc.py::test_gone' }],
    });
    expect(await pytest.read({ root, exchange: where, end: end(5) })).toEqual({ tests: [], errors: [] });
    await expect(pytest.read({ root, exchange: where, end: end(4, 'ImportError while loading conftest') })).rejects.toThrow(
      'pytest did not report: ImportError while loading conftest',
    );
    // The plugin was loaded, but pytest stopped at its arguments (`--lf` in addopts, without the cache plugin).
    const started = exchange(root);
    writeFileSync(join(started.host, 'openspace-pytest.jsonl'), '');
    await expect(pytest.read({ root, exchange: started, end: end(4, 'error: unrecognized arguments: --lf') })).rejects.toThrow(
      'pytest did not report: error: unrecognized arguments: --lf',
    );
  });

  it('skips report lines that are not its events', async () => {
    const where = exchange(root);
    const lines = [
      '{"kind": "start", "collectOnly": false}',
      'not json',
      '{"kind": "test", "nodeid": "../outside.py::test_x", "status": "passed", "durationMs": 1}',
      '{"kind": "test", "nodeid": "t_test.py::test_y", "file": "t_test.py", "line0": 0, "status": "odd", "durationMs": 1}',
      '{"kind": "test", "nodeid": "t_test.py::test_z", "file": "t_test.py", "line0": 4, "status": "passed", "durationMs": 2}',
    ];
    writeFileSync(join(where.host, 'openspace-pytest.jsonl'), lines.join('\n'));
    const report = await pytest.read({ root, exchange: where, end: end(0) });
    expect(report.tests).toEqual([
      { id: 't_test.py::test_z', name: 'test_z', suite: [], path: 't_test.py', line: 5, runner: 'pytest', status: 'passed', durationMs: 2 },
    ]);
  });
});
