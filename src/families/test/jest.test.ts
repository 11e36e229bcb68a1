import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jest from './jest.js';
import type { Exchange, ProcessEnd, RunnerReport } from './runner.js';
import { caseOf, casesIn, runnerIn } from './runner-test-kit.js';

// CommonJS: Jest 30 runs ES modules only under node --experimental-vm-modules, which OpenSpace does not add.
const CALC = [
  "const { writeFileSync } = require('node:fs');", // 1
  "const { join } = require('node:path');",
  '',
  'const add = (a, b) => a + b;',
  "beforeAll(() => writeFileSync(join(__dirname, '..', 'hook-ran'), ''));", // 5
  '',
  "test('adds', () => {", // 7
  '  expect(add(1, 2)).toBe(3);',
  '});',
  '',
  "test('fails', () => {", // 11
  '  expect(add(1, 1)).toBe(3);', // 12
  '});',
  '',
  "test.skip('skipped', () => {", // 15
  "  throw new Error('never runs');",
  '});',
  '',
  "test.todo('later');", // 19
  '',
  "test.each([1, 2])('doubles %i', (n) => {", // 21
  '  expect(add(n, n)).toBe(2 * n);',
  '});',
  '',
  "describe('group', () => {",
  "  it('inside', () => {", // 26
  '    expect({ a: 1 }).toEqual({ a: 1 });',
  '  });',
  '});',
  '',
  "describe('GROUP', () => {",
  "  it('INSIDE', () => {", // 32
  "    expect({ a: 1 }).toEqual({ a: 'one' });",
  '  });',
  '});',
  '',
];

const BROKEN = ["test('broken', () => {", '  const x = ;', '});', ''];

const test = casesIn('test/calc.test.js', 'jest');

const TESTS = [
  test('adds', 7),
  test('fails', 11),
  test('skipped', 15),
  test('later', 19),
  test('doubles 1', 21),
  test('doubles 2', 21),
  test('inside', 26, ['group']),
  test('INSIDE', 32, ['GROUP']),
];
const INSIDE = TESTS[6]!;

const NODE_MODULES = resolve(import.meta.dirname, '../../../node_modules');

function fixture(): string {
  const root = mkdtempSync('/var/tmp/jest-fixture-');
  symlinkSync(NODE_MODULES, join(root, 'node_modules'));
  // The project's global setup leaves a mark: discovery must not run it.
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ devDependencies: { jest: '^30.5.2' }, jest: { globalSetup: '<rootDir>/setup.js' } }),
  );
  writeFileSync(join(root, 'setup.js'), "module.exports = () => require('node:fs').writeFileSync(__dirname + '/setup-ran', '');\n");
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'test', 'calc.test.js'), CALC.join('\n'));
  writeFileSync(join(root, 'test', 'broken.test.js'), BROKEN.join('\n'));
  return root;
}

/** A fresh exchange directory with the runner's files, outside the workspace as OpenSpace makes it. */
function exchange(): Exchange {
  const dir = mkdtempSync(join(tmpdir(), 'jest-exchange-'));
  for (const [name, text] of Object.entries(jest.files())) writeFileSync(join(dir, name), text);
  return { inside: dir, host: dir };
}

describe('jest on a fixture workspace', () => {
  const root = fixture();
  let discovered: RunnerReport;
  let ranSomething: string[];
  let ran: RunnerReport;
  let one: RunnerReport;

  beforeAll(async () => {
    expect(await jest.missing(root)).toBeUndefined();
    const run = runnerIn(jest, root);
    discovered = await run((where) => jest.discover({ root, paths: [], exchange: where }));
    ranSomething = ['hook-ran', 'setup-ran'].filter((mark) => existsSync(join(root, mark)));
    [ran, one] = await Promise.all([
      run((where) => jest.run({ root, paths: ['test'], exchange: where, timeoutMs: 10_000 })),
      run((where) => jest.run({ root, paths: [], tests: [INSIDE], exchange: where, timeoutMs: 10_000 }), [INSIDE]),
    ]);
  }, 60_000);

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('discovers every test with its suite and declaration line, skipped, todo and each case of test.each too', () => {
    expect(discovered.tests.map(caseOf)).toEqual(TESTS);
    // Nothing ran: the failing test did not fail, and neither a hook nor the global setup left its mark.
    expect(discovered.tests.map((t) => t.status)).toEqual(TESTS.map(() => 'skipped'));
    expect(ranSomething).toEqual([]);
  });

  it('reports the file that does not compile, with its path and line', () => {
    const broken = { path: 'test/broken.test.js', line: 2, message: 'SyntaxError: Unexpected token (2:12)' };
    expect(discovered.errors).toEqual([broken]);
    expect(ran.errors).toEqual([broken]);
  });

  it('runs every test of the other file and tells each status', () => {
    expect(Object.fromEntries(ran.tests.map((t) => [t.id, t.status]))).toEqual({
      'test/calc.test.js::adds': 'passed',
      'test/calc.test.js::fails': 'failed',
      'test/calc.test.js::skipped': 'skipped',
      'test/calc.test.js::later': 'todo',
      'test/calc.test.js::doubles 1': 'passed',
      'test/calc.test.js::doubles 2': 'passed',
      'test/calc.test.js::group::inside': 'passed',
      'test/calc.test.js::GROUP::INSIDE': 'failed',
    });
    expect(ran.tests.map(caseOf)).toEqual(TESTS);
    expect(ran.tests.find((t) => t.name === 'adds')?.durationMs).toEqual(expect.any(Number));
  });

  it('tells what the failing expect said, its values as Jest prints them, and its line', () => {
    expect(ran.tests.find((t) => t.name === 'fails')?.failure).toEqual({
      message: 'expect(received).toBe(expected) // Object.is equality\n\nExpected: 3\nReceived: 2',
      expected: '3',
      actual: '2',
      path: 'test/calc.test.js',
      line: 12,
    });
    expect(ran.tests.find((t) => t.name === 'INSIDE')?.failure).toMatchObject({
      message: expect.stringContaining('expect(received).toEqual(expected) // deep equality'),
      expected: '{"a": "one"}',
      actual: '{"a": 1}',
      path: 'test/calc.test.js',
      line: 33,
    });
  });

  it('runs exactly the test asked for, by its suite and name: not another whose names differ in case only', () => {
    expect(one.tests.map((t) => [t.id, t.status])).toEqual([['test/calc.test.js::group::inside', 'passed']]);
    expect(one.errors).toEqual([]);
  });
});

describe('jest without running it', () => {
  const root = mkdtempSync('/var/tmp/jest-fixture-');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('says it is not installed in a workspace without node_modules/jest', async () => {
    expect(await jest.missing(root)).toBe('Jest is not installed in the workspace (no node_modules/jest): run npm install');
  });

  it('tells a Jest workspace by its package.json or its config file', async () => {
    expect(await jest.detect(root)).toBe(false);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ devDependencies: { vitest: '^4.1.12' } }));
    expect(await jest.detect(root)).toBe(false);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ devDependencies: { jest: '^30.5.2' } }));
    expect(await jest.detect(root)).toBe(true);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { jest: '^29.7.0' } }));
    expect(await jest.detect(root)).toBe(true);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ jest: { testEnvironment: 'node' } }));
    expect(await jest.detect(root)).toBe(true);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'jest --coverage' } }));
    expect(await jest.detect(root)).toBe(true);
    // Its test script runs Vitest: Jest is there for something else.
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' }, devDependencies: { jest: '^30.5.2' } }));
    expect(await jest.detect(root)).toBe(false);
    writeFileSync(join(root, 'package.json'), '{ not json');
    expect(await jest.detect(root)).toBe(false);
    writeFileSync(join(root, 'jest.config.cjs'), 'module.exports = {};');
    expect(await jest.detect(root)).toBe(true);
  });

  it('runs ES module tests under --experimental-vm-modules when the test script does', async () => {
    const where = { inside: '/x', host: '/x' };
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ scripts: { test: 'NODE_OPTIONS=--experimental-vm-modules jest' }, devDependencies: { jest: '^30.5.2' } }),
    );
    expect(await jest.detect(root)).toBe(true);
    expect(jest.discover({ root, paths: [], exchange: where }).argv.slice(0, 3)).toEqual([
      process.execPath,
      '--experimental-vm-modules',
      join(root, 'node_modules/jest/bin/jest.js'),
    ]);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'jest' } }));
    expect(await jest.detect(root)).toBe(true);
    expect(jest.discover({ root, paths: [], exchange: where }).argv[1]).toBe(join(root, 'node_modules/jest/bin/jest.js'));
  });

  it("owns *.test.* and *.spec.* scripts and those under __tests__, as Jest's default testMatch", () => {
    const paths = [
      'a.test.js',
      'src/b.spec.tsx',
      'c.test.mjs',
      'src/__tests__/d.js',
      'test/helper.js',
      'e.test.py',
      'f.test.js.snap',
      'latest.ts',
    ];
    expect(paths.map(jest.owns)).toEqual([true, true, true, true, false, false, false, false]);
  });

  it('runs chosen tests by their suites and names joined by a space, exactly, in their files only', () => {
    const where = { inside: '/x', host: '/x' };
    const tests = [test('doubles (2)', 21), INSIDE];
    const { argv } = jest.run({ root, paths: ['other'], tests, exchange: where, timeoutMs: 5000 });
    expect(argv).toContain('--testNamePattern=^(?:doubles \\(2\\)|group inside)$');
    expect(argv).toContain('--testTimeout=5000');
    expect(argv).toContain('--reporters=/x/jest-reporter.cjs');
    expect(argv).toContain('--cacheDirectory=/x/jest-cache');
    expect(argv.slice(-2)).toEqual(['--runTestsByPath', join(root, 'test/calc.test.js')]);
  });

  it('discovers with no test, no global setup or teardown, and a directory as a pattern of its path', () => {
    const where = { inside: '/x', host: '/x' };
    const { argv } = jest.discover({ root, paths: ['src/a+b'], exchange: where });
    expect(argv).toEqual(
      expect.arrayContaining([
        '--testNamePattern=(?!)',
        '--globalSetup=/x/jest-no-global-hook.cjs',
        '--globalTeardown=/x/jest-no-global-hook.cjs',
        '--testLocationInResults',
      ]),
    );
    expect(argv.at(-1)).toBe(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/src/a\\+b(?:/|$)`);
    expect(argv).not.toContain('--runTestsByPath');
  });

  it('throws with what Jest said when its reporter never started, and skips lines that are not its events', async () => {
    const where = exchange();
    try {
      const end: ProcessEnd = {
        code: 1,
        signal: null,
        stdout: '',
        stderr: '● Validation Error:\n\n  Module ./nope.js in the globalSetup option was not found.\n',
      };
      await expect(jest.read({ root, exchange: where, end })).rejects.toThrow(
        'Jest did not report: ● Validation Error:\n\n  Module ./nope.js in the globalSetup option was not found.',
      );
      const lines = [
        '{"kind":"start"}',
        'not json',
        '{"kind":"file","file":"/elsewhere/a.test.js","tests":[]}',
        `{"kind":"file","file":"${root}/a.test.js","tests":[{"name":"x","suite":[],"status":"pending","line":2},{"name":"z","suite":[],"status":"disabled"}]}`,
        `{"kind":"file","file":"${root}/b.test.js","tests":[{"name":"y","suite":["s"],"status":"passed","line":3,"durationMs":1.4}]}`,
        '{"kind":"end"}',
      ];
      writeFileSync(join(where.host, 'jest-report.jsonl'), lines.join('\n'));
      expect(await jest.read({ root, exchange: where, end: { ...end, code: 0 } })).toEqual({
        tests: [
          { id: 'a.test.js::x', name: 'x', suite: [], path: 'a.test.js', line: 2, runner: 'jest', status: 'skipped' },
          { id: 'a.test.js::z', name: 'z', suite: [], path: 'a.test.js', runner: 'jest', status: 'skipped' },
          { id: 'b.test.js::s::y', name: 'y', suite: ['s'], path: 'b.test.js', line: 3, runner: 'jest', status: 'passed', durationMs: 1 },
        ],
        errors: [],
      });
    } finally {
      rmSync(where.host, { recursive: true, force: true });
    }
  });
});
