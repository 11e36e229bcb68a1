/** What every report format shows: one row per tool (or family), with its tests and its latency. */
import type { LatencySeries, RunReport, Status, TestResult } from './model.js';
export { ms } from './model.js';

export interface ToolRow {
  /** A tool name, a family, or the spec file when a test names neither. */
  key: string;
  passed: number;
  failed: number;
  skipped: number;
  latency?: LatencySeries;
  failures: TestResult[];
}

export function groupKey(test: TestResult): string {
  return test.tool ?? test.family ?? test.file ?? '(other)';
}

/** Rows in first-seen order; latency series join the row of the same tool. */
export function toolRows(report: RunReport): ToolRow[] {
  const rows = new Map<string, ToolRow>();
  const row = (key: string) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { key, passed: 0, failed: 0, skipped: 0, failures: [] }));
    return r;
  };
  const field: Record<Status, 'passed' | 'failed' | 'skipped'> = { pass: 'passed', fail: 'failed', skip: 'skipped' };
  for (const test of report.tests) {
    const r = row(groupKey(test));
    r[field[test.status]]++;
    if (test.status === 'fail') r.failures.push(test);
  }
  for (const series of report.latency) row(series.tool).latency = series;
  return [...rows.values()];
}

export function headline(error: string | undefined): string {
  return (
    (error ?? '')
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

export function verdict(report: RunReport): 'PASS' | 'FAIL' {
  return report.summary.failed === 0 && report.summary.budgetBreaches === 0 ? 'PASS' : 'FAIL';
}
