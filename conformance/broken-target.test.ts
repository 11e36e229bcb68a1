/**
 * The suite can fail: run `npm run conformance` against a hub that lies (fixtures/broken-target)
 * and require every lie to be reported as a failure, by name, in the live output and the report.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIES, startBrokenTarget, type BrokenTarget } from './fixtures/broken-target/server.js';
import { targetSlug, type RunReport, type TestResult } from './report/model.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** How each lie must show up: a failing test whose name matches, or a latency series over budget. */
const DETECTED_BY: Record<string, { tests?: RegExp[]; overBudget?: boolean; error?: RegExp }> = {
  'openspace.file.write': { tests: [/reading it back/, /BINARY_FILE/, /FILE_TOO_LARGE/, /CONFLICT/] },
  'openspace.editor.open': { tests: [/missing file .*FILE_NOT_FOUND/] },
  'openspace.pane.focus': { tests: [/input and output schemas/] },
  'openspace.terminal.list': { tests: [/openspace\.terminal\.list p50/], error: /output schema/i },
  'openspace.file.list': { tests: [/openspace\.file\.list: extra field/] },
  'openspace.editor.scroll_to': { overBudget: true },
  'openspace.pane.resize': { tests: [/openspace\.pane\.resize p50/], error: /did not answer within .* \(a hang\)/ },
};

let target: BrokenTarget;
let out: string;
let run: { code: number | null; stdout: string; report: RunReport };

beforeAll(async () => {
  target = await startBrokenTarget();
  out = await mkdtemp(join(tmpdir(), 'openspace-broken-report-'));
  // Only the tests where the lies show (by file and by name); few samples and fuzz runs, and a hang
  // fails its call after 5 s.
  const grep = Object.entries(DETECTED_BY)
    .flatMap(([tool, how]) => (how.overBudget ? [new RegExp(`${tool.replace(/\./g, '\\.')} p50`)] : how.tests!))
    .map((re) => re.source)
    .join('|');
  const args = [
    '--import',
    'tsx',
    'conformance/run.ts',
    '--target',
    target.mcpUrl,
    '--out',
    out,
    '--samples',
    '10',
    '--test-timeout',
    '10000',
    '--grep',
    grep,
  ];
  const filters = ['tools', 'editor', 'file.test', 'invalid-input', 'latency'];
  // A clean environment: the Vitest worker's own variables must not leak into the nested run.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'OPENSPACE_TARGET' && k !== 'OPENSPACE_SIM_WORKSPACE'),
  );
  const child = spawn(process.execPath, [...args, ...filters], {
    cwd: ROOT,
    env: { ...env, OPENSPACE_FUZZ_RUNS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const report = JSON.parse(await readFile(join(out, `conformance-${targetSlug(target.mcpUrl)}.json`), 'utf8')) as RunReport;
  run = { code, stdout, report };
}, 240_000);

afterAll(async () => {
  await target?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

describe('the conformance suite against a hub that lies', () => {
  it('fails the run', () => {
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    expect(run.stdout).toContain('FAIL: reports in');
    expect(run.report.summary.failed).toBeGreaterThan(0);
  });

  it('lists every lie the fixture tells in this test', () => {
    expect(Object.keys(DETECTED_BY).sort()).toEqual(LIES.map((l) => l.tool).sort());
  });

  for (const lie of LIES) {
    it(`reports ${lie.tool} (${lie.what})`, () => {
      const how = DETECTED_BY[lie.tool]!;
      if (how.overBudget) {
        const series = run.report.latency.find((l) => l.tool === lie.tool);
        expect(series, `no latency series for ${lie.tool}`).toBeDefined();
        expect(series!.withinBudget).toBe(false);
        // Measured twice: a breach fails only when fresh samples breach again, and the report shows both.
        expect(series!.firstAttempt?.withinBudget).toBe(false);
        expect(series!.samples).not.toEqual(series!.firstAttempt!.samples);
        // Twice the samples the second time (up to 100): 10, then 20.
        expect([series!.firstAttempt!.samples.length, series!.samples.length]).toEqual([10, 20]);
        expect(run.stdout).toMatch(new RegExp(`over: .*${lie.tool.replace(/\./g, '\\.')} p99`));
        return;
      }
      const failed = run.report.tests.filter((t: TestResult) => t.status === 'fail' && how.tests!.some((re) => re.test(t.name)));
      expect(
        failed.map((t) => t.name),
        `no failing test reveals ${lie.tool}`,
      ).not.toEqual([]);
      if (how.error) expect(failed.some((t) => how.error!.test(t.error ?? ''))).toBe(true);
      // The live output names it too.
      expect(failed.some((t) => run.stdout.includes(t.name))).toBe(true);
    });
  }
});
