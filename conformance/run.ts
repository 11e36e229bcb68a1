/**
 * npm run conformance -- --target sim|theia|<MCP URL> [--samples N] [--out DIR] [--test-timeout MS] [--grep RE] [--shard I/N] [filter …]
 * npm run conformance -- --merge [--out DIR] SHARD.json …
 *
 * Runs the conformance specs (conformance/specs) and the property tests of paths, the ring buffer and
 * output sanitization through Vitest against one target, prints progress as it goes, and writes
 * <out>/conformance-<target>.{json,md,xml,html}. Exits 1 when any test fails or any latency budget is
 * breached, 2 on bad options.
 *   sim      a hub on the simulated IDE, started per spec file on a fresh copy of the fixture workspace
 *   theia    the Theia app (installed and built first, as `npm run test:theia` does) on a fresh copy
 *   <URL>    a running hub serving a copy of conformance/fixtures/workspace; the files run one by one
 * Filters select spec files by name, as Vitest's do (`npm run conformance -- editor latency`); --grep
 * selects tests by name, as Vitest's -t does (`--grep 'editor\.open p50'`).
 * --shard I/N runs the I-th of N parts of the files (Vitest's sharding), for N machines, and writes
 * <out>/conformance-<target>.shard-I-of-N.*; --merge reads every shard's JSON report and writes the
 * run's one report, <out>/conformance-<target>.*, failing when a shard is missing.
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startVitest } from 'vitest/node';
import { authHeaders, connectAgent } from './client.js';
import { mergeReports, reportPassed, targetSlug, type RunReport } from './report/model.js';
import { writeReports } from './report/write.js';
import { ConformanceReporter } from './report/vitest-reporter.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a conformance run includes besides the specs: the property tests the issue names. */
export const PROPERTY_TESTS = [
  'src/security/path-guard.test.ts',
  'src/security/file-policy.test.ts',
  'src/security/sanitize.test.ts',
  'src/security/redact.test.ts',
  'src/families/terminal/ring-buffer.test.ts',
];

const LATENCY_SPEC = 'conformance/specs/latency.test.ts';

const USAGE =
  'Usage: npm run conformance -- --target sim|theia|<MCP URL> [--samples N] [--out DIR] [--test-timeout MS] [--grep RE] [--shard I/N] [filter …]\n' +
  '       npm run conformance -- --merge [--out DIR] SHARD.json …\n';

/** `conformance-sim`, `conformance-theia`, `conformance-127.0.0.1-3200-mcp` */
export const reportName = (target: string): string => `conformance-${targetSlug(target)}`;

/** How to start a hub the suite can run against (see docs/conformance.md). */
const START_HUB =
  'Start it on a copy of the fixture workspace, with consent and without a per-turn limit:\n' +
  '  cp -r conformance/fixtures/workspace /tmp/fx && npm start -- --workspace /tmp/fx --port 3200 --consent --max-calls-per-turn 0';

/**
 * Before running hundreds of tests against a running hub, check that it lets one session make that
 * many calls and does not wait for a person's consent: otherwise every tool would fail for the
 * hub's settings, not for what it does. Returns what is wrong, or undefined.
 */
async function preflight(mcpUrl: string): Promise<string | undefined> {
  const { startTarget } = await import('./target.js');
  process.env.OPENSPACE_TARGET = mcpUrl;
  const target = await startTarget();
  let health: { limits?: { maxCallsPerTurn?: number } };
  try {
    const res = await fetch(`${target.origin}/openspace/health`, { headers: authHeaders(target.token) });
    if (res.status === 401)
      return `The hub at ${mcpUrl} wants its access token: set OPENSPACE_TOKEN, or run on the machine whose ~/.openspace/ide lock file names it.`;
    health = (await res.json()) as typeof health;
  } catch (err) {
    return `No hub answers at ${mcpUrl} (${(err as Error).message}). ${START_HUB}`;
  }
  const limit = health.limits?.maxCallsPerTurn ?? 0;
  if (limit > 0)
    return `The hub at ${mcpUrl} allows ${limit} tool calls per agent turn; the suite makes thousands in one session. ${START_HUB}`;
  const agent = await connectAgent(target, 'conformance-preflight');
  try {
    // Its answer as it comes: judging it is the suite's work, not the preflight's.
    const { code } = (await agent.answer('openspace.pane.list')).result;
    if (code === 'CONSENT_REQUIRED') return `The hub at ${mcpUrl} waits for a person's consent before agent calls. ${START_HUB}`;
    if (code === 'BRIDGE_UNAVAILABLE')
      return `The hub at ${mcpUrl} has no IDE connected: open its IDE window (Theia) or start the simulated IDE's hub.`;
  } finally {
    await agent.close();
  }
  return undefined;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        target: { type: 'string', default: 'sim' },
        samples: { type: 'string' },
        out: { type: 'string', default: 'reports' },
        'test-timeout': { type: 'string' },
        grep: { type: 'string' },
        shard: { type: 'string' },
        merge: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.merge) return merge(positionals, values.out);
  const shard = values.shard;
  const parts = shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(shard);
  if (shard !== undefined && !(parts && Number(parts[1]) >= 1 && Number(parts[1]) <= Number(parts[2]))) {
    process.stderr.write(`--shard must be I/N with 1 ≤ I ≤ N, such as 1/3, not "${shard}"\n`);
    return 2;
  }
  const target = values.target;
  if (target !== 'sim' && target !== 'theia' && !/^https?:\/\/[^/]+/.test(target)) {
    process.stderr.write(`--target must be sim, theia or a hub's MCP URL (http://127.0.0.1:3100/mcp), not "${target}"\n${USAGE}`);
    return 2;
  }
  for (const [name, value] of [
    ['samples', values.samples],
    ['test-timeout', values['test-timeout']],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(Number(value)) && Number(value) > 0)) {
      process.stderr.write(`--${name} must be a positive whole number, not "${value}"\n`);
      return 2;
    }
  }
  let grep: RegExp | undefined;
  try {
    grep = values.grep === undefined ? undefined : new RegExp(values.grep);
  } catch (err) {
    process.stderr.write(`--grep must be a regular expression: ${(err as Error).message}\n`);
    return 2;
  }
  if (target === 'theia') {
    const { prepareTheia } = await import('./theia-launch.js');
    prepareTheia();
  }
  if (/^https?:/.test(target)) {
    const problem = await preflight(target);
    if (problem) {
      process.stderr.write(`${problem}\n`);
      return 2;
    }
  }
  process.env.OPENSPACE_TARGET = target;
  // Hubs the specs start announce themselves here, not in the user's ~/.openspace/ide (as in
  // vitest.config.ts); a running hub's token is read from its lock file there.
  if (target === 'sim' || target === 'theia')
    process.env.OPENSPACE_LOCK_DIR ??= join(tmpdir(), `openspace-conformance-locks-${process.pid}`);
  if (values.samples) process.env.OPENSPACE_LATENCY_SAMPLES = values.samples;

  // A running hub is one IDE shared by every file: its files run one after another. The simulated
  // IDE's files and Theia's (each file starts its own Theia) run two at a time; the latency spec
  // runs last and alone.
  const sharedTarget = target !== 'sim' && target !== 'theia';
  const reporter = new ConformanceReporter({
    target,
    root: ROOT,
    meta: {
      node: process.version,
      'latency samples per tool': process.env.OPENSPACE_LATENCY_SAMPLES ?? '100',
      ...(positionals.length ? { filters: positionals.join(' ') } : {}),
      ...(grep ? { tests: String(grep) } : {}),
      ...(shard ? { shard } : {}),
    },
  });
  process.stdout.write(`OpenSpace conformance against ${target}\n`);
  const common = {
    root: ROOT,
    exclude: ['**/node_modules/**', 'conformance/fixtures/**'],
    pool: 'forks' as const,
    testTimeout: values['test-timeout'] ? Number(values['test-timeout']) : 20_000,
    hookTimeout: target === 'theia' ? 120_000 : 30_000,
  };
  const vitest = await startVitest(
    'test',
    positionals,
    {
      config: false,
      root: ROOT,
      watch: false,
      testNamePattern: grep,
      maxWorkers: 2,
      ...(shard && { shard }),
      reporters: [reporter],
      projects: [
        {
          test: {
            ...common,
            name: 'conformance',
            include: ['conformance/specs/**/*.test.ts', ...PROPERTY_TESTS],
            exclude: [...common.exclude, LATENCY_SPEC],
            fileParallelism: !sharedTarget,
            // Each file starts its target (or shares the running one): files share loaded modules.
            isolate: false,
            sequence: { groupOrder: 0 },
          },
        },
        // Latency last and alone, so other spec files do not compete with it for the CPU.
        { test: { ...common, name: 'latency', include: [LATENCY_SPEC], sequence: { groupOrder: 1 } } },
      ],
    },
    {},
  );
  await vitest.close();
  const report = reporter.report;
  if (!report || report.summary.total === 0) {
    process.stderr.write('No tests ran: check the filters.\n');
    return 1;
  }
  const name = reportName(target) + (parts ? `.shard-${parts[1]}-of-${parts[2]}` : '');
  const paths = await writeReports(report, resolve(ROOT, values.out), name);
  const passed = reportPassed(report);
  process.stdout.write(`${passed ? 'PASS' : 'FAIL'}: reports in ${paths.html} (also .json, .md, .xml)\n`);
  return passed ? 0 : 1;
}

/** --merge: the shards' JSON reports as one run's report. */
async function merge(files: string[], out: string): Promise<number> {
  if (files.length === 0) {
    process.stderr.write(`--merge needs the shards' JSON reports\n${USAGE}`);
    return 2;
  }
  let report: RunReport;
  try {
    report = mergeReports(await Promise.all(files.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as RunReport)));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const paths = await writeReports(report, resolve(ROOT, out), reportName(report.target));
  const { passed, failed, skipped, budgetBreaches } = report.summary;
  const passes = reportPassed(report);
  process.stdout.write(
    `${files.length} shards: ${passed} passed, ${failed} failed, ${skipped} skipped, ${budgetBreaches} over budget\n` +
      `${passes ? 'PASS' : 'FAIL'}: reports in ${paths.html} (also .json, .md, .xml)\n`,
  );
  return passes ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  process.exitCode = await main();
}
