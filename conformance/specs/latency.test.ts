/**
 * NFR-3.2 latency budgets: N round trips per tool (OPENSPACE_LATENCY_SAMPLES, default 100: with
 * fewer, p99 is simply the slowest sample) through the
 * agent's MCP connection, p50/p95/p99 against the tool's budget (simple 100 ms, complex 500 ms), the
 * instructions endpoint (50 ms) and, where the suite starts the hub itself, hub start to ready (200 ms).
 * Every series is recorded in task.meta.latency for the report's charts; a percentile at or over
 * the budget is measured again with fresh samples, and fails the test when it breaches again. A few untimed warm-up calls go first (Theia loads Monaco on the first
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
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { TOOLS_BY_NAME, type ToolName } from '../../src/families/index.js';
import { BUDGET_MS, describeLatency, latencySeries, remeasured, type BudgetName, type LatencySeries } from '../report/model.js';
import type { Result } from '../client.js';
import { useTarget } from '../setup.js';
import { FIXTURE_WORKSPACE } from '../target.js';
import { BOARD, DECK, openDeckAndBoard as setUpDeckAndBoard } from '../fixtures/deck-and-board.js';

// The SDK's HTTP client transport leaves an abort listener per request on one signal; thousands of
// requests on one connection are expected here.
setMaxListeners(0);

const ctx = useTarget();

const SAMPLES = Math.max(1, Number(process.env.OPENSPACE_LATENCY_SAMPLES ?? 100) || 100);
/** Untimed calls first: Theia loads Monaco on the first open, and V8 optimises a path over its first runs. */
const WARM_UP = 10;
/** A call slower than this is a hang, failing its test at once. */
const HANG_MS = 5_000;
/** Room for every sample (and its setup) on a slow target, beyond the usual test timeout. */
const TEST_TIMEOUT_MS = 30_000 + (WARM_UP + SAMPLES) * 500;

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

interface Workload {
  /** Untimed, once before the samples. */
  before?: () => Promise<void>;
  /** Untimed, before each sample; returns the arguments of the timed call. */
  prepare: (i: number) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Untimed, after each sample. */
  cleanup?: (i: number, result: Result) => Promise<void>;
  /** Untimed, once after the samples: leaves the IDE as the next tool's workload expects it. */
  after?: () => Promise<void>;
  /**
   * Instead of an untimed cleanup: the call that undoes the sample, itself timed (after a settle) as
   * a sample of its own tool, whose test then uses these samples. An open and a close measured in
   * one loop cost Theia one open and one close per pair of samples, not two of each.
   */
  undo?: { tool: ToolName; args: (i: number, result: Result) => Record<string, unknown> };
}

const ok = (tool: string, args: Record<string, unknown> = {}) => ctx.agent.ok(tool, args);
let sendTerminal = '';
let runTerminal = '';
let mainPane = '';
let splitPane = '';
let patchVersion = '';
let restoreVersion = '';

let deckAndBoard: Promise<void> | undefined;
/** Once per file: the deck and the board the modality workloads use. */
const openDeckAndBoard = () => (deckAndBoard ??= setUpDeckAndBoard(ok));

/** A representative successful call of every tool, on the fixture workspace. */
const WORKLOADS: Record<ToolName, Workload> = {
  'openspace.pane.open': {
    // Beside a file the person has open, as an agent mostly does (into an empty editor area, Theia
    // first builds the area's tab bar: about 10 ms more here).
    before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
    prepare: () => ({ type: 'editor', contentId: 'notes.txt' }),
    undo: { tool: 'openspace.pane.close', args: () => ({ contentId: 'notes.txt' }) },
  },
  // Measured with pane.open above (its undo); on its own when run alone.
  'openspace.pane.close': {
    prepare: async () => {
      await ok('openspace.pane.open', { type: 'editor', contentId: 'README.md' });
      return { contentId: 'README.md' };
    },
  },
  'openspace.pane.focus': {
    before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
    prepare: () => ({ contentId: 'src/index.ts' }),
  },
  'openspace.pane.list': { prepare: () => ({}) },
  'openspace.pane.resize': {
    // A real resize: the editor area split in two, the left pane made 40% or 60% of the window wide.
    before: async () => {
      await ok('openspace.editor.open', { path: 'src/index.ts' });
      splitPane = (await ok('openspace.pane.open', { type: 'editor', contentId: 'docs/guide.md', splitDirection: 'vertical' })).paneId;
      const { panes } = await ok('openspace.pane.list');
      mainPane = panes.find((p: { area: string; id: string }) => p.area === 'main' && p.id !== splitPane).id;
    },
    prepare: (i) => ({ paneId: mainPane, width: i % 2 ? 40 : 60 }),
    after: async () => void (await ok('openspace.pane.close', { paneId: splitPane })),
  },
  'openspace.editor.open': { prepare: (i) => ({ path: 'src/index.ts', line: i % 2 ? 42 : 80 }) },
  'openspace.editor.read_file': { prepare: () => ({ path: 'src/index.ts', startLine: 1, endLine: 50 }) },
  'openspace.editor.close': {
    prepare: async () => {
      await ok('openspace.editor.open', { path: 'notes.txt' });
      return { path: 'notes.txt' };
    },
  },
  'openspace.editor.scroll_to': {
    before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
    prepare: (i) => ({ path: 'src/index.ts', line: i % 2 ? 10 : 90 }),
  },
  'openspace.editor.highlight': {
    before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
    prepare: () => ({ path: 'src/index.ts', ranges: [{ startLine: 42, endLine: 50 }], highlightId: 'latency' }),
  },
  'openspace.editor.clear_highlight': {
    before: async () => void (await ok('openspace.editor.open', { path: 'src/index.ts' })),
    prepare: async () => {
      await ok('openspace.editor.highlight', {
        path: 'src/index.ts',
        ranges: [{ startLine: 1, endLine: 2 }],
        highlightId: 'latency-clear',
      });
      return { highlightId: 'latency-clear' };
    },
  },
  'openspace.terminal.create': {
    prepare: (i) => ({ title: `latency-create-${i}` }),
    undo: { tool: 'openspace.terminal.close', args: (_i, result) => ({ terminalId: result.terminalId }) },
  },
  'openspace.terminal.send': {
    before: async () => void (sendTerminal = (await ok('openspace.terminal.create', { title: 'latency-send' })).terminalId),
    prepare: (i) => ({ terminalId: sendTerminal, text: `echo sample-${i}` }),
    // The command ended before the next send is timed, as an agent reads its output between sends:
    // a send to a shell still printing waits for its prompt (up to 500 ms), which is not the send's time.
    cleanup: async () => void (await commandEnded(sendTerminal)),
  },
  'openspace.terminal.read_output': { prepare: () => ({ terminalId: sendTerminal, lines: 20 }) },
  // A quick command, from typing it to its exit status (shell integration's end mark).
  'openspace.terminal.run': {
    before: async () => void (runTerminal = (await ok('openspace.terminal.create', { title: 'latency-run' })).terminalId),
    prepare: () => ({ terminalId: runTerminal, command: 'true' }),
  },
  'openspace.terminal.list': { prepare: () => ({}) },
  // Measured with terminal.create above (its undo); on its own when run alone.
  'openspace.terminal.close': {
    prepare: async (i) => ({ terminalId: (await ok('openspace.terminal.create', { title: `latency-close-${i}` })).terminalId }),
  },
  'openspace.file.read': { prepare: () => ({ path: 'src/index.ts' }) },
  'openspace.file.write': { prepare: (i) => ({ path: 'latency.txt', content: `sample ${i}\n` }) },
  'openspace.file.list': { prepare: () => ({ recursive: true }) },
  'openspace.file.search': { prepare: () => ({ query: 'function' }) },
  'openspace.file.patch': {
    before: async () => void (patchVersion = (await ok('openspace.file.write', { path: 'patch.txt', content: 'first\n' })).version),
    prepare: (i) => ({ path: 'patch.txt', baseVersion: patchVersion, operations: [{ type: 'append', content: `line ${i}\n` }] }),
    cleanup: async (_i, result) => void (patchVersion = result.version),
  },
  'openspace.file.snapshots': { prepare: () => ({ path: 'src/index.ts' }) },
  'openspace.file.restore': {
    before: async () => {
      restoreVersion = (await ok('openspace.file.write', { path: 'restore.txt', content: 'one\n' })).version;
      await ok('openspace.file.write', { path: 'restore.txt', content: 'two\n' });
    },
    prepare: () => ({ path: 'restore.txt', version: restoreVersion }),
  },
  // Presentations and whiteboards: a 5-slide deck and a board with six shapes, both open beside the code.
  'openspace.presentation.list': { before: openDeckAndBoard, prepare: () => ({}) },
  'openspace.presentation.read': { before: openDeckAndBoard, prepare: () => ({ deckPath: DECK }) },
  'openspace.presentation.create': {
    prepare: (i) => ({ deckPath: `latency/new-${i}.deck.md`, title: `Deck ${i}` }),
  },
  'openspace.presentation.update_slide': {
    before: openDeckAndBoard,
    prepare: (i) => ({ deckPath: DECK, slideIndex: i % 5, content: `## Slide ${i % 5}\n\nChanged ${i} times.` }),
  },
  'openspace.presentation.open': { before: openDeckAndBoard, prepare: (i) => ({ deckPath: DECK, slideIndex: i % 5 }) },
  'openspace.presentation.navigate': { before: openDeckAndBoard, prepare: (i) => ({ deckPath: DECK, slideIndex: i % 5 }) },
  'openspace.presentation.play': {
    before: openDeckAndBoard,
    prepare: () => ({ deckPath: DECK, intervalMs: 60_000 }),
    cleanup: async () => void (await ok('openspace.presentation.stop', { deckPath: DECK })),
  },
  'openspace.presentation.pause': {
    before: openDeckAndBoard,
    prepare: async () => {
      await ok('openspace.presentation.play', { deckPath: DECK, intervalMs: 60_000 });
      return { deckPath: DECK };
    },
  },
  'openspace.presentation.stop': { before: openDeckAndBoard, prepare: () => ({ deckPath: DECK }) },
  'openspace.whiteboard.list': { before: openDeckAndBoard, prepare: () => ({}) },
  'openspace.whiteboard.read': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
  'openspace.whiteboard.create': { prepare: (i) => ({ whiteboardId: `latency/new-${i}.whiteboard.json`, title: `Board ${i}` }) },
  'openspace.whiteboard.add_shape': {
    before: openDeckAndBoard,
    prepare: (i) => ({ whiteboardId: BOARD, shape: { type: 'box', id: `added-${i}`, label: `Added ${i}` } }),
    cleanup: async (i) => void (await ok('openspace.whiteboard.delete_shape', { whiteboardId: BOARD, shapeId: `added-${i}` })),
  },
  'openspace.whiteboard.update_shape': {
    before: openDeckAndBoard,
    prepare: (i) => ({ whiteboardId: BOARD, shapeId: 'api', updates: { x: (i % 2) * 100, label: `API ${i}` } }),
  },
  'openspace.whiteboard.delete_shape': {
    before: openDeckAndBoard,
    prepare: async (i) => {
      await ok('openspace.whiteboard.add_shape', { whiteboardId: BOARD, shape: { type: 'note', id: `gone-${i}`, label: 'soon gone' } });
      return { whiteboardId: BOARD, shapeId: `gone-${i}` };
    },
  },
  'openspace.whiteboard.open': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
  'openspace.whiteboard.camera.set': { before: openDeckAndBoard, prepare: (i) => ({ whiteboardId: BOARD, x: i * 10, y: 0, zoom: 1 }) },
  'openspace.whiteboard.camera.fit': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
  'openspace.whiteboard.camera.get': { before: openDeckAndBoard, prepare: () => ({ whiteboardId: BOARD }) },
  'openspace.whiteboard.layout': {
    before: openDeckAndBoard,
    prepare: (i) => ({ whiteboardId: BOARD, direction: i % 2 ? 'right' : 'down' }),
  },
  'openspace.modality.list': { before: openDeckAndBoard, prepare: () => ({}) },
  'openspace.modality.focus': { before: openDeckAndBoard, prepare: (i) => ({ modalityId: i % 2 ? 'presentation' : 'whiteboard' }) },
  // One line of an open file's buffer replaced, by turns with one and two lines.
  'openspace.editor.replace_range': {
    before: async () => void (await ok('openspace.file.write', { path: 'latency/replace.txt', content: 'a\nb\nc\n' })),
    prepare: (i) => ({ path: 'latency/replace.txt', startLine: 2, endLine: 2 + (i % 2), newText: i % 2 ? `b${i}` : `b${i}\nc` }),
  },
  // One proposal revised on every call, answered pending at once: the time to show its diff.
  'openspace.editor.propose_edit': {
    before: async () => void (await ok('openspace.file.write', { path: 'latency/proposal.txt', content: 'base\n' })),
    prepare: (i) => ({ path: 'latency/proposal.txt', newText: `proposed ${i}\n`, proposalId: 'latency', timeoutMs: 0 }),
  },
  'openspace.events.query': { prepare: (i) => (i % 2 ? { limit: 50 } : { since: 0, types: ['file.saved', 'file.opened'] }) },
  'openspace.events.configure': { prepare: (i) => (i % 2 ? { ignore: ['layout.changed'] } : { receive: ['layout.changed'] }) },
  // The whole context with an editor, a deck and a board open.
  'openspace.context.get': { before: openDeckAndBoard, prepare: () => ({}) },
  // Code intelligence on the fixture's code/ project, the language server warm: diagnostics of a
  // file just written (untimed), with and without an error by turns.
  'openspace.diagnostics.list': {
    before: warmCode,
    prepare: async (i) => {
      await ok('openspace.file.write', { path: 'code/src/latency.ts', content: `export const n: number = ${i % 2 ? `'${i}'` : i};\n` });
      return { path: 'code/src/latency.ts' };
    },
  },
  'openspace.symbols.search': { before: warmCode, prepare: (i) => ({ query: i % 2 ? 'TaskStore' : 'formatTask' }) },
  'openspace.symbols.outline': { before: warmCode, prepare: () => ({ path: 'code/src/task-store.ts' }) },
  'openspace.code.definition': { before: warmCode, prepare: () => ({ path: 'code/src/app.ts', line: 11, column: 42 }) },
  'openspace.code.references': {
    before: warmCode,
    prepare: (i) => (i % 2 ? { symbol: 'TaskStore.add' } : { path: 'code/src/task-store.ts', line: 2, column: 18 }),
  },
  'openspace.code.hover': { before: warmCode, prepare: () => ({ path: 'code/src/app.ts', line: 5, column: 7 }) },
};

let lastFinished: string | undefined;

/** Until the terminal's last command has ended (shell integration's end mark), at most 2 s. */
async function commandEnded(terminalId: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const { lastCommand } = await ok('openspace.terminal.read_output', { terminalId, lines: 1 });
    if (lastCommand && lastCommand.finishedAt !== lastFinished) {
      lastFinished = lastCommand.finishedAt;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The language server started and its project loaded (the cold start is the bench's to report). */
async function warmCode(): Promise<void> {
  await ok('openspace.diagnostics.list', { path: 'code' });
}

function record(task: { meta: { latency?: LatencySeries; tool?: string } }, series: LatencySeries): void {
  task.meta.latency = series;
  task.meta.tool = series.tool;
  expect(series.withinBudget, `${series.tool} over its ${series.budget} budget of ${series.budgetMs} ms: ${describeLatency(series)}`).toBe(
    true,
  );
}

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
 * budget, the tool is measured again with fresh samples, and the budget counts as breached only
 * when both measurements breach it: one stall of a shared 2-core machine is not a slow tool, a tool
 * that is slow is slow twice. The report shows both measurements.
 */
async function measureTwiceOnBreach(
  tool: string,
  budget: BudgetName,
  measure: () => Promise<number[]>,
  firstSamples?: number[],
): Promise<LatencySeries> {
  const first = latencySeries(tool, budget, firstSamples ?? (await measure()));
  return first.withinBudget ? first : remeasured(first, latencySeries(tool, budget, await measure()));
}

describe(`latency: ${SAMPLES} round trips per tool within its budget (NFR-3.2.1)`, () => {
  it('covers every tool in the contract', () => {
    expect(Object.keys(WORKLOADS).sort()).toEqual([...TOOLS_BY_NAME.keys()].sort());
  });

  // The order matters only in that terminal.send creates the terminal read_output reads.
  for (const [tool, workload] of Object.entries(WORKLOADS)) {
    const budget = TOOLS_BY_NAME.get(tool)!.budget;
    it(
      `${tool} p50/p95/p99 under ${BUDGET_MS[budget]} ms (${budget})`,
      async ({ task }) => {
        await workload.before?.();
        const undone: number[] = [];
        const measure = async () => {
          const samples: number[] = [];
          undone.length = 0;
          for (let i = 0; i < WARM_UP + SAMPLES; i++) {
            const args = await workload.prepare(i);
            await settle();
            const { elapsed, result } = await timedCall(tool, args);
            if (i >= WARM_UP) samples.push(elapsed);
            if (workload.undo) {
              await settle();
              const undo = await timedCall(workload.undo.tool, workload.undo.args(i, result));
              if (i >= WARM_UP) undone.push(undo.elapsed);
            }
            await workload.cleanup?.(i, result);
          }
          return samples;
        };
        // Samples this tool's test got from another's undo: measured again alone only on a breach.
        const given = measuredBy.get(tool);
        measuredBy.delete(tool);
        const series = await measureTwiceOnBreach(tool, budget, measure, given);
        if (workload.undo && undone.length === SAMPLES) measuredBy.set(workload.undo.tool, [...undone]);
        await workload.after?.();
        record(task, series);
      },
      2 * TEST_TIMEOUT_MS,
    );
  }
});

describe('latency: the hub', () => {
  it(
    `GET /openspace/instructions p50/p95/p99 under ${BUDGET_MS.instructions} ms (NFR-3.2.3)`,
    async ({ task }) => {
      const measure = async () => {
        const samples: number[] = [];
        for (let i = 0; i < WARM_UP + SAMPLES; i++) {
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
      const measure = async () => {
        const samples: number[] = [];
        const starts = Math.min(SAMPLES, 10);
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
