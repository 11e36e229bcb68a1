/** A playback as a run report (conformance/report): one test per scenario, its steps, latency per tool. */
import { finishReport, latencySeries, type LatencySeries, type RunReport, type TestResult } from '../conformance/report/model.js';
import { TOOLS_BY_NAME } from '../src/families/index.js';
import type { ScenarioOutcome } from './player.js';

const INSTRUCTIONS = 'GET /openspace/instructions';

/**
 * Latency series (against each tool's budget) are added only when asked for: a scenario makes a
 * handful of calls per tool, the first on a freshly started IDE, so its p99 is its slowest call;
 * budgets are measured properly by the conformance suite and the benchmarks.
 */
export function scenarioReport(
  outcomes: ScenarioOutcome[],
  target: string,
  startedAt: Date,
  finishedAt: Date,
  options: { budgets?: boolean } = {},
): RunReport {
  const tests: TestResult[] = outcomes.map((o) => ({
    name: o.covers.length > 0 ? `${o.name} [${o.covers.join(', ')}]` : o.name,
    status: o.status,
    durationMs: o.durationMs,
    file: o.file,
    error: o.error,
    steps: o.steps.map((s) => ({
      name: `${s.index}. ${s.name}`,
      status: s.status,
      durationMs: s.durationMs,
      tool: s.tool,
      error: s.error,
    })),
  }));
  // Every round trip the steps made, per tool, against the tool's budget class.
  const samples = new Map<string, number[]>();
  for (const call of outcomes.flatMap((o) => o.steps.flatMap((s) => s.calls))) {
    if (!samples.has(call.tool)) samples.set(call.tool, []);
    samples.get(call.tool)!.push(call.durationMs);
  }
  const latency: LatencySeries[] = [];
  for (const [tool, values] of samples) {
    if (!options.budgets) continue;
    const def = TOOLS_BY_NAME.get(tool);
    if (def) latency.push(latencySeries(tool, def.budget, values));
    else if (tool === INSTRUCTIONS) latency.push(latencySeries(tool, 'instructions', values));
  }
  return finishReport({
    kind: 'scenario',
    title: 'OpenSpace scenarios',
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    tests,
    latency,
    meta: {
      node: process.version,
      scenarios: String(outcomes.length),
      'latency budgets': options.budgets ? 'checked (--budgets)' : 'not checked (play with --budgets to check them)',
    },
  });
}

/** `sim`, `theia`, or a URL made safe for a file name. */
export function reportBasename(target: string): string {
  return `scenarios-${target
    .replace(/^https?:\/\//, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}
