/**
 * `npm run play -- scenarios/<file>.yaml [more files or globs] [--target sim|theia|<MCP URL>]`
 * `npm run play -- --record <audit.ndjson> [--session ID] [--out file.yaml]`
 *
 * Plays scenarios with one line per step, writes reports/scenarios-<target>.{json,md,xml,html},
 * and exits non-zero when a scenario fails (1) or cannot be loaded (2).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import picomatch from 'picomatch';
import { reportPassed } from '../conformance/report/model.js';
import { writeReports } from '../conformance/report/write.js';
import { loadScenario, ScenarioFileError, type Scenario } from './format.js';
import { playScenarios, type ScenarioOutcome, type StepOutcome } from './player.js';
import { recordScenario } from './record.js';
import { reportBasename, scenarioReport } from './report.js';

const USAGE = `Usage:
  npm run play -- <scenario.yaml | glob>... [--target sim|theia|<MCP URL>] [--reports DIR] [--budgets]
  npm run play -- --record <audit.ndjson> [--session ID] [--out scenario.yaml]

  --target    sim (default): a hub on the simulated IDE, a fresh copy of the fixture workspace per scenario;
              theia: the built Theia app on a fresh copy of the fixture (npm run theia:build first), shared;
              an MCP URL, e.g. http://127.0.0.1:3100/mcp: a running hub, shared by all scenarios.
  --reports   where the reports go (default reports/); --no-reports writes none.
  --budgets   also check every tool's latency against its budget (simple 100 ms, complex 500 ms,
              instructions 50 ms) over the calls the scenarios made; a breach fails the run.
  --record    turn an audit log (.openspace/audit.ndjson in a workspace) into a scenario; --session picks
              one session by ID or prefix (default: the session of the last call), --out names the file
              (default: print it).`;

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
const green = (t: string) => paint(32, t);
const red = (t: string) => paint(31, t);
const dim = (t: string) => paint(2, t);

const MARK: Record<StepOutcome['status'], string> = { pass: green('✓'), fail: red('✗'), skip: dim('–') };

function indent(text: string, by: string): string {
  return text.replace(/^/gm, by);
}

/** Files named, and files under a glob's fixed base that the glob matches, in order, once each. */
async function expandPatterns(patterns: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    if (!/[*?[\]{}]/.test(pattern)) {
      files.push(pattern);
      continue;
    }
    const segments = pattern.split('/');
    const firstGlob = segments.findIndex((s) => /[*?[\]{}]/.test(s));
    const base = segments.slice(0, firstGlob).join('/') || '.';
    const isMatch = picomatch(pattern.replace(/^\.\//, ''));
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (isMatch(relative('.', path).split(sep).join('/'))) found.push(path);
      }
    };
    await walk(base).catch(() => undefined);
    if (found.length === 0) throw new Error(`no file matches ${pattern}`);
    files.push(...found.sort());
  }
  return [...new Set(files)];
}

async function record(values: { record?: string; session?: string; out?: string }): Promise<number> {
  const source = values.record!;
  const { yaml, session, sessions, warnings } = recordScenario(await readFile(source, 'utf8'), { session: values.session, source });
  const others = sessions.filter((s) => s !== session);
  process.stderr.write(`Recorded session ${session.session} (${session.client ?? 'unknown client'}, ${session.calls} calls)`);
  process.stderr.write(
    others.length
      ? `; the log also has ${others.map((s) => `${s.session} (${s.client ?? '?'}, ${s.calls} calls)`).join(', ')} — pick one with --session\n`
      : '\n',
  );
  for (const w of warnings) process.stderr.write(`  note: ${w}\n`);
  if (values.out) {
    await writeFile(values.out, yaml);
    process.stderr.write(`Wrote ${values.out}; play it with: npm run play -- ${values.out}\n`);
  } else process.stdout.write(yaml);
  return 0;
}

async function openTarget(target: string) {
  // conformance/target.ts chooses by OPENSPACE_TARGET, as the conformance suite does.
  process.env.OPENSPACE_TARGET = target;
  const { startTarget } = await import('../conformance/target.js');
  const started = await startTarget();
  return { mcpUrl: started.mcpUrl, token: started.token, close: () => started.close() };
}

function printStep(step: StepOutcome) {
  const ms = step.status === 'skip' ? '' : `  ${dim(`${step.durationMs.toFixed(0)} ms`)}`;
  process.stdout.write(`  ${MARK[step.status]} ${String(step.index).padStart(2)} ${step.name}${ms}\n`);
  if (step.status === 'fail' && step.error) process.stdout.write(`${indent(step.error, '       ')}\n`);
}

function printOutcome(outcome: ScenarioOutcome) {
  const steps = `${outcome.steps.filter((s) => s.status === 'pass').length}/${outcome.steps.length} steps`;
  const ms = `${outcome.durationMs.toFixed(0)} ms`;
  if (outcome.status === 'pass') process.stdout.write(`  ${green('passed')} ${steps} in ${ms}\n\n`);
  else if (outcome.status === 'skip') process.stdout.write(`  ${dim(`skipped: ${outcome.error}`)}\n\n`);
  else process.stdout.write(`  ${red('FAILED')} ${steps} in ${ms}${outcome.steps.length === 0 ? `: ${outcome.error}` : ''}\n\n`);
}

async function play(patterns: string[], target: string, reportsDir: string | undefined, budgets: boolean): Promise<number> {
  let files: string[];
  try {
    files = await expandPatterns(patterns);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const scenarios: Scenario[] = [];
  const refused: string[] = [];
  for (const file of files) {
    try {
      scenarios.push(await loadScenario(file));
    } catch (err) {
      refused.push(err instanceof ScenarioFileError ? err.message : `${file}: ${(err as Error).message}`);
    }
  }
  if (refused.length > 0) {
    process.stderr.write(`Refused ${refused.length} scenario file(s); nothing was played:\n${indent(refused.join('\n'), '  ')}\n`);
    return 2;
  }
  process.stdout.write(`Playing ${scenarios.length} scenario(s) against ${target}\n\n`);
  const startedAt = new Date();
  const outcomes = await playScenarios(scenarios, {
    openTarget: () => openTarget(target),
    freshTargetPerScenario: target === 'sim',
    scenarioStarted: (s) => process.stdout.write(`${s.file}  ${s.name}${s.covers.length ? dim(`  [${s.covers.join(', ')}]`) : ''}\n`),
    stepEnded: printStep,
    scenarioEnded: printOutcome,
  });
  const report = scenarioReport(outcomes, target, startedAt, new Date(), { budgets });
  const { passed, failed, skipped, budgetBreaches } = report.summary;
  process.stdout.write(
    `${outcomes.length} scenario(s): ${passed} passed, ${failed} failed, ${skipped} skipped in ${(report.durationMs / 1000).toFixed(1)} s\n`,
  );
  for (const l of report.latency.filter((series) => !series.withinBudget)) {
    process.stdout.write(
      red(
        `latency: ${l.tool} over its ${l.budget} budget of ${l.budgetMs} ms (p50 ${l.p50.toFixed(1)}, p95 ${l.p95.toFixed(1)}, p99 ${l.p99.toFixed(1)} ms over ${l.samples.length} calls)\n`,
      ),
    );
  }
  if (budgetBreaches === 0 && report.latency.length) process.stdout.write(`latency: ${report.latency.length} tool(s) within budget\n`);
  if (reportsDir) {
    const written = await writeReports(report, reportsDir, reportBasename(target));
    process.stdout.write(`reports: ${written.json.replace(/\.json$/, '.{json,md,xml,html}')}\n`);
  }
  return reportPassed(report) ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: 'string', default: 'sim' },
        reports: { type: 'string', default: 'reports' },
        'no-reports': { type: 'boolean', default: false },
        budgets: { type: 'boolean', default: false },
        record: { type: 'string' },
        session: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.record) return record(values);
  if (positionals.length === 0) {
    process.stderr.write(`Name at least one scenario file.\n\n${USAGE}\n`);
    return 2;
  }
  const target = values.target!;
  if (!/^(sim|theia|https?:\/\/.+)$/.test(target)) {
    process.stderr.write(`--target must be sim, theia or a hub's MCP URL (http://…/mcp), not "${target}"\n`);
    return 2;
  }
  return play(positionals, target, values['no-reports'] ? undefined : values.reports, values.budgets!);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
