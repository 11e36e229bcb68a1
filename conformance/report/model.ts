/**
 * The report of one run — a conformance run or a scenario playback — against one target.
 * Producers fill a RunReport and call writeReports (write.ts) with it; `latencySeries` turns raw
 * samples into percentiles checked against a budget.
 */

export type Status = 'pass' | 'fail' | 'skip';

/** One test of a conformance spec, or one step of a scenario. */
export interface StepResult {
  name: string;
  status: Status;
  durationMs: number;
  /** The tool family (`editor`, `terminal`, …), or a group such as `hub`, `mcp`, `properties`. */
  family?: string;
  /** The tool the test or step is about, e.g. `openspace.editor.open`. */
  tool?: string;
  /** Why it failed (the first line is the headline), or why it was skipped. */
  error?: string;
}

/** A test (conformance) or a scenario; steps are optional detail. */
export interface TestResult extends StepResult {
  /** The spec file or scenario file it comes from. */
  file?: string;
  steps?: StepResult[];
}

/** Which budget a latency series is measured against (NFR-3.2). */
export type BudgetName = 'simple' | 'complex' | 'instructions' | 'ready';

/** Budgets in milliseconds, from REQ NFR-3.2.1–3.2.3: a percentile at or above the budget is a breach. */
export const BUDGET_MS: Readonly<Record<BudgetName, number>> = { simple: 100, complex: 500, instructions: 50, ready: 200 };

/** The percentiles that must stay under the budget. */
export const CHECKED_PERCENTILES = ['p50', 'p95', 'p99'] as const;

export interface LatencySeries {
  /** A tool name, or `GET /openspace/instructions`, or `hub ready`. */
  tool: string;
  budget: BudgetName;
  budgetMs: number;
  /** Every measured round trip, in milliseconds, in the order taken. */
  samples: number[];
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** True when p50, p95 and p99 are all under budgetMs. */
  withinBudget: boolean;
  /**
   * When the first measurement breached the budget, that measurement: this series is then a second
   * one with fresh samples, and the budget counts as breached only when both breached.
   */
  firstAttempt?: LatencySeries;
}

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Latency series over budget. */
  budgetBreaches: number;
}

export interface RunReport {
  kind: 'conformance' | 'scenario' | 'mcp';
  /** Headline, e.g. `OpenSpace conformance`. */
  title: string;
  /** `sim`, `theia`, or an MCP URL. */
  target: string;
  /** ISO 8601 times. */
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  tests: TestResult[];
  latency: LatencySeries[];
  summary: Summary;
  /** Free-form facts worth showing (node version, sample count, commit). */
  meta?: Record<string, string>;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function latencySeries(tool: string, budget: BudgetName, samples: readonly number[], budgetMs = BUDGET_MS[budget]): LatencySeries {
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  const p99 = percentile(samples, 99);
  return {
    tool,
    budget,
    budgetMs,
    samples: [...samples],
    p50,
    p95,
    p99,
    max: samples.length ? Math.max(...samples) : Number.NaN,
    withinBudget: samples.length > 0 && [p50, p95, p99].every((v) => v < budgetMs),
  };
}

/**
 * A second measurement taken because the first breached its budget (noise on a busy machine is not a
 * slow tool): the second series, carrying the first. Within budget exactly when the second is.
 */
export function remeasured(first: LatencySeries, second: LatencySeries): LatencySeries {
  return { ...second, firstAttempt: first };
}

/** "p50 1.2, p95 3.4, p99 5.6 ms over 100 samples" — and, for a remeasured series, the first measurement too. */
export function describeLatency(series: LatencySeries): string {
  const one = (l: LatencySeries) => `p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, p99 ${ms(l.p99)} ms over ${l.samples.length} samples`;
  const first = series.firstAttempt;
  return first ? `${one(first)}, then measured again: ${one(series)}` : one(series);
}

/** Milliseconds with three significant digits or so: 1.23, 12.3, 123. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

export function summarize(tests: readonly TestResult[], latency: readonly LatencySeries[] = []): Summary {
  const count = (s: Status) => tests.filter((t) => t.status === s).length;
  return {
    total: tests.length,
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
    budgetBreaches: latency.filter((l) => !l.withinBudget).length,
  };
}

/** A run fails when any test failed or any latency series breached its budget. */
export function reportPassed(report: RunReport): boolean {
  return report.summary.failed === 0 && report.summary.budgetBreaches === 0;
}

/** Fills in summary and durationMs from the rest; producers may build a report with this. */
export function finishReport(
  report: Omit<RunReport, 'summary' | 'durationMs'> & Partial<Pick<RunReport, 'summary' | 'durationMs'>>,
): RunReport {
  return {
    ...report,
    durationMs: report.durationMs ?? Date.parse(report.finishedAt) - Date.parse(report.startedAt),
    summary: summarize(report.tests, report.latency),
  };
}

/**
 * One report from the reports of a run's shards (`--shard i/n` on several machines): their tests
 * and latency series together, from the first start to the last finish. The shards must be of one
 * kind of run against one target.
 */
export function mergeReports(shards: readonly RunReport[]): RunReport {
  const [first] = shards;
  if (!first) throw new Error('No reports to merge.');
  for (const shard of shards) {
    if (shard.kind !== first.kind || shard.target !== first.target)
      throw new Error(`Cannot merge a ${shard.kind} run against ${shard.target} with a ${first.kind} run against ${first.target}.`);
  }
  // Every shard of the run, each once: a missing one would pass the run without its tests.
  const named = shards.map((r) => r.meta?.shard ?? '');
  const count = Number(named[0]?.split('/')[1]);
  const expected = Array.from({ length: count }, (_, i) => `${i + 1}/${count}`);
  if (!(count > 0) || [...named].sort().join() !== [...expected].sort().join())
    throw new Error(
      `The reports are shards ${named.map((n) => n || '(none)').join(', ')}; a merge needs each of ${expected.join(', ') || '1/n … n/n'} once.`,
    );
  const times = (pick: (r: RunReport) => string) => shards.map((r) => pick(r)).sort();
  const meta = { ...first.meta };
  delete meta.shard;
  return finishReport({
    kind: first.kind,
    title: first.title,
    target: first.target,
    startedAt: times((r) => r.startedAt)[0]!,
    finishedAt: times((r) => r.finishedAt).at(-1)!,
    tests: shards.flatMap((r) => r.tests),
    latency: shards.flatMap((r) => r.latency),
    meta: { ...meta, shards: String(shards.length) },
  });
}

/** A file name for a target: `sim`, `theia`, `127.0.0.1-3200-mcp` for http://127.0.0.1:3200/mcp. */
export function targetSlug(target: string): string {
  return target
    .replace(/^https?:\/\//, '')
    .replace(/[^a-zA-Z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
