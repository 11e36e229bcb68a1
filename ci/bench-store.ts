/**
 * The artifact store's part of `npm run bench`: file.write and file.patch latency (p50/p99) for 1 KB,
 * 100 KB and 5 MB files, and the throughput of 10 concurrent writers (10 MCP sessions) on distinct
 * files, all through an MCP client over HTTP. Every write is atomic (temporary file, fsync, rename,
 * directory fsync), kept as a snapshot and audited, so these are the costs an agent sees.
 *
 * Without a hub given, it starts the bundled simulated IDE on a temporary directory (a real disk, so
 * fsync is real); given one (Theia), it writes under `bench-store/` in that hub's workspace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connectAgent, type HubEndpoint } from '../conformance/client.js';

const CLI = fileURLToPath(new URL('../dist/openspace-sim.mjs', import.meta.url));

export interface StoreBenchOptions {
  /** A running hub; default: start the simulated IDE on a temporary directory. */
  hub?: HubEndpoint;
  /** Name for the report file (reports/bench-store-<name>.json). */
  name?: string;
}

export interface StoreBenchRow {
  op: string;
  size: string;
  samples: number;
  p50: number;
  p99: number;
}

export interface StoreBenchResult {
  rows: StoreBenchRow[];
  throughput: { writers: number; writesEach: number; size: string; seconds: number; writesPerSecond: number; megabytesPerSecond: number };
}

const SIZES = [
  { label: '1 KB', bytes: 1024, samples: 200 },
  { label: '100 KB', bytes: 100 * 1024, samples: 100 },
  { label: '5 MB', bytes: 5 * 1024 * 1024, samples: 20 },
];

function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Text of about `bytes` bytes in 80-character lines, its first line marked so every sample differs. */
function content(bytes: number, mark: string): string {
  const line = `${'x'.repeat(79)}\n`;
  return `${mark.padEnd(79, ' ')}\n${line.repeat(Math.max(0, Math.floor(bytes / 80) - 1))}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The bundled simulated IDE on a temporary directory, consent given, no per-turn limit. */
async function startDiskHub(): Promise<{ hub: HubEndpoint; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'openspace-bench-store-'));
  const port = await freePort();
  const token = randomBytes(32).toString('base64url');
  const args = [CLI, '--workspace', dir, '--terminal', 'scripted', '--consent', '--port', String(port), '--max-calls-per-turn', '0'];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: 'ignore',
    env: { ...process.env, OPENSPACE_TOKEN: token, OPENSPACE_LOCK_DIR: join(tmpdir(), 'openspace-bench-locks') },
  });
  const hub = { mcpUrl: `http://127.0.0.1:${port}/mcp`, token };
  const started = Date.now();
  for (;;) {
    try {
      const probe = await connectAgent(hub, 'bench-store-probe');
      await probe.close();
      break;
    } catch (err) {
      if (Date.now() - started > 15_000) throw new Error(`the hub on ${dir} did not start: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    hub,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** Measure, print a table, write reports/bench-store-<name>.json, and return the figures. */
export async function benchStore(options: StoreBenchOptions = {}): Promise<StoreBenchResult> {
  const started = options.hub ? undefined : await startDiskHub();
  const hub = options.hub ?? started!.hub;
  const name = options.name ?? (options.hub ? 'hub' : 'sim-disk');
  const rows: StoreBenchRow[] = [];
  try {
    const agent = await connectAgent(hub, 'bench-store');
    for (const size of SIZES) {
      const path = `bench-store/latency-${size.bytes}.txt`;
      const writes: number[] = [];
      let version = '';
      for (let i = 0; i < size.samples + 3; i++) {
        const text = content(size.bytes, `write ${i}`);
        const t = performance.now();
        const result = await agent.ok('openspace.file.write', { path, content: text });
        if (i >= 3) writes.push(performance.now() - t); // the first few warm up
        version = result.version as string;
      }
      const patches: number[] = [];
      for (let i = 0; i < size.samples + 3; i++) {
        const operations = [{ type: 'replace', startLine: 1, endLine: 1, content: `patch ${i}` }];
        const t = performance.now();
        const result = await agent.ok('openspace.file.patch', { path, baseVersion: version, operations });
        if (i >= 3) patches.push(performance.now() - t);
        version = result.version as string;
      }
      rows.push({
        op: 'file.write',
        size: size.label,
        samples: writes.length,
        p50: percentile(writes, 0.5),
        p99: percentile(writes, 0.99),
      });
      rows.push({
        op: 'file.patch',
        size: size.label,
        samples: patches.length,
        p50: percentile(patches, 0.5),
        p99: percentile(patches, 0.99),
      });
    }
    await agent.close();

    // Ten sessions writing their own files at once.
    const writers = 10;
    const writesEach = 30;
    const bytes = 100 * 1024;
    const agents = await Promise.all(Array.from({ length: writers }, (_, i) => connectAgent(hub, `bench-store-writer-${i}`)));
    const t = performance.now();
    await Promise.all(
      agents.map(async (a, w) => {
        for (let i = 0; i < writesEach; i++)
          await a.ok('openspace.file.write', { path: `bench-store/writer-${w}.txt`, content: content(bytes, `writer ${w} write ${i}`) });
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    await Promise.all(agents.map((a) => a.close()));
    const total = writers * writesEach;
    const throughput = {
      writers,
      writesEach,
      size: '100 KB',
      seconds,
      writesPerSecond: total / seconds,
      megabytesPerSecond: (total * bytes) / (1024 * 1024) / seconds,
    };

    const f = (n: number) => n.toFixed(2);
    console.log(`\nArtifact store (${name}): atomic, versioned, snapshotted, audited writes, ms over MCP on 127.0.0.1\n`);
    console.log('| operation | size | samples | p50 ms | p99 ms |');
    console.log('|---|---|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.op} | ${r.size} | ${r.samples} | ${f(r.p50)} | ${f(r.p99)} |`);
    console.log(
      `\n${writers} concurrent writers (one MCP session each) × ${writesEach} writes of 100 KB to distinct files: ` +
        `${throughput.writesPerSecond.toFixed(0)} writes/s, ${throughput.megabytesPerSecond.toFixed(1)} MB/s (${seconds.toFixed(2)} s)`,
    );

    const result = { rows, throughput };
    mkdirSync(fileURLToPath(new URL('../reports', import.meta.url)), { recursive: true });
    writeFileSync(
      fileURLToPath(new URL(`../reports/bench-store-${name}.json`, import.meta.url)),
      JSON.stringify({ name, date: new Date().toISOString(), ...result }, null, 2),
    );
    return result;
  } finally {
    await started?.stop();
  }
}
