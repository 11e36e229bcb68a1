/**
 * npm run conformance:mcp [-- --url <MCP URL>] [--out DIR]
 *
 * Runs the official MCP conformance server scenarios (@modelcontextprotocol/conformance, its
 * active suite) against the hub: by default a hub on the simulated IDE started here with the access
 * token off, because the official suite cannot send an Authorization header. Expected failures:
 *   - conformance/mcp-baseline.yml: scenarios that call the SDK's reference fixture tools;
 *   - scenarios of a capability the hub does not declare in initialize (logging, completions,
 *     resources, prompts): not applicable, and they run as soon as the hub offers it.
 * Any other failure, or a listed scenario that passes, fails the run. Writes
 * reports/conformance-mcp.{json,md,xml,html}.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connectAgent } from '../client.js';
import { finishReport, reportPassed, type StepResult, type TestResult } from '../report/model.js';
import { writeReports } from '../report/write.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const PRELOAD = fileURLToPath(new URL('./node20-fs-glob.mjs', import.meta.url));
export const BASELINE = join(ROOT, 'conformance/mcp-baseline.yml');

/** Scenarios that exercise a server capability, by the capability's name in initialize. */
const BY_CAPABILITY: [capability: string, scenario: RegExp][] = [
  ['logging', /^logging-/],
  ['completions', /^completion-/],
  ['resources', /^resources-/],
  ['prompts', /^prompts-/],
];

/** `- name # reason` lines of the baseline. */
export async function readBaseline(path = BASELINE): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    const match = /^\s*-\s*([\w-]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (match) entries.set(match[1]!, match[2]?.trim() || 'listed in conformance/mcp-baseline.yml');
  }
  return entries;
}

interface Check {
  id: string;
  name?: string;
  description?: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  timestamp?: string;
}

async function serverCapabilities(url: string): Promise<Record<string, unknown>> {
  const agent = await connectAgent(url, 'openspace-conformance-mcp');
  const capabilities = agent.client.getServerCapabilities() ?? {};
  await agent.close();
  return capabilities as Record<string, unknown>;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { url: { type: 'string' }, out: { type: 'string', default: 'reports' } } });
  const started = new Date();
  let url = values.url;
  let stop = async () => {};
  if (!url) {
    const { startSimHub } = await import('../../sim/start.js');
    const sim = await startSimHub({
      workspace: { kind: 'memory', seedDir: join(ROOT, 'conformance/fixtures/workspace') },
      auth: false, // the official suite sends no Authorization header
      lockFile: false,
      consent: 'granted',
      maxCallsPerTurn: 0,
    });
    url = sim.server.mcpUrl;
    stop = () => sim.close();
  }
  const work = await mkdtemp(join(tmpdir(), 'openspace-mcp-conformance-'));
  try {
    const capabilities = await serverCapabilities(url);
    const fixtures = await readBaseline();
    const notOffered = BY_CAPABILITY.filter(([capability]) => !(capability in capabilities));
    process.stdout.write(
      `Official MCP conformance (server scenarios) against ${url}${values.url ? '' : ' (a hub on the simulated IDE, access token off)'}\n` +
        `  capabilities: ${Object.keys(capabilities).join(', ')}; not offered: ${notOffered.map(([c]) => c).join(', ') || 'none'}\n`,
    );
    // Every scenario runs; the expected failures go to the official CLI as its baseline.
    const scenarios = await listServerScenarios(work);
    const notApplicable = new Map(
      scenarios.flatMap((s) =>
        notOffered
          .filter(([, re]) => re.test(s))
          .map(([c]) => [s, `not applicable: the hub offers no ${c} (not in its initialize capabilities)`] as const),
      ),
    );
    const expected = new Map([...fixtures, ...notApplicable]);
    const baseline = join(work, 'baseline.yml');
    await writeFile(baseline, `server:\n${[...expected.keys()].map((s) => `  - ${s}`).join('\n')}\n`);
    const results = join(work, 'results');
    const code = await runCli(['server', '--url', url, '--expected-failures', baseline, '-o', results], work, true);

    const tests: TestResult[] = [];
    for (const dir of (await readdir(results)).sort()) {
      const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
      const checks = JSON.parse(await readFile(join(results, dir, 'checks.json'), 'utf8')) as Check[];
      const failed = checks.filter((c) => c.status === 'FAILURE');
      const steps: StepResult[] = checks
        .filter((c) => c.status !== 'INFO')
        .map((c) => ({
          name: c.description ?? c.id,
          tool: c.id,
          status: c.status === 'FAILURE' ? 'fail' : c.status === 'SKIPPED' ? 'skip' : 'pass',
          durationMs: 0,
          error: c.errorMessage,
        }));
      const reason = expected.get(scenario);
      const base = { name: scenario, family: 'mcp', tool: scenario, durationMs: 0, file: 'official MCP conformance', steps };
      if (reason && failed.length)
        tests.push({
          ...base,
          status: 'skip',
          error: `expected failure: ${reason} (${failed.map((c) => c.errorMessage ?? c.id).join('; ')})`,
        });
      else if (reason)
        tests.push({
          ...base,
          status: 'fail',
          error: `passes but is listed as an expected failure (${reason}): remove it from conformance/mcp-baseline.yml`,
        });
      else if (failed.length)
        tests.push({ ...base, status: 'fail', error: failed.map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`).join('\n') });
      else tests.push({ ...base, status: 'pass' });
    }
    const report = finishReport({
      kind: 'mcp',
      title: 'Official MCP conformance (server scenarios)',
      target: values.url ?? 'sim (access token off)',
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      tests,
      latency: [],
      meta: {
        suite: '@modelcontextprotocol/conformance@0.1.16, active scenarios',
        node: process.version,
        note: 'tools-call-simple-text calls the fixture tool test_simple_text and passes only because the UNKNOWN_TOOL answer is text content',
      },
    });
    const paths = await writeReports(report, resolve(ROOT, values.out), 'conformance-mcp');
    const s = report.summary;
    const ok = code === 0 && reportPassed(report);
    process.stdout.write(
      `\n${s.passed} scenarios passed, ${s.failed} failed, ${s.skipped} expected failures or not applicable (official CLI exit ${code})\n` +
        `${ok ? 'PASS' : 'FAIL'}: reports in ${paths.html} (also .json, .md, .xml)\n`,
    );
    return ok ? 0 : 1;
  } finally {
    await stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** Runs the official CLI with the Node 20 preload; resolves with its exit code. */
function runCli(args: string[], cwd: string, echoSummary = false, capture?: (text: string) => void): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => {
      capture?.(out);
      if (echoSummary) {
        const summary = out.indexOf('=== SUMMARY ===');
        process.stdout.write(summary >= 0 ? out.slice(summary) : out);
      }
      done(code ?? 1);
    });
  });
}

async function listServerScenarios(cwd: string): Promise<string[]> {
  let text = '';
  const code = await runCli(['list'], cwd, false, (out) => (text = out));
  if (code !== 0) throw new Error(`conformance list failed:\n${text}`);
  const server = text.slice(text.indexOf('Server scenarios'), text.indexOf('Client scenarios'));
  return [...server.matchAll(/^\s*-\s*([\w-]+)/gm)].map((m) => m[1]!);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  process.exitCode = await main();
}
