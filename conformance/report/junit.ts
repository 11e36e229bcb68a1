import { describeLatency, type RunReport, type TestResult } from './model.js';
import { groupKey, headline } from './rows.js';

// XML 1.0 forbids most control characters even escaped; drop them.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
export function xml(text: string): string {
  return text.replace(CONTROL, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const seconds = (msValue: number) => (msValue / 1000).toFixed(3);

function testcase(test: TestResult, classname: string): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(test.name)}" time="${seconds(test.durationMs)}"`;
  if (test.status === 'pass') return `${open}/>`;
  if (test.status === 'skip')
    return `${open}>\n      <skipped${test.error ? ` message="${xml(headline(test.error))}"` : ''}/>\n    </testcase>`;
  return `${open}>\n      <failure message="${xml(headline(test.error))}">${xml(test.error ?? '')}</failure>\n    </testcase>`;
}

/** JUnit XML as CI systems read it: one testsuite per tool (or family), latency budgets as testcases. */
export function renderJUnit(report: RunReport): string {
  const suites = new Map<string, string[]>();
  const counts = new Map<string, { tests: number; failures: number; skipped: number; time: number }>();
  const add = (suite: string, test: TestResult) => {
    if (!suites.has(suite)) {
      suites.set(suite, []);
      counts.set(suite, { tests: 0, failures: 0, skipped: 0, time: 0 });
    }
    suites.get(suite)!.push(testcase(test, suite));
    const c = counts.get(suite)!;
    c.tests++;
    c.time += test.durationMs;
    if (test.status === 'fail') c.failures++;
    if (test.status === 'skip') c.skipped++;
  };
  for (const test of report.tests) add(groupKey(test), test);
  for (const l of report.latency) {
    add(l.tool, {
      name: `latency p50/p95/p99 under ${l.budgetMs} ms (${l.budget})`,
      status: l.withinBudget ? 'pass' : 'fail',
      durationMs: l.samples.reduce((a, b) => a + b, 0),
      error: l.withinBudget ? undefined : `${l.tool} over its ${l.budget} budget of ${l.budgetMs} ms: ${describeLatency(l)}`,
    });
  }
  const s = report.summary;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`${report.title} (${report.target})`)}" tests="${s.total + report.latency.length}" failures="${s.failed + s.budgetBreaches}" skipped="${s.skipped}" time="${seconds(report.durationMs)}" timestamp="${xml(report.startedAt)}">`,
  ];
  for (const [name, cases] of suites) {
    const c = counts.get(name)!;
    out.push(
      `  <testsuite name="${xml(name)}" tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${seconds(c.time)}">`,
    );
    out.push(...cases);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
