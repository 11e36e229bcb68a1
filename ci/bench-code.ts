/**
 * Code intelligence, run by `npm run bench` (and alone: `node --import tsx ci/bench-code.ts`): on the
 * demo workspace and on a generated 2,000-file TypeScript project, on the simulated IDE and on
 * Theia (installed and built first when needed), an MCP client and the real typescript-language-server.
 * Reports the time from starting the IDE to the first diagnostics answer (server start and project
 * load included), then p50/p99 of diagnostics.list on a file just written, symbols.search and
 * code.definition, each beside a ping of the same connection in the same run.
 *
 * The project: 40 packages × 50 modules; module i of a package imports module i−1's function and
 * calls it, so definitions and references cross files. Made once under the system's temporary
 * directory, keyed by PROJECT_VERSION.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { connectAgent, type Agent } from '../conformance/client.js';
import { percentile } from '../conformance/report/model.js';
import { startTheiaTarget } from '../conformance/theia-target.js';
import { startSimHub } from '../sim/start.js';
import { DEMO_WORKSPACE } from '../sim/workspace.js';
import { prepareTheia } from '../conformance/theia-launch.js';

const PROJECT_VERSION = 'code-project-1';
const PACKAGES = 40;
const MODULES = 50;

function makeProject(): string {
  const dir = join(tmpdir(), `openspace-bench-${PROJECT_VERSION}`);
  if (existsSync(dir)) return dir;
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  for (let p = 0; p < PACKAGES; p++) {
    const pkg = join(building, 'packages', `pkg${p}`, 'src');
    mkdirSync(pkg, { recursive: true });
    for (let m = 0; m < MODULES; m++) {
      const previous = m === 0 ? '' : `import { step${p}_${m - 1} } from './mod${m - 1}.js';\n\n`;
      const body = m === 0 ? 'return input.length;' : `return step${p}_${m - 1}(input) + ${m};`;
      writeFileSync(
        join(pkg, `mod${m}.ts`),
        `${previous}/** Step ${m} of package ${p}. */\nexport function step${p}_${m}(input: string): number {\n  ${body}\n}\n\n` +
          `export class Worker${p}_${m} {\n  run(input: string): number {\n    return step${p}_${m}(input);\n  }\n}\n`,
      );
    }
  }
  writeFileSync(
    join(building, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ES2022', moduleResolution: 'Bundler', strict: true, noEmit: true, types: [] },
    }),
  );
  renameSync(building, dir);
  return dir;
}

const stats = (samples: number[]) => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });

/** What is asked of a workspace: a file's diagnostics just after writing it, a symbol search, a definition. */
interface Workload {
  name: string;
  /** The directory the IDE opens; absent: the simulated IDE's in-memory demo workspace (Theia opens DEMO_WORKSPACE). */
  dir?: string;
  /** A file with a call in it, and the call's text. */
  target: string;
  call: string;
  /** The n-th text of a file the bench writes and asks about: one with an error, the next without. */
  written: { path: string; content: (n: number) => string };
  query: (n: number) => string;
}

const DEMO: Workload = {
  name: 'demo workspace',
  target: 'src/index.ts',
  call: 'listTasks(session.user',
  written: {
    path: 'src/bench.ts',
    content: (n) => `import { listTasks } from './tasks.js';\nexport const n: number = ${n % 2 ? "'x'" : 'listTasks.length'};\n`,
  },
  query: (n) => ['createTask', 'listTasks', 'authenticate', 'HttpError'][n % 4]!,
};

const project = (dir: string): Workload => ({
  name: `generated ${PACKAGES * MODULES}-file project`,
  dir,
  target: 'packages/pkg20/src/mod25.ts',
  call: 'step20_24(input)',
  written: {
    path: 'packages/pkg0/src/bench.ts',
    content: (n) => `import { step0_49 } from './mod49.js';\nexport const n: number = step0_49(${n % 2 ? "'x'" : '1'});\n`,
  },
  query: (n) => `Worker${n % PACKAGES}_7`,
});

interface Row {
  op: string;
  p50: number;
  p99: number;
  pingP50: number;
  pingP99: number;
}

/** Start an IDE on the workload's workspace, with an agent connected. */
async function start(ide: 'simulated IDE' | 'Theia', workload: Workload): Promise<{ agent: Agent; close(): Promise<void> }> {
  if (ide === 'Theia') {
    const theia = await startTheiaTarget(workload.dir ?? DEMO_WORKSPACE);
    const agent = await connectAgent(theia, 'bench-code');
    return { agent, close: async () => (await agent.close(), await theia.close()) };
  }
  const workspace = workload.dir ? ({ kind: 'disk', root: workload.dir } as const) : ({ kind: 'memory' } as const);
  const sim = await startSimHub({ workspace, consent: 'granted', maxCallsPerTurn: 0, lockFile: false });
  const agent = await connectAgent({ mcpUrl: sim.server.mcpUrl, token: sim.server.token }, 'bench-code');
  return { agent, close: async () => (await agent.close(), await sim.close()) };
}

/** Where `text` first is in a file, 1-based. */
async function positionOf(agent: Agent, path: string, text: string): Promise<{ line: number; column: number }> {
  const lines: string[] = (await agent.ok('openspace.file.read', { path })).content.split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  if (line < 0) throw new Error(`${text} is not in ${path}`);
  return { line: line + 1, column: lines[line]!.indexOf(text) + 1 };
}

async function measure(ide: 'simulated IDE' | 'Theia', workload: Workload, samples: number) {
  const started = performance.now();
  const { agent, close } = await start(ide, workload);
  const rows: Row[] = [];
  try {
    // The first answer: the server starts and loads the project.
    for (;;) {
      const answer = await agent.call('openspace.diagnostics.list', { path: workload.target });
      if (answer.success) break;
      if (answer.code !== 'LSP_NOT_READY') throw new Error(`diagnostics.list failed: ${JSON.stringify(answer)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const firstAnswerMs = performance.now() - started;
    const at = await positionOf(agent, workload.target, workload.call);
    let n = 0;
    const ops: Array<{ op: string; prepare?: () => Promise<unknown>; run: () => Promise<unknown> }> = [
      {
        op: 'diagnostics.list (file just written)',
        prepare: () => agent.ok('openspace.file.write', { path: workload.written.path, content: workload.written.content(++n) }),
        run: () => agent.ok('openspace.diagnostics.list', { path: workload.written.path }),
      },
      { op: 'symbols.search', run: () => agent.ok('openspace.symbols.search', { query: workload.query(++n) }) },
      { op: 'code.definition', run: () => agent.ok('openspace.code.definition', { path: workload.target, ...at }) },
    ];
    for (const { op, prepare, run } of ops) {
      for (let i = 0; i < 10; i++) {
        await prepare?.();
        await run();
      }
      const times: number[] = [];
      const pings: number[] = [];
      for (let i = 0; i < samples; i++) {
        await prepare?.();
        let t = performance.now();
        await agent.client.ping();
        pings.push(performance.now() - t);
        t = performance.now();
        await run();
        times.push(performance.now() - t);
      }
      const s = stats(times);
      const p = stats(pings);
      rows.push({ op, ...s, pingP50: p.p50, pingP99: p.p99 });
    }
    return { ide, workspace: workload.name, firstAnswerMs, rows };
  } finally {
    await close();
  }
}

export async function benchCode(samples = 100) {
  const workloads = [DEMO, project(makeProject())];
  prepareTheia();
  const results = [];
  for (const workload of workloads)
    for (const ide of ['simulated IDE', 'Theia'] as const) results.push(await measure(ide, workload, samples));
  const f = (x: number) => x.toFixed(1);
  console.log('\nCode intelligence (typescript-language-server), ms over MCP on 127.0.0.1\n');
  console.log('| IDE | workspace | start to first answer | operation | p50 | p99 | ping p50 | ×ping p50 | ×ping p99 |');
  console.log('|---|---|---:|---|---:|---:|---:|---:|---:|');
  for (const { ide, workspace, firstAnswerMs, rows } of results) {
    for (const r of rows) {
      const first = r === rows[0] ? firstAnswerMs.toFixed(0) : '';
      console.log(
        `| ${ide} | ${workspace} | ${first} | ${r.op} | ${f(r.p50)} | ${f(r.p99)} | ${r.pingP50.toFixed(2)} | ${f(r.p50 / r.pingP50)} | ${f(r.p99 / r.pingP99)} |`,
      );
    }
  }
  console.log(
    '\nStart to first answer: the IDE starting (for Theia, its backend, Chromium and the page), the server starting and loading the project.',
  );
  console.log('Aim: p99 ≤ 200 ms warm (budget 500 ms).');
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchCode();
