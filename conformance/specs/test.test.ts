/**
 * Tests (issue 31): discovery with lines, runs of everything, one test by name, by line and by ID,
 * the failing assertion's message, expected, actual and file:line, a file that does not load, a
 * name that matches nothing, a run that times out and one cancelled (each saying what finished),
 * the last results, the agent's fix and a green run again, and a test trying to reach past the
 * sandbox. Fixture projects are written here into the workspace's copy, one per runner, with
 * expected results written by hand. (The in-memory workspace runs its tests in a copy on disk:
 * sim/demo-tests.test.ts.)
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { eventually, useTarget } from '../setup.js';

/** Outside /tmp, which the sandbox keeps private: a canary there would be unreachable for the wrong reason. */
const base = '/var/tmp/openspace-test-spec';
const home = join(base, 'home');
mkdirSync(join(home, '.ssh'), { recursive: true });
const ctx = useTarget({ workspaceParent: base, home });
const SECRET = 'openspace-test-canary-71c3a9';
process.env.OPENSPACE_TEST_CANARY_TOKEN = SECRET;

let dir: string;
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};

const MATH_TEST = `import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from '../src/math.mjs';

test('adds', () => {
  assert.equal(add(1, 2), 3);
});

describe('edge cases', () => {
  test('adds negatives', () => {
    assert.equal(add(-1, -2), -4);
  });
  test.skip('adds strings', () => {});
  test.todo('adds bigints');
});
for (const [a, b, sum] of [[1, 1, 2], [2, 3, 5]]) {
  test(\`adds \${a} and \${b}\`, () => assert.equal(add(a, b), sum));
}
`;

it('a workspace with no test runner: NO_TEST_RUNNER, naming the runners OpenSpace knows', async () => {
  if (ctx.target.workspaceDir) return; // the fixture as it is, before the tests below give it runners
  const failure = await ctx.agent.fails('openspace.test.discover', {}, 'NO_TEST_RUNNER');
  expect(failure.error).toContain('Vitest');
  expect(failure.error).toContain('Jest');
  expect(failure.error).toContain('pytest');
});

describe('node --test', { timeout: 60_000 }, () => {
  beforeEach((t) => {
    if (!dir) t.skip('the fixture projects are written to a workspace on disk (the in-memory one: sim/demo-tests.test.ts)');
  });
  beforeAll(() => {
    if (!ctx.target.workspaceDir) return;
    dir = ctx.target.workspaceDir;
    write('package.json', JSON.stringify({ type: 'module', scripts: { test: 'node --test test/' } }));
    write('src/math.mjs', 'export const add = (a, b) => a + b;\n');
    write('test/math.test.mjs', MATH_TEST);
    write('test/broken.test.mjs', "import { test } from 'node:test';\ntest('x', () => { const = 1 });\n");
  });

  const id = (suite: string[], name: string) => ['test/math.test.mjs', ...suite, name].join('::');

  it('before any run: NO_TEST_RESULTS', async () => {
    await ctx.agent.fails('openspace.test.results', {}, 'NO_TEST_RESULTS');
  });

  it('discover: every test with its suite and line, no body run; the broken file named', async () => {
    const found = await ctx.agent.ok('openspace.test.discover', { path: 'test' });
    expect(found.runners).toEqual(['node']);
    expect(found.tests).toEqual([
      { id: id([], 'adds'), name: 'adds', suite: [], path: 'test/math.test.mjs', line: 5, runner: 'node' },
      {
        id: id(['edge cases'], 'adds negatives'),
        name: 'adds negatives',
        suite: ['edge cases'],
        path: 'test/math.test.mjs',
        line: 10,
        runner: 'node',
      },
      {
        id: id(['edge cases'], 'adds strings'),
        name: 'adds strings',
        suite: ['edge cases'],
        path: 'test/math.test.mjs',
        line: 13,
        runner: 'node',
      },
      {
        id: id(['edge cases'], 'adds bigints'),
        name: 'adds bigints',
        suite: ['edge cases'],
        path: 'test/math.test.mjs',
        line: 14,
        runner: 'node',
      },
      { id: id([], 'adds 1 and 1'), name: 'adds 1 and 1', suite: [], path: 'test/math.test.mjs', line: 17, runner: 'node' },
      { id: id([], 'adds 2 and 3'), name: 'adds 2 and 3', suite: [], path: 'test/math.test.mjs', line: 17, runner: 'node' },
    ]);
    expect(found.errors).toEqual([{ path: 'test/broken.test.mjs', line: 2, message: "SyntaxError: Unexpected token '='" }]);
  });

  it('run everything: each status, and the failure with expected, actual and the assertion line', async () => {
    const run = await ctx.agent.ok('openspace.test.run', {});
    expect(run).toMatchObject({ status: 'failed', runners: ['node'], by: 'agent', counts: { passed: 3, failed: 1, skipped: 1, todo: 1 } });
    expect(run.tests[0]).toMatchObject({
      id: id(['edge cases'], 'adds negatives'),
      status: 'failed',
      failure: { expected: '-4', actual: '-3', path: 'test/math.test.mjs', line: 11 },
    });
    expect(run.tests[0].failure.message).toContain('Expected values to be strictly equal');
    expect(Object.fromEntries(run.tests.map((t: { name: string; status: string }) => [t.name, t.status]))).toEqual({
      adds: 'passed',
      'adds negatives': 'failed',
      'adds strings': 'skipped',
      'adds bigints': 'todo',
      'adds 1 and 1': 'passed',
      'adds 2 and 3': 'passed',
    });
    expect(run.errors).toEqual([{ path: 'test/broken.test.mjs', line: 2, message: "SyntaxError: Unexpected token '='" }]);
    expect(await ctx.agent.ok('openspace.test.results')).toEqual(run);
    // The live state every agent reads counts it.
    const instructions = await (await fetch(`${ctx.target.origin}/openspace/instructions`, { headers: ctx.target.headers })).text();
    expect(instructions).toContain(
      '- Tests: last run (by an agent) failed: 1 failed, 3 passed, 1 file did not load (openspace.test.results)',
    );
  });

  it('one test by name, by "Suite > name", by ID and by a line inside it: that test only', async () => {
    for (const pick of [
      { names: ['adds negatives'] },
      { names: ['edge cases > adds negatives'] },
      { names: [id(['edge cases'], 'adds negatives')] },
      { path: 'test/math.test.mjs', line: 11 },
    ]) {
      const run = await ctx.agent.ok('openspace.test.run', pick);
      expect(
        run.tests.map((t: { name: string }) => t.name),
        JSON.stringify(pick),
      ).toEqual(['adds negatives']);
      expect(run).toMatchObject({ status: 'failed', counts: { passed: 0, failed: 1, skipped: 0, todo: 0 }, errors: [] });
    }
    const byLine = await ctx.agent.ok('openspace.test.run', { path: 'test/math.test.mjs', line: 6 });
    expect(byLine).toMatchObject({ status: 'passed', tests: [{ name: 'adds', status: 'passed' }] });
  });

  it('a name that matches nothing: TEST_NOT_FOUND with the near ones; a line above every test too', async () => {
    const failure = await ctx.agent.fails('openspace.test.run', { names: ['adds negative numbers'] }, 'TEST_NOT_FOUND');
    expect(failure.error).toContain('edge cases > adds negatives');
    await ctx.agent.fails('openspace.test.run', { path: 'test/math.test.mjs', line: 2 }, 'TEST_NOT_FOUND');
    await ctx.agent.fails('openspace.test.run', { path: 'test/math.test.mjs' }, 'INVALID_ARGUMENT');
  });

  it('the agent fixes the failing test with file.patch, and it runs green', async () => {
    const { version } = await ctx.agent.ok('openspace.file.read', { path: 'test/math.test.mjs' });
    await ctx.agent.ok('openspace.file.patch', {
      path: 'test/math.test.mjs',
      baseVersion: version,
      operations: [{ type: 'replace_text', oldText: 'add(-1, -2), -4', newText: 'add(-1, -2), -3' }],
    });
    const run = await ctx.agent.ok('openspace.test.run', { names: ['adds negatives'] });
    expect(run).toMatchObject({ status: 'passed', tests: [{ name: 'adds negatives', status: 'passed' }] });
  });

  it('a run that outlasts its limit ends there, saying so with what finished', async () => {
    // It waits on something that never comes. (A test that spins the CPU keeps Node's runner from
    // reporting anything of its file: then the answer says timed-out with nothing finished.)
    write(
      'test/slow.test.mjs',
      "import { test } from 'node:test';\ntest('quick', () => {});\ntest('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n",
    );
    try {
      const run = await ctx.agent.ok('openspace.test.run', { paths: ['test/slow.test.mjs'], timeoutMs: 5000 });
      expect(run.status).toBe('timed-out');
      expect(run.tests).toEqual([expect.objectContaining({ name: 'quick', status: 'passed' })]);
      expect(run.durationMs).toBeGreaterThanOrEqual(5000);
      expect(run.durationMs).toBeLessThan(15_000);
    } finally {
      rmSync(join(dir, 'test/slow.test.mjs'));
    }
  });

  it('cancel: from another session (or the palette) the run answers "cancelled"; meanwhile another run is TEST_RUN_BUSY', async () => {
    write(
      'test/hang.test.mjs',
      "import { test } from 'node:test';\ntest('hangs', () => new Promise(() => setInterval(() => {}, 1000)));\n",
    );
    const other = await connectAgent(ctx.target, 'test-canceller');
    try {
      expect(await other.ok('openspace.test.cancel')).toEqual({ success: true, cancelled: false });
      const running = ctx.agent.call('openspace.test.run', { paths: ['test/hang.test.mjs'], timeoutMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await other.fails('openspace.test.run', {}, 'TEST_RUN_BUSY');
      expect(await other.ok('openspace.test.cancel')).toEqual({ success: true, cancelled: true });
      const run = await running;
      expect(run).toMatchObject({ success: true, status: 'cancelled' });
      expect(run.durationMs).toBeLessThan(10_000);
    } finally {
      await other.close();
    }
  });

  it("an agent's client cancelling its call (MCP notifications/cancelled) stops the run", async () => {
    const stop = new AbortController();
    const running = ctx.agent.client.callTool({ name: 'openspace.test.run', arguments: { paths: ['test/hang.test.mjs'] } }, undefined, {
      signal: stop.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop.abort('the person pressed Esc');
    await expect(running).rejects.toThrow();
    const last = await eventually(async () => {
      const results = await ctx.agent.ok('openspace.test.results');
      expect(results.startedAt).not.toBe(undefined);
      expect(results.tests.map((t: { path: string }) => t.path)).not.toContain('test/escape.test.mjs');
      expect(results.status).toBe('cancelled');
      return results;
    }, 10_000);
    expect(last.durationMs).toBeLessThan(10_000);
    rmSync(join(dir, 'test/hang.test.mjs'));
  });

  it("a test cannot read the person's keys, write beside the workspace, or see secrets in its environment", async () => {
    // As terminals: the home is empty inside, beside the workspace is read-only (readable).
    const canary = join(home, '.ssh', 'id_rsa');
    const escaped = join(dir, '..', `${dir.split('/').pop()}-escaped`);
    writeFileSync(canary, SECRET);
    write(
      'test/escape.test.mjs',
      `import { test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
test('reads the keys', () => { throw new Error('read ' + readFileSync(${JSON.stringify(canary)}, 'utf8')); });
test('writes beside', () => { writeFileSync(${JSON.stringify(escaped)}, 'out'); });
test('environment', () => { throw new Error('env ' + JSON.stringify(process.env)); });
`,
    );
    try {
      const run = await ctx.agent.ok('openspace.test.run', { paths: ['test/escape.test.mjs'] });
      expect(run.tests).toHaveLength(3);
      expect(JSON.stringify(run)).not.toContain(SECRET);
      expect(run.tests.find((t: { name: string }) => t.name === 'reads the keys').failure.message).toContain('ENOENT');
      expect(run.tests.find((t: { name: string }) => t.name === 'writes beside').failure.message).toContain('EROFS');
      expect(existsSync(escaped)).toBe(false);
    } finally {
      rmSync(join(dir, 'test/escape.test.mjs'));
    }
  });

  it("a test that swaps the runner's report for a link to the person's files gets nothing of them", async () => {
    // A line the report reader would take, in a file of the person's that the sandbox hides.
    const planted = join(home, '.ssh', 'known.ndjson');
    writeFileSync(
      planted,
      `${JSON.stringify({ type: 'test:fail', name: SECRET, nesting: 0, file: join(dir, 'test/swap.test.mjs'), line: 1, suite: false, error: { message: SECRET } })}\n`,
    );
    write(
      'test/swap.test.mjs',
      `import { test } from 'node:test';
import { rmSync, symlinkSync } from 'node:fs';
test('swaps the report', () => {
  const report = process.env.OPENSPACE_TEST_EXCHANGE + '/node-report.ndjson';
  rmSync(report, { force: true });
  symlinkSync(${JSON.stringify(planted)}, report);
});
`,
    );
    try {
      const answer = await ctx.agent.call('openspace.test.run', { paths: ['test/swap.test.mjs'] });
      expect(JSON.stringify(answer)).not.toContain(SECRET);
      expect(answer).toMatchObject({ success: false, code: 'TEST_RUN_FAILED' });
      expect(answer.error).toContain('not a file OpenSpace reads');
    } finally {
      rmSync(join(dir, 'test/swap.test.mjs'));
    }
  });
});

// A runner's start-up (pytest's plugins, Vite) takes seconds on a busy 2-core machine: these tests get room.
describe('pytest', { timeout: 60_000 }, () => {
  beforeEach((t) => {
    if (!dir) t.skip('the fixture projects are written to a workspace on disk (the in-memory one: sim/demo-tests.test.ts)');
  });
  beforeAll(() => {
    if (!dir) return;
    write(
      'tests/test_calc.py',
      [
        'import pytest',
        '',
        '',
        'def test_adds():',
        '    assert 1 + 2 == 3',
        '',
        '',
        'class TestEdges:',
        '    def test_negatives(self):',
        '        assert -1 + -2 == -4',
        '',
      ].join('\n'),
    );
  });

  it('discover: the tests of a folder, with their class and line', async () => {
    const found = await ctx.agent.ok('openspace.test.discover', { path: 'tests' });
    expect(found).toMatchObject({ runners: ['pytest'], errors: [] });
    expect(found.tests).toEqual([
      { id: 'tests/test_calc.py::test_adds', name: 'test_adds', suite: [], path: 'tests/test_calc.py', line: 4, runner: 'pytest' },
      {
        id: 'tests/test_calc.py::TestEdges::test_negatives',
        name: 'test_negatives',
        suite: ['TestEdges'],
        path: 'tests/test_calc.py',
        line: 9,
        runner: 'pytest',
      },
    ]);
  });

  it('one test by a line inside it: the failing assert with expected and actual', async () => {
    const run = await ctx.agent.ok('openspace.test.run', { path: 'tests/test_calc.py', line: 10 });
    expect(run).toMatchObject({ status: 'failed', runners: ['pytest'], counts: { passed: 0, failed: 1, skipped: 0, todo: 0 } });
    expect(run.tests).toEqual([
      expect.objectContaining({
        id: 'tests/test_calc.py::TestEdges::test_negatives',
        status: 'failed',
        failure: expect.objectContaining({ expected: '-4', actual: '-3', path: 'tests/test_calc.py', line: 10 }),
      }),
    ]);
  });

  it('everything: each runner the workspace uses, together', async () => {
    const run = await ctx.agent.ok('openspace.test.run', {});
    expect(run.runners).toEqual(['node', 'pytest']);
    expect(run.tests.filter((t: { status: string }) => t.status === 'failed').map((t: { name: string }) => t.name)).toEqual([
      'test_negatives',
    ]);
    expect(run.counts.passed).toBe(5);
  });

  it("the person's setting names the runners (openspace.test.runners): only those run", async () => {
    // The workspace's settings: .openspace/settings.json on the simulated IDE, Theia's .theia/settings.json.
    const file = ctx.target.page ? '.theia/settings.json' : '.openspace/settings.json';
    write(file, JSON.stringify({ 'openspace.test.runners': ['pytest'] }));
    try {
      await eventually(async () => expect((await ctx.agent.ok('openspace.test.discover')).runners).toEqual(['pytest']), 15_000, 500);
      const run = await ctx.agent.ok('openspace.test.run');
      expect(run.runners).toEqual(['pytest']);
      expect(run.tests.map((t: { runner: string }) => t.runner)).toEqual(['pytest', 'pytest']);
    } finally {
      rmSync(join(dir, file));
    }
    await eventually(async () => expect((await ctx.agent.ok('openspace.test.discover')).runners).toEqual(['node', 'pytest']), 15_000, 500);
  });
});

describe('Vitest', { timeout: 60_000 }, () => {
  beforeEach((t) => {
    if (!dir) t.skip('the fixture projects are written to a workspace on disk (the in-memory one: sim/demo-tests.test.ts)');
  });
  beforeAll(() => {
    if (!dir) return;
    write('package.json', JSON.stringify({ type: 'module', scripts: { test: 'vitest run' }, devDependencies: { vitest: '^4.1.0' } }));
    // The project's Vitest is OpenSpace's own, linked into the project's node_modules (where Vite
    // writes its bundled config: a project's node_modules is in the workspace, writable).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(fileURLToPath(new URL('../../node_modules/vitest', import.meta.url)), join(dir, 'node_modules/vitest'));
    write('vitest.config.mjs', "export default { test: { include: ['vt/**/*.test.ts'] } };\n");
    write(
      'vt/calc.test.ts',
      [
        "import { describe, expect, it } from 'vitest';",
        '',
        "it('multiplies', () => {",
        '  expect(2 * 3).toBe(6);',
        '});',
        '',
        "describe('rounding', () => {",
        "  it('rounds halves up', () => {",
        '    expect(Math.round(2.5)).toBe(2);',
        '  });',
        '});',
        '',
      ].join('\n'),
    );
  });

  it('discover: the tests with their describe block and line', async () => {
    const found = await ctx.agent.ok('openspace.test.discover', { path: 'vt' });
    expect(found).toMatchObject({ runners: ['vitest'], errors: [] });
    expect(found.tests).toEqual([
      { id: 'vt/calc.test.ts::multiplies', name: 'multiplies', suite: [], path: 'vt/calc.test.ts', line: 3, runner: 'vitest' },
      {
        id: 'vt/calc.test.ts::rounding::rounds halves up',
        name: 'rounds halves up',
        suite: ['rounding'],
        path: 'vt/calc.test.ts',
        line: 8,
        runner: 'vitest',
      },
    ]);
  });

  it('one test by a line inside it: the failing expect with expected and actual', async () => {
    const run = await ctx.agent.ok('openspace.test.run', { path: 'vt/calc.test.ts', line: 9 });
    expect(run).toMatchObject({ status: 'failed', runners: ['vitest'], counts: { passed: 0, failed: 1, skipped: 0, todo: 0 } });
    expect(run.tests).toEqual([
      expect.objectContaining({
        name: 'rounds halves up',
        status: 'failed',
        failure: expect.objectContaining({ expected: '2', actual: '3', path: 'vt/calc.test.ts', line: 9 }),
      }),
    ]);
  });
});

describe('Jest', { timeout: 60_000 }, () => {
  beforeEach((t) => {
    if (!dir) t.skip('the fixture projects are written to a workspace on disk (the in-memory one: sim/demo-tests.test.ts)');
  });
  beforeAll(() => {
    if (!dir) return;
    // The test script names Jest: the Vitest config left by the tests above is not the project's now.
    // Jest's tests are those of jt/ only (the other folders hold other runners' tests).
    write(
      'package.json',
      JSON.stringify({
        scripts: { test: 'jest' },
        devDependencies: { jest: '^30.5.2' },
        jest: { roots: ['<rootDir>/jt'], testMatch: ['**/*.test.js'] },
      }),
    );
    // The project's Jest is OpenSpace's own, linked into the project's node_modules.
    symlinkSync(fileURLToPath(new URL('../../node_modules/jest', import.meta.url)), join(dir, 'node_modules/jest'));
    // CommonJS: Jest 30 runs ES modules only under node --experimental-vm-modules.
    write(
      'jt/calc.test.js',
      [
        'const multiply = (a, b) => a * b;',
        '',
        "test('multiplies', () => {",
        '  expect(multiply(2, 3)).toBe(6);',
        '});',
        '',
        "describe('rounding', () => {",
        "  test('rounds halves up', () => {",
        '    expect(Math.round(2.5)).toBe(2);',
        '  });',
        "  test.skip('rounds negatives', () => {",
        '    expect(Math.round(-2.5)).toBe(-3);',
        '  });',
        "  test.todo('rounds to a precision');",
        '});',
        '',
        "test.each([[1, 1], [2, 4]])('squares %i', (n, square) => {",
        '  expect(multiply(n, n)).toBe(square);',
        '});',
        '',
      ].join('\n'),
    );
    write('jt/broken.test.js', "test('broken', () => {\n  const x = ;\n});\n");
  });

  const path = 'jt/calc.test.js';
  const at = (suite: string[], name: string, line: number) => ({
    id: [path, ...suite, name].join('::'),
    name,
    suite,
    path,
    line,
    runner: 'jest',
  });
  const BROKEN = { path: 'jt/broken.test.js', line: 2, message: 'SyntaxError: Unexpected token (2:12)' };

  it('discover: every test with its describe block and line, skipped, todo and each case too; the broken file named', async () => {
    const found = await ctx.agent.ok('openspace.test.discover', { path: 'jt' });
    expect(found.runners).toEqual(['jest']);
    expect(found.tests).toEqual([
      at([], 'multiplies', 3),
      at(['rounding'], 'rounds halves up', 8),
      at(['rounding'], 'rounds negatives', 11),
      at(['rounding'], 'rounds to a precision', 14),
      at([], 'squares 1', 17),
      at([], 'squares 2', 17),
    ]);
    expect(found.errors).toEqual([BROKEN]);
  });

  it('run the files: each status, and the failing toBe with expected, actual and its line', async () => {
    const run = await ctx.agent.ok('openspace.test.run', { paths: ['jt/calc.test.js', 'jt/broken.test.js'] });
    expect(run).toMatchObject({ status: 'failed', runners: ['jest'], counts: { passed: 3, failed: 1, skipped: 1, todo: 1 } });
    expect(run.tests[0]).toEqual({
      ...at(['rounding'], 'rounds halves up', 8),
      status: 'failed',
      durationMs: expect.any(Number),
      failure: {
        message: 'expect(received).toBe(expected) // Object.is equality\n\nExpected: 2\nReceived: 3',
        expected: '2',
        actual: '3',
        path,
        line: 9,
      },
    });
    expect(Object.fromEntries(run.tests.map((t: { name: string; status: string }) => [t.name, t.status]))).toEqual({
      multiplies: 'passed',
      'rounds halves up': 'failed',
      'rounds negatives': 'skipped',
      'rounds to a precision': 'todo',
      'squares 1': 'passed',
      'squares 2': 'passed',
    });
    expect(run.errors).toEqual([BROKEN]);
  });

  it('one test by name, by "Suite > name", by ID and by a line inside it: that test only', async () => {
    for (const pick of [
      { names: ['rounds halves up'] },
      { names: ['rounding > rounds halves up'] },
      { names: [`${path}::rounding::rounds halves up`] },
      { path, line: 9 },
    ]) {
      const run = await ctx.agent.ok('openspace.test.run', pick);
      expect(run, JSON.stringify(pick)).toMatchObject({
        status: 'failed',
        runners: ['jest'],
        counts: { passed: 0, failed: 1, skipped: 0, todo: 0 },
        tests: [{ name: 'rounds halves up', failure: { expected: '2', actual: '3', path, line: 9 } }],
        errors: [],
      });
      expect(run.tests).toHaveLength(1);
    }
    const byName = await ctx.agent.ok('openspace.test.run', { names: ['squares 2'] });
    expect(byName).toMatchObject({ status: 'passed', tests: [{ name: 'squares 2', status: 'passed', line: 17 }] });
    expect(byName.tests).toHaveLength(1);
    // Five Jest runs, each some seconds of CPU: on two cores shared with other spec files, more than the usual limit.
  }, 120_000);
});
