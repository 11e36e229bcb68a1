import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeLatency,
  finishReport,
  latencySeries,
  mergeReports,
  percentile,
  remeasured,
  reportPassed,
  type RunReport,
} from './model.js';
import { renderMarkdown } from './markdown.js';
import { writeReports } from './write.js';
import { toolOf } from './vitest-reporter.js';

function sample(overrides: Partial<RunReport> = {}): RunReport {
  return finishReport({
    kind: 'conformance',
    title: 'OpenSpace conformance',
    target: 'http://127.0.0.1:3200/mcp',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:05.000Z',
    tests: [
      { name: 'opens <script>alert(1)</script>', tool: 'openspace.editor.open', status: 'pass', durationMs: 12 },
      {
        name: 'reads & "quotes"',
        tool: 'openspace.file.read',
        status: 'fail',
        durationMs: 3,
        error: 'expected FILE_NOT_FOUND\u0000 got INTERNAL\n  at spec',
      },
      { name: 'needs a person', family: 'editor', status: 'skip', durationMs: 0, error: 'no person at this IDE' },
    ],
    latency: [
      latencySeries('openspace.editor.open', 'simple', [1, 2, 3, 4, 5]),
      latencySeries('openspace.pane.list', 'complex', [100, 200, 600]),
    ],
    ...overrides,
  });
}

describe('merging the shards of a run', () => {
  const shard = (
    i: number,
    n: number,
    startedAt: string,
    finishedAt: string,
    tests: RunReport['tests'],
    latency: RunReport['latency'] = [],
  ) => sample({ startedAt, finishedAt, tests, latency, meta: { node: 'v20', shard: `${i}/${n}` } });
  const pass = (name: string) => ({ name, status: 'pass' as const, durationMs: 1 });

  it("gives one report with every shard's tests and latency, from the first start to the last finish", () => {
    const merged = mergeReports([
      shard(
        2,
        2,
        '2026-01-01T00:00:02.000Z',
        '2026-01-01T00:00:09.000Z',
        [pass('b'), { ...pass('c'), status: 'fail' }],
        [latencySeries('openspace.pane.list', 'complex', [100, 200, 600])],
      ),
      shard(
        1,
        2,
        '2026-01-01T00:00:01.000Z',
        '2026-01-01T00:00:07.000Z',
        [pass('a')],
        [latencySeries('openspace.editor.open', 'simple', [1, 2])],
      ),
    ]);
    expect(merged.tests.map((t) => t.name).sort()).toEqual(['a', 'b', 'c']);
    expect(merged.latency.map((l) => l.tool).sort()).toEqual(['openspace.editor.open', 'openspace.pane.list']);
    expect(merged.summary).toEqual({ total: 3, passed: 2, failed: 1, skipped: 0, budgetBreaches: 1 });
    expect([merged.startedAt, merged.finishedAt, merged.durationMs]).toEqual([
      '2026-01-01T00:00:01.000Z',
      '2026-01-01T00:00:09.000Z',
      8000,
    ]);
    expect(merged.meta).toEqual({ node: 'v20', shards: '2' });
    expect(reportPassed(merged)).toBe(false);
  });

  it('refuses a missing or doubled shard, and shards of other runs', () => {
    const one = shard(1, 3, '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', [pass('a')]);
    const two = shard(2, 3, '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', [pass('b')]);
    const three = shard(3, 3, '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', [pass('c')]);
    expect(() => mergeReports([one, three])).toThrow('a merge needs each of 1/3, 2/3, 3/3 once');
    expect(() => mergeReports([one, two, two, three])).toThrow(/once/);
    expect(() => mergeReports([one, two, { ...three, target: 'theia' }])).toThrow(/against theia/);
    expect(() => mergeReports([sample()])).toThrow(/shards \(none\)/);
    expect(mergeReports([one, two, three]).summary.passed).toBe(3);
  });
});

describe('report model', () => {
  it('takes nearest-rank percentiles and checks p50, p95 and p99 against the budget', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(samples, 50), percentile(samples, 95), percentile(samples, 99), percentile(samples, 100)]).toEqual([
      50, 95, 99, 100,
    ]);
    expect(percentile([7], 99)).toBe(7);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
    expect(latencySeries('t', 'simple', [...samples.slice(0, 98), 150, 150]).withinBudget).toBe(false);
    expect(latencySeries('t', 'simple', [...samples.slice(0, 99), 5000]).withinBudget).toBe(true); // one outlier of 100 is past p99
    expect(latencySeries('t', 'simple', []).withinBudget).toBe(false);
  });

  it('summarizes tests and budget breaches; a run passes only with neither failures nor breaches', () => {
    const report = sample();
    expect(report.summary).toEqual({ total: 3, passed: 1, failed: 1, skipped: 1, budgetBreaches: 1 });
    expect(report.durationMs).toBe(5000);
    expect(reportPassed(report)).toBe(false);
    expect(reportPassed(sample({ tests: [], latency: [] }))).toBe(true);
  });

  it('counts a remeasured series as breached only when its second measurement breached too, and shows both', () => {
    const slow = latencySeries('openspace.pane.open', 'simple', [50, 60, 130]);
    const fast = latencySeries('openspace.pane.open', 'simple', [20, 30, 40]);
    const recovered = sample({ tests: [], latency: [remeasured(slow, fast)] });
    expect(recovered.summary.budgetBreaches).toBe(0);
    expect(reportPassed(recovered)).toBe(true);
    expect(describeLatency(recovered.latency[0]!)).toBe(
      'p50 60.0, p95 130, p99 130 ms over 3 samples, then measured again: p50 30.0, p95 40.0, p99 40.0 ms over 3 samples',
    );
    expect(renderMarkdown(recovered)).toContain(`## Measured twice`);
    expect(renderMarkdown(recovered)).toContain(`- **openspace.pane.open** (100 ms): ${describeLatency(recovered.latency[0]!)}`);
    const breached = sample({ tests: [], latency: [remeasured(slow, latencySeries('openspace.pane.open', 'simple', [90, 120, 140]))] });
    expect(breached.summary.budgetBreaches).toBe(1);
    expect(reportPassed(breached)).toBe(false);
  });

  it('finds the tool a test name mentions, long or short form', () => {
    expect(toolOf('US-3.1 > opens at a line with openspace.editor.open')).toBe('openspace.editor.open');
    expect(toolOf('a file.read of a missing file')).toBe('openspace.file.read');
    expect(toolOf('editor.read_file returns the buffer')).toBe('openspace.editor.read_file');
    expect(toolOf('the hub answers ping')).toBeUndefined();
  });
});

describe('writeReports', () => {
  it('writes JSON, Markdown, JUnit XML and a self-contained HTML page', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openspace-report-'));
    try {
      const paths = await writeReports(sample(), dir, 'conformance-x');
      expect(
        Object.values(paths)
          .map((p) => p.slice(dir.length + 1))
          .sort(),
      ).toEqual(['conformance-x.html', 'conformance-x.json', 'conformance-x.md', 'conformance-x.xml']);
      expect(JSON.parse(await readFile(paths.json, 'utf8'))).toEqual(sample());

      const md = await readFile(paths.markdown, 'utf8');
      expect(md).toMatch(/^# OpenSpace conformance — http:\/\/127\.0\.0\.1:3200\/mcp: FAIL/);
      expect(md).toContain('| openspace.pane.list | 0 | 0 | 0 | 200 | 600 | 600 | 500 (complex) | **FAIL** |');
      expect(md).toContain('- **reads & "quotes"**: expected FILE_NOT_FOUND');

      const xml = await readFile(paths.junit, 'utf8');
      expect(xml).toContain('<testsuites name="OpenSpace conformance (http://127.0.0.1:3200/mcp)" tests="5" failures="2" skipped="1"');
      expect(xml).toContain('name="reads &amp; &quot;quotes&quot;"');
      expect(xml).not.toContain('\u0000');
      expect(xml).toContain('<failure message="openspace.pane.list over its complex budget of 500 ms');

      const html = await readFile(paths.html, 'utf8');
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).not.toMatch(/<script|<link|src=|href=|url\(/i);
      expect(html).toContain('opens &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html.match(/<svg /g)?.length).toBe(3); // the budget overview and one histogram per series
      expect(html).toContain('budget 500 ms');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
