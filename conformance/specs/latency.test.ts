/// <reference types="vite/client" />
/**
 * NFR-3.2 latency budgets: N round trips per tool (OPENSPACE_LATENCY_SAMPLES, default 100: with
 * fewer, p99 is simply the slowest sample) through the
 * agent's MCP connection, p50/p95/p99 against the tool's budget (simple 100 ms, complex 500 ms), the
 * instructions endpoint (50 ms) and, where the suite starts the hub itself, hub start to ready (200 ms).
 * Every series is recorded in task.meta.latency for the report's charts; a percentile at or over
 * the budget is measured again with fresh samples (twice as many, up to 100), and fails the test when it breaches again. A few untimed warm-up calls go first (Theia loads Monaco on the first
 * open); setup and cleanup around a sample (opening what a close will close) are not timed. An open and
 * its close are measured in one loop (pane.open then pane.close, terminal.create then terminal.close,
 * each call after a settle), the close's test using those samples: the same calls on the same settled
 * IDE, at half the opening and closing.
 *
 * Each timed call goes to a settled IDE: an agent's calls arrive a model's thinking apart, not
 * back to back, so a sample measures one call, not that call plus the tail of the untimed step before
 * it (Theia repaints after a close for tens of milliseconds). Settled means: on Theia, the tabs the
 * previous command showed or closed after answering are in place (every command waits for that
 * first, so an agent never sees them missing) and then the window's main thread went idle
 * (requestIdleCallback, at most 1 s); on a running hub, SETTLE_MS later; the simulated IDE does
 * nothing after it answers.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { FAMILIES, TOOLS_BY_NAME } from '../../src/families/index.js';
import type { UntimedWorkload, LatencyWorkloads, Workload } from '../../src/families/latency.js';
import { BUDGET_MS, describeLatency, latencySeries, remeasured, type BudgetName, type LatencySeries } from '../report/model.js';
import type { Result } from '../client.js';
import { useTarget } from '../setup.js';
import { FIXTURE_WORKSPACE } from '../target.js';
import { makeRepository } from '../fixtures/git-repository.js';
import { BOARD, DECK, openDeckAndBoard as setUpDeckAndBoard } from '../fixtures/deck-and-board.js';

// A commit or a discard waits for the person's yes; what is timed is the IDE's work, not their answer.
const ctx = useTarget({ confirmations: false });

const SAMPLES = Math.max(1, Number(process.env.OPENSPACE_LATENCY_SAMPLES ?? 100) || 100);
/**
 * Samples of a measurement again after a breach: twice as many, up to 100. Under 100 samples p99 is
 * the slowest one, so a single stall of the machine breaches it; 100 give p99 its meaning (the
 * slowest but one), and a tool fails only when those breach too.
 */
const REMEASURE_SAMPLES = SAMPLES < 100 ? Math.min(100, 2 * SAMPLES) : SAMPLES;
/**
 * Untimed calls before a tool's samples: a few, as its first calls take paths no earlier tool took;
 * more before the file's first tool, while a freshly started Theia is still loading and optimising
 * its editor and terminal code (Monaco loads on the first open).
 */
const WARM_UP = 3;
const FIRST_WARM_UP = 10;
let warmUp = FIRST_WARM_UP;
/** A call slower than this is a hang, failing its test at once. */
const HANG_MS = 5_000;
/** Room for every sample (and its setup) on a slow target, beyond the usual test timeout. */
const TEST_TIMEOUT_MS = 30_000 + (2 * FIRST_WARM_UP + SAMPLES + REMEASURE_SAMPLES) * 500;

const SETTLE_MS = 50;

async function settle(): Promise<void> {
  const page = ctx.target.page;
  if (page) {
    // Runs in the window (this file is typed for Node, without the DOM's globals).
    type IdleWindow = {
      requestIdleCallback(run: () => void, options: { timeout: number }): number;
      openspaceProbe: { settled(): Promise<void> };
    };
    await page.evaluate(async () => {
      const window = globalThis as unknown as IdleWindow;
      await window.openspaceProbe.settled();
      await new Promise<void>((resolve) => window.requestIdleCallback(() => resolve(), { timeout: 1000 }));
    });
  } else if (!ctx.target.sim) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
}

function answerOrHang<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${HANG_MS} ms (a hang)`)), HANG_MS);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

const ok = (tool: string, args: Record<string, unknown> = {}) => ctx.agent.ok(tool, args);

let deckAndBoard: Promise<void> | undefined;
/** Once per file: the deck and the board the modality workloads use. */
const openDeckAndBoard = () => (deckAndBoard ??= setUpDeckAndBoard(ok));

/**
 * OPENSPACE_LATENCY_PART=I/N: this file times the I-th of N parts of the families (every N-th in
 * the registration list, from the I-th), and the hub's own budgets in the first. `npm test` times
 * the simulated IDE on disk in two parts at once: its calls take milliseconds against budgets of 100
 * and 500, and the git tools alone are 40% of it.
 */
const [PART, PARTS] = (process.env.OPENSPACE_LATENCY_PART ?? '1/1').split('/').map(Number) as [number, number];
const inPart = (_: unknown, i: number) => i % PARTS === PART - 1;

/**
 * A representative successful call of every tool (of this part's families), on the fixture
 * workspace: each family's src/families/<family>/latency.ts, in the registration list's order.
 */
const FAMILY_WORKLOADS = import.meta.glob<LatencyWorkloads>('../../src/families/*/latency.ts', { eager: true, import: 'default' });
const workloadsOf = (families: readonly (typeof FAMILIES)[number][]): Record<string, Workload | UntimedWorkload> =>
  Object.assign(
    {},
    ...families.map((family) => FAMILY_WORKLOADS[`../../src/families/${family.name}/latency.ts`]?.({ ok, openDeckAndBoard, DECK, BOARD })),
  );
const WORKLOADS = workloadsOf(FAMILIES.filter(inPart));

function record(task: { meta: { latency?: LatencySeries; tool?: string } }, series: LatencySeries): void {
  task.meta.latency = series;
  task.meta.tool = series.tool;
  expect(series.withinBudget, `${series.tool} over its ${series.budget} budget of ${series.budgetMs} ms: ${describeLatency(series)}`).toBe(
    true,
  );
}

let repository: Promise<unknown> | undefined;

/** Samples of a tool taken as another tool's undo, by tool; its own test takes them. */
const measuredBy = new Map<string, number[]>();

/** One timed call, which must succeed. */
async function timedCall(tool: string, args: Record<string, unknown>): Promise<{ elapsed: number; result: Result }> {
  const started = performance.now();
  const answer = await answerOrHang(ctx.agent.client.callTool({ name: tool, arguments: args }), `${tool} ${JSON.stringify(args)}`);
  const elapsed = performance.now() - started;
  const result = answer.structuredContent as Result;
  expect(result, `${tool} ${JSON.stringify(args)}: ${result?.error}`).toMatchObject({ success: true });
  return { elapsed, result };
}

/**
 * Samples of one tool: its warm-up calls, then SAMPLES timed ones. When a percentile breaches the
 * budget, the tool is measured again with fresh samples (REMEASURE_SAMPLES of them), and the budget
 * counts as breached only when both measurements breach it: one stall of a shared 2-core machine is
 * not a slow tool, a tool that is slow is slow twice. The report shows both measurements.
 */
async function measureTwiceOnBreach(
  tool: string,
  budget: BudgetName,
  measure: (samples: number) => Promise<number[]>,
  firstSamples?: number[],
): Promise<LatencySeries> {
  const first = latencySeries(tool, budget, firstSamples ?? (await measure(SAMPLES)));
  return first.withinBudget ? first : remeasured(first, latencySeries(tool, budget, await measure(REMEASURE_SAMPLES)));
}

describe(`latency: ${SAMPLES} round trips per tool within its budget (NFR-3.2.1)`, () => {
  it('covers every tool in the contract', () => {
    expect(Object.keys(workloadsOf(FAMILIES)).sort()).toEqual([...TOOLS_BY_NAME.keys()].sort());
  });

  // The order matters only in that terminal.send creates the terminal read_output reads.
  for (const [tool, workload] of Object.entries(WORKLOADS)) {
    const budget = TOOLS_BY_NAME.get(tool)!.budget;
    it(
      `${tool} p50/p95/p99 under ${BUDGET_MS[budget]} ms (${budget})`,
      async ({ task, skip }) => {
        if ('untimed' in workload) return skip(`not timed here: ${workload.untimed}`);
        if (workload.needs === 'disk' && !ctx.target.workspaceDir)
          return skip('the in-memory workspace has no directory for a program to read');
        if (workload.needs === 'repository') {
          if (!ctx.target.workspaceDir) return skip('the in-memory workspace is in no git repository');
          await (repository ??= Promise.resolve(makeRepository(ctx.target.workspaceDir, 'The fixture')));
        }
        await workload.before?.();
        const undone: number[] = [];
        // A measurement again after a breach goes on counting: its calls are new ones (a deck not created yet).
        let calls = 0;
        const measure = async (count: number) => {
          const samples: number[] = [];
          const untimed = warmUp;
          warmUp = WARM_UP;
          undone.length = 0;
          for (let i = 0; i < untimed + count; i++) {
            const n = calls++;
            const args = await workload.prepare(n);
            await settle();
            const { elapsed, result } = await timedCall(tool, args);
            if (i >= untimed) samples.push(elapsed);
            if (workload.undo) {
              await settle();
              const undo = await timedCall(workload.undo.tool, workload.undo.args(n, result));
              if (i >= untimed) undone.push(undo.elapsed);
            }
            await workload.cleanup?.(n, result);
          }
          return samples;
        };
        // Samples this tool's test got from another's undo: measured again alone only on a breach.
        const given = measuredBy.get(tool);
        measuredBy.delete(tool);
        const series = await measureTwiceOnBreach(tool, budget, measure, given);
        if (workload.undo && undone.length >= SAMPLES) measuredBy.set(workload.undo.tool, [...undone]);
        await workload.after?.();
        record(task, series);
      },
      2 * TEST_TIMEOUT_MS,
    );
  }
});

describe.runIf(PART === 1)('latency: the hub', () => {
  it(
    `GET /openspace/instructions p50/p95/p99 under ${BUDGET_MS.instructions} ms (NFR-3.2.3)`,
    async ({ task }) => {
      const measure = async (count: number) => {
        const samples: number[] = [];
        for (let i = 0; i < WARM_UP + count; i++) {
          const started = performance.now();
          const res = await fetch(`${ctx.target.origin}/openspace/instructions`, { headers: ctx.target.headers });
          await res.text();
          const elapsed = performance.now() - started;
          expect(res.status).toBe(200);
          if (i >= WARM_UP) samples.push(elapsed);
        }
        return samples;
      };
      record(task, await measureTwiceOnBreach('GET /openspace/instructions', 'instructions', measure));
    },
    2 * TEST_TIMEOUT_MS,
  );

  // Only where the suite starts the hub: in process, from the call that starts it to the first
  // tools/list answered (NFR-3.2.2 counts from backend start, so Node's own start is not in it).
  const startsHub = (process.env.OPENSPACE_TARGET ?? 'sim') === 'sim';
  it.runIf(startsHub)(
    `hub start to ready (tools/list answered) under ${BUDGET_MS.ready} ms (NFR-3.2.2)`,
    async ({ task }) => {
      const { startSimHub } = await import('../../sim/start.js');
      const measure = async (count: number) => {
        const samples: number[] = [];
        const starts = Math.min(count, 10);
        for (let i = 0; i < starts + 1; i++) {
          const started = performance.now();
          const sim = await startSimHub({ workspace: { kind: 'memory', seedDir: FIXTURE_WORKSPACE }, lockFile: false });
          try {
            await listToolsRaw(sim.server.mcpUrl, sim.server.token);
            // The first start also loads the simulated IDE's modules into this worker: a warm-up.
            if (i > 0) samples.push(performance.now() - started);
          } finally {
            await sim.close();
          }
        }
        return samples;
      };
      record(task, await measureTwiceOnBreach('hub ready', 'ready', measure));
    },
    2 * TEST_TIMEOUT_MS,
  );
});

/** initialize, initialized, tools/list as raw JSON-RPC, so the time is the hub's and not a client's. */
async function listToolsRaw(mcpUrl: string, token: string | undefined): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const post = async (body: unknown, session?: string) => {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: session ? { ...headers, 'mcp-session-id': session } : headers,
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${res.status} ${text}`);
    return { res, text };
  };
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ready-probe', version: '1' } },
  });
  const session = init.res.headers.get('mcp-session-id') ?? undefined;
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
  expect(list.text).toContain('openspace.editor.open');
}
