import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange, ProcessEnd, RunnerReport } from './runner.js';
import { caseOf, casesIn, runnerIn } from './runner-test-kit.js';
import vitest from './vitest.js';

const CALC = [
  "import { describe, expect, it, test } from 'vitest';", // 1
  '',
  'const add = (a: number, b: number): number => a + b;',
  '',
  "test('adds', () => {", // 5
  '  expect(add(1, 2)).toBe(3);',
  '});',
  '',
  "test('fails', () => {", // 9
  '  expect(add(1, 1)).toBe(3);', // 10
  '});',
  '',
  "test.skip('skipped', () => {", // 13
  "  throw new Error('never runs');",
  '});',
  '',
  "test.todo('later');", // 17
  '',
  "test.each([1, 2])('doubles %i', (n) => {", // 19
  '  expect(add(n, n)).toBe(2 * n);',
  '});',
  '',
  "describe('group', () => {",
  "  it('inside', () => {", // 24
  '    expect(true).toBe(true);',
  '  });',
  '});',
  '',
];

const BROKEN = ["import { test } from 'vitest';", '', "test('broken', () => {", '  const x = ;', '});', ''];

const test = casesIn('test/calc.test.ts', 'vitest');

const TESTS = [
  test('adds', 5),
  test('fails', 9),
  test('skipped', 13),
  test('later', 17),
  test('doubles 1', 19),
  test('doubles 2', 19),
  test('inside', 24, ['group']),
];
const INSIDE = TESTS[6]!;

const NODE_MODULES = resolve(import.meta.dirname, '../../../node_modules');

function fixture(): string {
  const root = mkdtempSync('/var/tmp/vitest-fixture-');
  symlinkSync(NODE_MODULES, join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module', devDependencies: { vitest: '^4.1.12' } }));
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'test', 'calc.test.ts'), CALC.join('\n'));
  writeFileSync(join(root, 'test', 'broken.test.ts'), BROKEN.join('\n'));
  return root;
}

/** A fresh exchange directory with the runner's reporter, outside the workspace as OpenSpace makes it. */
function exchange(): Exchange {
  const dir = mkdtempSync(join(tmpdir(), 'vitest-exchange-'));
  for (const [name, text] of Object.entries(vitest.files())) writeFileSync(join(dir, name), text);
  return { inside: dir, host: dir };
}

describe('vitest on a fixture workspace', () => {
  const root = fixture();
  let discovered: RunnerReport;
  let ran: RunnerReport;
  let one: RunnerReport;

  beforeAll(async () => {
    expect(await vitest.missing(root)).toBeUndefined();
    const run = runnerIn(vitest, root);
    [discovered, ran, one] = await Promise.all([
      run((where) => vitest.discover({ root, paths: [], exchange: where })),
      run((where) => vitest.run({ root, paths: [], exchange: where, timeoutMs: 10_000 })),
      run((where) => vitest.run({ root, paths: [], tests: [INSIDE], exchange: where, timeoutMs: 10_000 }), [INSIDE]),
    ]);
  }, 30_000);

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('discovers every test with its suite and declaration line, skipped, todo and each case of test.each too', () => {
    expect(discovered.tests.map(caseOf)).toEqual(TESTS);
    // Nothing ran: the failing test did not fail.
    expect(discovered.tests.map((t) => t.status)).toEqual(TESTS.map(() => 'skipped'));
  });

  it('reports the file that does not compile, with its path and line', () => {
    const broken = { path: 'test/broken.test.ts', line: 4, message: expect.stringContaining('Unexpected token') };
    expect(discovered.errors).toEqual([broken]);
    expect(ran.errors).toEqual([broken]);
  });

  it('runs every test of the other file and tells each status', () => {
    expect(Object.fromEntries(ran.tests.map((t) => [t.name, t.status]))).toEqual({
      adds: 'passed',
      fails: 'failed',
      skipped: 'skipped',
      later: 'todo',
      'doubles 1': 'passed',
      'doubles 2': 'passed',
      inside: 'passed',
    });
    expect(ran.tests.map(caseOf)).toEqual(TESTS);
    expect(ran.tests.find((t) => t.name === 'adds')?.durationMs).toEqual(expect.any(Number));
  });

  it('tells what the failing expect said, its values and its line', () => {
    expect(ran.tests.find((t) => t.name === 'fails')?.failure).toEqual({
      message: 'expected 2 to be 3 // Object.is equality',
      expected: '3',
      actual: '2',
      path: 'test/calc.test.ts',
      line: 10,
    });
  });

  it('runs exactly the test asked for, by its suite and name', () => {
    expect(one.tests.map((t) => [t.id, t.status])).toEqual([['test/calc.test.ts::group::inside', 'passed']]);
    expect(one.errors).toEqual([]);
  });
});

describe('vitest without running it', () => {
  const root = mkdtempSync('/var/tmp/vitest-fixture-');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('says it is not installed in a workspace without node_modules/vitest', async () => {
    expect(await vitest.missing(root)).toBe('Vitest is not installed in the workspace (no node_modules/vitest): run npm install');
  });

  it('tells a Vitest workspace by its package.json or its config file', async () => {
    expect(await vitest.detect(root)).toBe(false);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'jest' }, devDependencies: { jest: '30' } }));
    expect(await vitest.detect(root)).toBe(false);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    expect(await vitest.detect(root)).toBe(true);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ devDependencies: { vitest: '^4.1.12' } }));
    expect(await vitest.detect(root)).toBe(true);
    // Its test script runs node --test: Vitest is there for something else.
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' }, devDependencies: { vitest: '^4.1.12' } }));
    expect(await vitest.detect(root)).toBe(false);
    writeFileSync(join(root, 'package.json'), '{ not json');
    expect(await vitest.detect(root)).toBe(false);
    writeFileSync(join(root, 'vitest.config.mts'), 'export default {};');
    expect(await vitest.detect(root)).toBe(true);
  });

  it('owns *.test.* and *.spec.* JavaScript and TypeScript files', () => {
    const paths = ['a.test.ts', 'src/b.spec.tsx', 'c.test.mjs', 'd.spec.cts', 'test/helper.ts', 'e.test.py', 'f.test.ts.snap', 'latest.ts'];
    expect(paths.map(vitest.owns)).toEqual([true, true, true, true, false, false, false, false]);
  });

  it('runs chosen tests by their suites and names joined by a space, exactly, in their files only', () => {
    const where = { inside: '/x', host: '/x' };
    const tests = [test('doubles (2)', 19), INSIDE];
    const { argv } = vitest.run({ root, paths: ['other'], tests, exchange: where, timeoutMs: 5000 });
    expect(argv).toContain('--testNamePattern=^(?:doubles \\(2\\)|group inside)$');
    expect(argv).toContain('--testTimeout=5000');
    expect(argv.slice(-1)).toEqual(['test/calc.test.ts']);
  });

  it('throws with what Vitest said when its reporter never started, and skips lines that are not its events', async () => {
    const where = exchange();
    try {
      const end: ProcessEnd = { code: 1, signal: null, stdout: '', stderr: 'Error: Cannot find module vitest.config.ts\n' };
      await expect(vitest.read({ root, exchange: where, end })).rejects.toThrow(
        'Vitest did not report: Error: Cannot find module vitest.config.ts',
      );
      const lines = [
        '{"kind":"start"}',
        'not json',
        '{"kind":"module","file":"/elsewhere/a.test.ts","errors":[],"tests":[]}',
        `{"kind":"module","file":"${root}/a.test.ts","errors":[],"tests":[{"name":"x","suite":[],"mode":"run","state":"odd","errors":[]}]}`,
        `{"kind":"module","file":"${root}/b.test.ts","errors":[],"tests":[{"name":"y","suite":["s"],"line":3,"mode":"run","state":"passed","durationMs":1.4,"errors":[]}]}`,
      ];
      writeFileSync(join(where.host, 'vitest-report.jsonl'), lines.join('\n'));
      expect(await vitest.read({ root, exchange: where, end: { ...end, code: 0 } })).toEqual({
        tests: [
          { id: 'b.test.ts::s::y', name: 'y', suite: ['s'], path: 'b.test.ts', line: 3, runner: 'vitest', status: 'passed', durationMs: 1 },
        ],
        errors: [],
      });
    } finally {
      rmSync(where.host, { recursive: true, force: true });
    }
  });
});
