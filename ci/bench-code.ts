/**
 * Code intelligence on a generated 2,000-file TypeScript project, run by `npm run bench` (and alone:
 * `node --import tsx ci/bench-code.ts`): a hub on the simulated IDE over the project on disk, an
 * MCP client, the real typescript-language-server. Reports the time from starting the hub to the
 * first diagnostics answer (server start and project load included), then p50/p99 of
 * diagnostics.list on a file just written, symbols.search and code.definition, each beside a ping
 * of the same connection in the same run.
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
import { connectAgent } from '../conformance/client.js';
import { percentile } from '../conformance/report/model.js';
import { startSimHub } from '../sim/start.js';

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

export async function benchCode(samples = 100) {
  const project = makeProject();
  const started = performance.now();
  const sim = await startSimHub({ workspace: { kind: 'disk', root: project }, consent: 'granted', maxCallsPerTurn: 0, lockFile: false });
  const agent = await connectAgent({ mcpUrl: sim.server.mcpUrl, token: sim.server.token }, 'bench-code');
  const target = 'packages/pkg20/src/mod25.ts';
  let firstAnswerMs: number | undefined;
  const rows: Array<{ op: string; p50: number; p99: number; pingP50: number; pingP99: number }> = [];
  try {
    // The first answer: the server starts and loads the project.
    for (;;) {
      const answer = await agent.call('openspace.diagnostics.list', { path: target });
      if (answer.success) break;
      if (answer.code !== 'LSP_NOT_READY') throw new Error(`diagnostics.list failed: ${JSON.stringify(answer)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    firstAnswerMs = performance.now() - started;
    let n = 0;
    const ops: Array<{ op: string; prepare?: () => Promise<unknown>; run: () => Promise<unknown> }> = [
      {
        op: 'diagnostics.list (file just written)',
        prepare: () =>
          agent.ok('openspace.file.write', {
            path: 'packages/pkg0/src/bench.ts',
            content: `import { step0_49 } from './mod49.js';\nexport const n: number = step0_49(${++n % 2 ? "'x'" : '1'});\n`,
          }),
        run: () => agent.ok('openspace.diagnostics.list', { path: 'packages/pkg0/src/bench.ts' }),
      },
      { op: 'symbols.search', run: () => agent.ok('openspace.symbols.search', { query: `Worker${++n % PACKAGES}_7` }) },
      { op: 'code.definition', run: () => agent.ok('openspace.code.definition', { path: target, line: 5, column: 10 }) },
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
  } finally {
    await agent.close();
    await sim.close();
  }
  const f = (x: number) => x.toFixed(1);
  console.log(
    `\nCode intelligence on a generated ${PACKAGES * MODULES}-file TypeScript project (simulated IDE on disk, typescript-language-server)\n`,
  );
  console.log(`hub start to the first diagnostics answer (server start and project load): ${firstAnswerMs?.toFixed(0)} ms\n`);
  console.log('| operation | p50 ms | p99 ms | ping p50 | ×ping p50 | ×ping p99 |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(`| ${r.op} | ${f(r.p50)} | ${f(r.p99)} | ${r.pingP50.toFixed(2)} | ${f(r.p50 / r.pingP50)} | ${f(r.p99 / r.pingP99)} |`);
  console.log('\nAim: p99 ≤ 200 ms warm (budget 500 ms).');
  return { files: PACKAGES * MODULES, firstAnswerMs, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchCode();
