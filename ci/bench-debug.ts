/**
 * A breakpoint hit answered with its snapshot, by `npm run bench` (and alone:
 * `node --import tsx ci/bench-debug.ts`): openspace.debug.continue on the simulated IDE over MCP
 * (the program in the agent sandbox, stopping again at a breakpoint in its loop; the answer carries
 * the top frames and the locals) beside the same debugger driven directly over the Debug Adapter
 * Protocol — continue, the stop, stackTrace, scopes, variables — with no sandbox, no hub and no
 * MCP, interleaved in the same run. Aim: p95 ≤ 300 ms (issue 32).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ProtocolClient } from '@vscode/debugadapter-testsupport/lib/protocolClient.js';
import { connectAgent } from '../conformance/client.js';
import { startTarget } from '../conformance/target.js';
import { adapterFor, debuggerHooks } from '../src/families/debug/adapters.js';

const SAMPLES = 40;
const LOOP = 'import time\ncount = 0\nwhile True:\n    count += 1\n    total = count * 2\n';

export interface DebugBench {
  directP50: number;
  directP95: number;
  toolP50: number;
  toolP95: number;
}

const percentile = (samples: number[], p: number) =>
  [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;

class Client extends ProtocolClient {
  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
    super();
    this.connect(input as never, output as never);
  }
}

/** The debugger alone: debugpy over DAP, stopped at line 4 of the loop; each sample continues to the next stop and reads its snapshot. */
async function direct(dir: string): Promise<{ sample(): Promise<number>; close(): void }> {
  const adapter = adapterFor('python');
  if (!('argv' in adapter)) throw new Error('debugpy runs as a process');
  const hooks = debuggerHooks();
  const child = spawn(adapter.argv[0]!, adapter.argv.slice(1), { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
  const client = new Client(child.stdout, child.stdin);
  const stopped = () => new Promise<DebugProtocol.StoppedEvent>((resolve) => client.once('stopped', resolve));
  await client.send('initialize', { adapterID: adapter.id, pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true });
  const initialized = new Promise((resolve) => client.once('initialized', resolve));
  const launched = client.send(
    'launch',
    adapter.launch({ language: 'python', program: join(dir, 'loop.py'), args: [], runtimeArgs: [] }, dir, false, hooks.dir) as never,
  );
  await initialized;
  await client.send('setBreakpoints', { source: { path: join(dir, 'loop.py') }, breakpoints: [{ line: 4 }] });
  const first = stopped();
  await client.send('configurationDone', {});
  await launched;
  let threadId = (await first).body.threadId!;
  return {
    async sample() {
      const started = performance.now();
      const next = stopped();
      await client.send('continue', { threadId });
      threadId = (await next).body.threadId!;
      const stack = await client.send('stackTrace', { threadId, startFrame: 0, levels: 5 });
      const scopes = await client.send('scopes', { frameId: stack.body.stackFrames[0]!.id });
      await client.send('variables', { variablesReference: scopes.body.scopes[0]!.variablesReference });
      return performance.now() - started;
    },
    close() {
      child.kill('SIGKILL');
      hooks.remove();
    },
  };
}

export async function benchDebug(): Promise<DebugBench> {
  const dir = mkdtempSync('/var/tmp/openspace-bench-debug-');
  writeFileSync(join(dir, 'loop.py'), LOOP);
  const target = await startTarget();
  const agent = await connectAgent(target, 'bench-debug');
  const bare = await direct(dir);
  const directMs: number[] = [];
  const toolMs: number[] = [];
  try {
    await agent.ok('openspace.file.write', { path: 'bench/loop.py', content: LOOP });
    await agent.ok('openspace.debug.breakpoint.set', { path: 'bench/loop.py', line: 4 });
    const { sessionId } = await agent.ok('openspace.debug.start', { program: 'bench/loop.py' });
    for (let i = 0; i < 3; i++) await Promise.all([bare.sample(), agent.ok('openspace.debug.continue', { sessionId })]); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      directMs.push(await bare.sample());
      const started = performance.now();
      const state = await agent.ok('openspace.debug.continue', { sessionId });
      toolMs.push(performance.now() - started);
      if (state.status !== 'stopped' || state.stop.locals.length === 0) throw new Error(`no stop with locals: ${JSON.stringify(state)}`);
    }
    await agent.ok('openspace.debug.stop', { sessionId });
  } finally {
    bare.close();
    await agent.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const row = {
    directP50: percentile(directMs, 0.5),
    directP95: percentile(directMs, 0.95),
    toolP50: percentile(toolMs, 0.5),
    toolP95: percentile(toolMs, 0.95),
  };
  console.log(`\nA breakpoint hit answered with its snapshot (${SAMPLES} hits each, interleaved; Python through debugpy):`);
  console.log(
    `  debugpy over DAP directly (continue, stop, stackTrace, scopes, variables): p50 ${row.directP50.toFixed(1)} ms, p95 ${row.directP95.toFixed(1)} ms`,
  );
  console.log(
    `  openspace.debug.continue on the simulated IDE (MCP, agent sandbox): p50 ${row.toolP50.toFixed(1)} ms, p95 ${row.toolP95.toFixed(1)} ms: ×${(row.toolP50 / row.directP50).toFixed(2)} at p50`,
  );
  console.log('  Aim: p95 ≤ 300 ms.');
  return row;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchDebug();
