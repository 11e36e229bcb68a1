/**
 * Start-up as an MCP client that spawns its server sees it: spawn → connected → first tools/list
 * answered, for the bundled hub on the simulated IDE over stdio (`npm start -- --stdio`) and for a
 * bare MCP SDK server with one tool (the floor), cold starts taken in turns with the same client.
 * Run alone with `node --import tsx ci/bench-startup.ts`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const HUB = fileURLToPath(new URL('../dist/openspace-sim.mjs', import.meta.url));
const FLOOR = fileURLToPath(new URL('./bench-startup-floor.mjs', import.meta.url));

interface Series {
  p50: number;
  p95: number;
  min: number;
  max: number;
  tools: number;
}

/** One cold start: spawn, initialize, tools/list; the time until tools/list answered. */
async function coldStart(script: string, args: string[], env: Record<string, string>): Promise<{ ms: number; tools: number }> {
  const started = performance.now();
  const client = new Client({ name: 'bench-startup', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script, ...args], env, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  return { ms, tools: tools.length };
}

function series(runs: { ms: number; tools: number }[]): Series {
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), min: sorted[0]!, max: sorted.at(-1)!, tools: runs[0]!.tools };
}

export async function benchStartup(starts = 10): Promise<{ hub: Series; floor: Series; ratioP50: number }> {
  const env = { ...(process.env as Record<string, string>), OPENSPACE_LOCK_DIR: mkdtempSync(join(tmpdir(), 'openspace-bench-startup-')) };
  const hub: { ms: number; tools: number }[] = [];
  const floor: { ms: number; tools: number }[] = [];
  // One warm-up each (disk cache), then in turns so both meet the same machine.
  await coldStart(HUB, ['--stdio'], env);
  await coldStart(FLOOR, [], env);
  for (let i = 0; i < starts; i++) {
    hub.push(await coldStart(HUB, ['--stdio'], env));
    floor.push(await coldStart(FLOOR, [], env));
  }
  const result = { hub: series(hub), floor: series(floor), ratioP50: 0 };
  result.ratioP50 = result.hub.p50 / result.floor.p50;
  const row = (name: string, s: Series) =>
    `| ${name} | ${s.tools} | ${s.p50.toFixed(0)} | ${s.p95.toFixed(0)} | ${s.min.toFixed(0)} | ${s.max.toFixed(0)} |`;
  console.log(`\nStart-up over stdio as a client sees it: spawn → first tools/list answered, ${starts} cold starts each, ms`);
  console.log('\n| server | tools | p50 | p95 | min | max |\n|---|---:|---:|---:|---:|---:|');
  console.log(row('openspace hub (simulated IDE, --stdio)', result.hub));
  console.log(row('bare MCP SDK server, one tool (floor)', result.floor));
  console.log(`\nhub ÷ floor at p50: ${result.ratioP50.toFixed(2)}×`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();
