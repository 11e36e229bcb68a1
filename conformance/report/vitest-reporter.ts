/**
 * A Vitest reporter that turns a conformance run into a RunReport: every test becomes a result
 * (with its tool, when the test names one or records it in `task.meta.tool`), every latency series a
 * test records in `task.meta.latency` joins the report's latency section. Prints a live summary.
 */
import { basename, relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { TOOLS } from '../../src/families/index.js';
import { finishReport, type LatencySeries, type RunReport, type TestResult } from './model.js';
import { headline, ms } from './rows.js';

declare module 'vitest' {
  interface TaskMeta {
    /** The tool a test is about, when its name does not say. */
    tool?: string;
    /** Latency samples a test took, for the report's charts and budget table. */
    latency?: LatencySeries;
  }
}

const TOOL_NAMES = TOOLS.map((t) => t.name);
/** `openspace.editor.open` or its short form `editor.open`, longest first so `editor.open` never shadows a longer name. */
const TOOL_PATTERN = new RegExp(
  `\\b(?:openspace\\.)?(${[...TOOL_NAMES]
    .map((n) => n.replace(/^openspace\./, ''))
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/\./g, '\\.'))
    .join('|')})\\b`,
);

export function toolOf(name: string): string | undefined {
  const match = TOOL_PATTERN.exec(name);
  return match ? `openspace.${match[1]}` : undefined;
}

function familyOf(file: string): string {
  const base = basename(file).replace(/\.test\.ts$/, '');
  return file.startsWith('conformance/') ? base : `properties: ${base}`;
}

const ANSI = /\u001b\[[0-9;]*m/g;

function describeErrors(errors: readonly SerializedError[] | undefined): string | undefined {
  if (!errors?.length) return undefined;
  return errors
    .map((e) => {
      const diff = typeof e.diff === 'string' && e.diff ? `\n${e.diff}` : '';
      // "fetch failed" says nothing without its cause (the connection refused, reset, timed out …).
      const cause = e.cause as { message?: string; code?: string } | undefined;
      const why = cause?.message ? ` (${cause.code ? `${cause.code}: ` : ''}${cause.message})` : '';
      return `${e.name && e.name !== 'Error' && e.name !== 'AssertionError' ? `${e.name}: ` : ''}${e.message ?? String(e)}${why}${diff}`;
    })
    .join('\n\n')
    .replace(ANSI, '');
}

export interface ConformanceReporterOptions {
  target: string;
  title?: string;
  root: string;
  meta?: Record<string, string>;
  /** Where live progress goes (default stdout). */
  write?: (text: string) => void;
}

export class ConformanceReporter implements Reporter {
  readonly tests: TestResult[] = [];
  readonly latency: LatencySeries[] = [];
  private readonly started = new Date();
  private readonly write: (text: string) => void;
  report?: RunReport;

  constructor(private readonly options: ConformanceReporterOptions) {
    this.write = options.write ?? ((text) => process.stdout.write(text));
  }

  private file(module: TestModule): string {
    return relative(this.options.root, module.moduleId);
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    const meta = testCase.meta();
    const file = this.file(testCase.module);
    const status = result.state === 'passed' ? 'pass' : result.state === 'failed' ? 'fail' : 'skip';
    const test: TestResult = {
      name: testCase.fullName,
      status,
      durationMs: testCase.diagnostic()?.duration ?? 0,
      family: familyOf(file),
      tool: meta.tool ?? toolOf(testCase.fullName),
      file,
      error: result.state === 'failed' ? describeErrors(result.errors) : result.state === 'skipped' ? result.note : undefined,
    };
    this.tests.push(test);
    if (meta.latency) this.latency.push(meta.latency);
    if (status === 'fail') this.write(`  ✗ ${file} › ${test.name}\n      ${headline(test.error)}\n`);
  }

  /** A failed beforeAll leaves its tests unrun, not passed: it fails the run as a test of its own. */
  onTestSuiteResult(suite: TestSuite): void {
    const errors = suite.errors();
    if (!errors.length) return;
    const file = this.file(suite.module);
    const error = describeErrors(errors);
    this.tests.push({ name: `${suite.fullName} (setup)`, status: 'fail', durationMs: 0, family: familyOf(file), file, error });
    this.write(`  ✗ ${file} › ${suite.fullName} (setup)\n      ${headline(error)}\n`);
  }

  onTestModuleEnd(module: TestModule): void {
    const file = this.file(module);
    // A failure outside any test (a hook, an import) fails the module; report it as a test.
    const errors = module.errors();
    if (errors.length) {
      const error = describeErrors(errors);
      this.tests.push({ name: `${file} (setup)`, status: 'fail', durationMs: 0, family: familyOf(file), file, error });
      this.write(`  ✗ ${file} (setup)\n      ${headline(error)}\n`);
    }
    const mine = this.tests.filter((t) => t.file === file);
    const failed = mine.filter((t) => t.status === 'fail').length;
    const passed = mine.filter((t) => t.status === 'pass').length;
    this.write(
      `${failed ? '✗' : '✓'} ${file}  ${passed} passed${failed ? `, ${failed} FAILED` : ''}${mine.length - passed - failed ? `, ${mine.length - passed - failed} skipped` : ''}  (${(module.diagnostic().duration / 1000).toFixed(1)} s)\n`,
    );
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    for (const err of unhandled) {
      this.tests.push({
        name: `unhandled error: ${headline(err.message)}`,
        status: 'fail',
        durationMs: 0,
        family: 'run',
        error: describeErrors([err]),
      });
    }
    const finished = new Date();
    this.report = finishReport({
      kind: 'conformance',
      title: this.options.title ?? 'OpenSpace conformance',
      target: this.options.target,
      startedAt: this.started.toISOString(),
      finishedAt: finished.toISOString(),
      tests: this.tests,
      latency: this.latency,
      meta: this.options.meta,
    });
    const s = this.report.summary;
    const breaches = this.latency.filter((l) => !l.withinBudget);
    // Again at the end, where a CI log's tail shows it: which tests failed, and why in a line.
    const failures = this.tests.filter((t) => t.status === 'fail');
    if (failures.length)
      this.write(`\nFailed:\n${failures.map((t) => `  ✗ ${t.file ?? ''} › ${t.name}\n      ${headline(t.error)}\n`).join('')}`);
    this.write(
      `\n${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped of ${s.total} tests; ` +
        `${this.latency.length - breaches.length}/${this.latency.length} latency budgets met` +
        (breaches.length ? ` (over: ${breaches.map((b) => `${b.tool} p99 ${ms(b.p99)} ms > ${b.budgetMs}`).join(', ')})` : '') +
        '\n',
    );
  }
}
