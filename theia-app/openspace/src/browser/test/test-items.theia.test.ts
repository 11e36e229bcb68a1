import { describe, expect, it, vi } from 'vitest';
import URI from '@theia/core/lib/common/uri';
import { TestExecutionState, type TestController, type TestFailure, type TestItem } from '@theia/test/lib/browser/test-service';
import { DeltaKind, type TreeDelta } from '@theia/test/lib/common/tree-delta';
import type { TestCaseInfo, TestRunInfo } from '../../../../../src/browser.js';
import { TestItemTree } from './test-items.js';
import { OpenSpaceTestRun, showResults } from './test-run.js';

// The real module loads Theia's whole browser side, which needs a DOM; its state numbers are these.
vi.mock('@theia/test/lib/browser/test-service', () => ({
  TestExecutionState: { Queued: 1, Running: 2, Passed: 3, Failed: 4, Skipped: 5, Errored: 6 },
}));

const ROOT = new URI('file:///work/project');
const controller = {} as TestController;
const test = (name: string, suite: string[] = [], line = 1, path = 'test/math.test.mjs'): TestCaseInfo => ({
  id: [path, ...suite, name].join('::'),
  name,
  suite,
  path,
  line,
  runner: 'node',
});
const ADDS = test('adds', [], 5);
const NEGATIVES = test('adds negatives', ['edge cases'], 10);
const STRINGS = test('adds strings', ['edge cases'], 13);

const newTree = () => new TestItemTree(controller, (path) => ROOT.resolve(path));
const shape = (tree: TestItemTree) => {
  const walk = (items: typeof tree.roots): unknown[] => items.map((i) => (i.tests.length ? { [i.label]: walk(i.tests) } : i.label));
  return walk(tree.roots);
};

describe('the Test Explorer tree', () => {
  it('files, suites, tests in the order discovered; a test is its ID with its line as a 0-based range and its file URI', () => {
    const tree = newTree();
    const deltas = tree.replace([ADDS, NEGATIVES, STRINGS, test('other', [], 1, 'test/b.test.mjs')]);
    expect(shape(tree)).toEqual([
      { 'test/math.test.mjs': ['adds', { 'edge cases': ['adds negatives', 'adds strings'] }] },
      { 'test/b.test.mjs': ['other'] },
    ]);
    expect(deltas.map((d) => [d.path, d.type])).toEqual([
      [['test/math.test.mjs'], DeltaKind.ADDED],
      [['test/b.test.mjs'], DeltaKind.ADDED],
    ]);
    const negatives = tree.test(NEGATIVES.id)!;
    expect(negatives.range).toEqual({ start: { line: 9, character: 0 }, end: { line: 9, character: 0 } });
    expect(negatives.uri?.toString()).toBe('file:///work/project/test/math.test.mjs');
    expect(negatives.path).toEqual(['test/math.test.mjs', 'suite:test/math.test.mjs::edge cases', NEGATIVES.id]);
    expect(
      tree
        .file('test/math.test.mjs')!
        .leaves()
        .map((t) => t.id),
    ).toEqual([ADDS.id, NEGATIVES.id, STRINGS.id]);
  });

  it('a test and a suite of one name are two items', () => {
    const tree = newTree();
    tree.replace([test('edge cases'), test('inner', ['edge cases'])]);
    expect(shape(tree)).toEqual([{ 'test/math.test.mjs': ['edge cases', { 'edge cases': ['inner'] }] }]);
  });

  it('a new discovery keeps the items of tests still there (their states live on), removes the gone and adds the new', () => {
    const tree = newTree();
    tree.replace([ADDS, NEGATIVES, STRINGS]);
    const adds = tree.test(ADDS.id);
    const deltas = tree.replace([{ ...ADDS, line: 6 }, NEGATIVES, test('adds bigints', ['edge cases'], 14)]);
    expect(tree.test(ADDS.id)).toBe(adds);
    expect(adds!.range!.start.line).toBe(5);
    expect(tree.test(STRINGS.id)).toBeUndefined();
    expect(shape(tree)).toEqual([{ 'test/math.test.mjs': ['adds', { 'edge cases': ['adds negatives', 'adds bigints'] }] }]);
    expect(deltas).toHaveLength(1);
    // What the view refreshes: the line of adds, and in the suite the test added and the one removed.
    const kinds = (d: TreeDelta<string, TestItem>): unknown => [d.path.join(' / '), DeltaKind[d.type], ...(d.childDeltas ?? []).map(kinds)];
    expect(deltas.map(kinds)).toEqual([
      [
        'test/math.test.mjs',
        'NONE',
        ['suite:test/math.test.mjs::edge cases', 'NONE', [STRINGS.id, 'REMOVED'], [test('adds bigints', ['edge cases']).id, 'ADDED']],
        [ADDS.id, 'CHANGED'],
      ],
    ]);
    expect(tree.replace([{ ...ADDS, line: 6 }, NEGATIVES, test('adds bigints', ['edge cases'], 14)])).toEqual([]);
  });

  it("a run's tests the tree lacks are added; none removed", () => {
    const tree = newTree();
    tree.replace([ADDS]);
    expect(tree.add([ADDS, NEGATIVES])).toHaveLength(1);
    expect(shape(tree)).toEqual([{ 'test/math.test.mjs': ['adds', { 'edge cases': ['adds negatives'] }] }]);
    expect(tree.add([ADDS])).toEqual([]);
  });
});

describe('a run in the Test Explorer', () => {
  const info = (over: Partial<TestRunInfo>): TestRunInfo => ({
    status: 'failed',
    runners: ['node'],
    startedAt: new Date().toISOString(),
    durationMs: 1234,
    by: 'agent',
    counts: { passed: 1, failed: 1, skipped: 1, todo: 0 },
    tests: [],
    errors: [],
    ...over,
  });

  it('passed, failed with its message, expected, actual and the assertion as a link, skipped; the summary on the run', () => {
    const tree = newTree();
    tree.replace([ADDS, NEGATIVES, STRINGS]);
    const run = new OpenSpaceTestRun('r1', 'Agent run', controller, () => undefined);
    const failure = {
      message: 'Expected values to be strictly equal:\n\n-3 !== -4',
      expected: '-4',
      actual: '-3',
      path: 'test/math.test.mjs',
      line: 11,
    };
    showResults(
      run,
      info({
        tests: [
          { ...NEGATIVES, status: 'failed', durationMs: 2, failure },
          { ...ADDS, status: 'passed', durationMs: 1.4 },
          { ...STRINGS, status: 'skipped' },
        ],
      }),
      { test: (id) => tree.test(id), file: (path) => tree.file(path), uriOf: (path) => ROOT.resolve(path) },
    );
    expect(run.getTestState(tree.test(ADDS.id)!)).toEqual({ state: TestExecutionState.Passed, duration: 1.4 });
    expect(run.getTestState(tree.test(STRINGS.id)!)).toEqual({ state: TestExecutionState.Skipped });
    const failed = run.getTestState(tree.test(NEGATIVES.id)!) as TestFailure;
    expect(failed.state).toBe(TestExecutionState.Failed);
    const [message] = failed.messages;
    expect(message).toMatchObject({ expected: '-4', actual: '-3' });
    // Markdown (escaped), one line a line; the test's output has the same text plain.
    expect((message!.message as { value: string }).value.split('\\\n')).toHaveLength(5);
    expect(run.getOutput(tree.test(NEGATIVES.id)!).map((o) => o.output)).toEqual([
      '✗ adds negatives (2 ms)\r\nExpected values to be strictly equal:\r\n\r\n-3 !== -4\r\nExpected: -4\r\nActual: -3',
    ]);
    const at = {
      uri: 'file:///work/project/test/math.test.mjs',
      range: { start: { line: 10, character: 0 }, end: { line: 10, character: 0 } },
    };
    expect(message!.location).toEqual(at);
    expect(message!.stackTrace).toEqual([{ label: 'adds negatives', uri: at.uri, position: at.range.start }]);
    expect(run.getOutput(tree.test(ADDS.id)!).map((o) => o.output)).toEqual(['✓ adds (1 ms)']);
    expect(run.getOutput().at(-1)!.output).toBe('The agent ran tests: 1 passed, 1 failed, 1 skipped, 0 todo in 1.2 s.');
  });

  it('a file that did not load errors its tests; at the end tests that did not report show no state, and a finished run does not cancel', () => {
    const tree = newTree();
    tree.replace([ADDS, test('x', [], 2, 'test/broken.test.mjs')]);
    let cancels = 0;
    const run = new OpenSpaceTestRun('r2', 'Test run #0', controller, () => cancels++);
    const adds = tree.test(ADDS.id)!;
    run.setStates([[adds, { state: TestExecutionState.Running }]]);
    showResults(
      run,
      info({ status: 'cancelled', errors: [{ path: 'test/broken.test.mjs', line: 2, message: "SyntaxError: Unexpected token '='" }] }),
      {
        test: (id) => tree.test(id),
        file: (path) => tree.file(path),
        uriOf: (path) => ROOT.resolve(path),
      },
    );
    const broken = tree.file('test/broken.test.mjs')!;
    for (const item of [broken, ...broken.leaves()]) expect(run.getTestState(item)?.state).toBe(TestExecutionState.Errored);
    expect(run.getOutput().at(-1)!.output).toContain('ran tests (cancelled): 1 passed');
    run.cancel();
    run.end();
    run.cancel();
    expect(cancels).toBe(1);
    expect(run.getTestState(adds)).toBeUndefined();
    expect(run.isRunning).toBe(false);
  });
});
