/**
 * The scenario player: every shipped scenario passes against the simulated IDE; a wrong
 * expectation, a waitFor that never holds and a bad file fail with messages a person can act on;
 * `--record` turns a live session's audit log into a scenario that plays back green.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { connectAgent } from '../conformance/client.js';
import { FIXTURE_WORKSPACE, startTarget } from '../conformance/target.js';
import { startSimHub } from '../sim/start.js';
import { AUDIT_LOG_FILE } from '../src/security/audit-log.js';
import { loadScenario, parseScenario, ScenarioFileError, type Scenario } from './format.js';
import { playScenarios, type ScenarioOutcome } from './player.js';
import { recordScenario } from './record.js';
import { reportBasename, scenarioReport } from './report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

// The player chooses its target the way the conformance suite does; these tests play on the simulated IDE.
process.env.OPENSPACE_TARGET = 'sim';

async function playOnSim(scenario: Scenario): Promise<ScenarioOutcome> {
  const [outcome] = await playScenarios([scenario], {
    freshTargetPerScenario: true,
    openTarget: async () => {
      const target = await startTarget();
      return { mcpUrl: target.mcpUrl, token: target.token, close: () => target.close() };
    },
  });
  return outcome!;
}

/** Runs the CLI as `npm run play` does; resolves with its exit code and output. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scenarios/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const shipped = (await readdir(SCENARIOS)).filter((f) => f.endsWith('.yaml')).sort();

describe('the shipped scenarios', () => {
  it('are at least 10 and name what they cover in a header comment', async () => {
    expect(shipped.length).toBeGreaterThanOrEqual(10);
    const covered = new Set<string>();
    for (const file of shipped) {
      const text = await readFile(join(SCENARIOS, file), 'utf8');
      expect(text, `${file} starts with a header comment`).toMatch(/^# (US-3\.\d|TECHSPEC|FR-|CONTRACT)/);
      for (const c of (await loadScenario(join(SCENARIOS, file))).covers) covered.add(c);
    }
    for (const id of ['US-3.1', 'US-3.2', 'US-3.3', 'US-3.4', 'US-3.5', 'US-3.6', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8']) {
      expect(covered, `no scenario covers ${id}`).toContain(id);
    }
  });

  it.each(shipped)('%s passes against the simulated IDE', async (file) => {
    const scenario = await loadScenario(join(SCENARIOS, file));
    const outcome = await playOnSim(scenario);
    if (outcome.status === 'skip') {
      // Only a tool the target does not serve may skip a scenario.
      expect(scenario.requires.length).toBeGreaterThan(0);
      expect(outcome.error).toMatch(/does not serve/);
      return;
    }
    expect(outcome.error ?? '').toBe('');
    expect(outcome.status).toBe('pass');
    expect(outcome.steps.every((s) => s.status === 'pass')).toBe(true);
  });
});

describe('failing properly', () => {
  it('a wrong expectation fails its step, shows expected and actual, and skips the rest', async () => {
    const scenario = parseScenario(
      [
        'name: wrong expectation',
        'steps:',
        '  - tool: openspace.terminal.create',
        '    args: { title: test-runner }',
        '    expect: { success: true, terminalId: test-runner-typo, title: /^test/ }',
        '  - tool: openspace.terminal.list',
      ].join('\n'),
      'inline.yaml',
    );
    const outcome = await playOnSim(scenario);
    expect(outcome.status).toBe('fail');
    const [first, second] = outcome.steps;
    expect(first!.status).toBe('fail');
    expect(first!.error).toContain('openspace.terminal.create answered other than expected');
    expect(first!.error).toContain('at terminalId: expected "test-runner-typo", got "test-runner"');
    expect(first!.error).toMatch(/^expected: \{"success":true,"terminalId":"test-runner-typo"/m);
    expect(first!.error).toMatch(/^actual: +\{"success":true,"terminalId":"test-runner"/m);
    // The regex on title matched, so it is not reported.
    expect(first!.error).not.toContain('at title');
    expect(second).toMatchObject({ status: 'skip', error: 'not run: an earlier step failed' });
    expect(outcome.error).toMatch(/^step 1 \(openspace\.terminal\.create \{"title":"test-runner"\}\)/);
  });

  it('a failed call that was expected to succeed says its code and error first', async () => {
    const scenario = parseScenario(
      'name: missing file\nsteps:\n  - tool: openspace.editor.open\n    args: { path: nope.ts }\n',
      'inline.yaml',
    );
    const outcome = await playOnSim(scenario);
    expect(outcome.steps[0]!.error).toMatch(/^openspace\.editor\.open failed with FILE_NOT_FOUND: /);
  });

  it('waitFor gives up after its timeout with the last result', async () => {
    const scenario = parseScenario(
      [
        'name: never',
        'steps:',
        '  - tool: openspace.terminal.create',
        '    args: { title: waiting }',
        '  - tool: openspace.terminal.read_output',
        '    args: { terminalId: waiting }',
        '    waitFor: { until: { output: { $contains: never-printed } }, timeoutMs: 400, intervalMs: 50 }',
      ].join('\n'),
      'inline.yaml',
    );
    const outcome = await playOnSim(scenario);
    const step = outcome.steps[1]!;
    expect(step.status).toBe('fail');
    expect(step.error).toMatch(/^waitFor: the condition did not hold within 400 ms \(\d+ calls of openspace\.terminal\.read_output\)/);
    expect(step.error).toContain('at output: expected an element matching "never-printed"');
    expect(step.durationMs).toBeGreaterThanOrEqual(350);
    expect(step.durationMs).toBeLessThan(3000);
    expect(step.calls.length).toBeGreaterThan(2);
  });

  it('an unknown variable names the ones captured', async () => {
    const scenario = parseScenario(
      'name: vars\nsteps:\n  - tool: openspace.terminal.create\n    capture: { term: terminalId }\n  - tool: openspace.terminal.close\n    args: { terminalId: $terminal }\n',
      'inline.yaml',
    );
    const outcome = await playOnSim(scenario);
    expect(outcome.steps[1]!.error).toMatch(/unknown variable \$terminal \(captured so far: \$term\)/);
  });

  it('a YAML syntax error is refused with its line', () => {
    const text = [
      'name: broken',
      'steps:',
      '  - tool: openspace.pane.list',
      '    args: { unclosed: [1, 2 }',
      '  - tool: openspace.pane.list',
    ].join('\n');
    const err = (() => {
      try {
        parseScenario(text, 'broken.yaml');
      } catch (e) {
        return e as ScenarioFileError;
      }
      throw new Error('parseScenario accepted a broken file');
    })();
    expect(err).toBeInstanceOf(ScenarioFileError);
    expect(err.problems[0]!.line).toBe(4);
    expect(err.message).toMatch(/^broken\.yaml:4: /);
  });

  it('a file that does not fit the format is refused with the line of each fault', () => {
    const text = [
      'name: misspelt', // 1
      'steps:', // 2
      '  - tool: openspace.editor.open', // 3
      '    args: { path: src/index.ts }', // 4
      '    expct: { success: true }', // 5
      '  - instructions:', // 6
      '      contains: not-a-list', // 7
      '  - sleep: 100', // 8
      '  - tool: openspace.terminal.read_output', // 9
      '    waitFor: { until: { running: false }, timeoutMs: -1 }', // 10
    ].join('\n');
    let err: ScenarioFileError | undefined;
    try {
      parseScenario(text, 'misspelt.yaml');
    } catch (e) {
      err = e as ScenarioFileError;
    }
    expect(err).toBeInstanceOf(ScenarioFileError);
    const lines = err!.message.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^misspelt\.yaml:5: steps\.0: unknown field\(s\) "expct"$/));
    expect(lines).toContainEqual(expect.stringMatching(/^misspelt\.yaml:7: steps\.1\.instructions\.contains: /));
    expect(lines).toContainEqual(expect.stringMatching(/^misspelt\.yaml:8: steps\.2: a step needs one of tool, instructions or tools$/));
    expect(lines).toContainEqual(expect.stringMatching(/^misspelt\.yaml:10: steps\.3\.waitFor\.timeoutMs: /));
  });

  it('the CLI refuses a bad file (exit 2, nothing played) and fails a failing scenario (exit 1) with expected vs actual', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openspace-scenarios-'));
    try {
      await writeFile(join(dir, 'bad.yaml'), 'name: bad\nsteps:\n  - tool: openspace.pane.list\n    args: [not, a, mapping]\n');
      const refused = await cli([join(dir, 'bad.yaml'), '--no-reports']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${join(dir, 'bad.yaml')}:4: steps.0.args:`);
      expect(refused.stdout).not.toContain('Playing');

      await writeFile(
        join(dir, 'fails.yaml'),
        'name: fails\nsteps:\n  - tool: openspace.editor.open\n    args: { path: src/index.ts, line: 42 }\n    expect: { success: true, lineCount: 7 }\n',
      );
      const failed = await cli([join(dir, 'fails.yaml'), '--reports', dir]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/✗ +1 openspace\.editor\.open \{"path":"src\/index\.ts","line":42\} +\d+ ms/);
      expect(failed.stdout).toContain('at lineCount: expected 7, got 100');
      expect(failed.stdout).toContain('1 scenario(s): 0 passed, 1 failed, 0 skipped');
      const report = JSON.parse(await readFile(join(dir, 'scenarios-sim.json'), 'utf8'));
      expect(report).toMatchObject({ kind: 'scenario', target: 'sim', summary: { total: 1, failed: 1 } });
      for (const ext of ['md', 'xml', 'html'])
        expect((await readFile(join(dir, `scenarios-sim.${ext}`), 'utf8')).length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('--record', () => {
  it("turns a live session's audit log into a scenario that plays back green", async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'openspace-record-'));
    const out = await mkdtemp(join(tmpdir(), 'openspace-recorded-'));
    try {
      await cp(FIXTURE_WORKSPACE, workspace, { recursive: true });
      // A live session, as an agent makes it, on a hub over a real workspace directory.
      const sim = await startSimHub({
        workspace: { kind: 'disk', root: workspace },
        terminal: 'scripted',
        consent: 'granted',
        lockFile: false,
      });
      try {
        const agent = await connectAgent(sim.server, 'recorded-agent', { catalog: 'start' });
        await agent.call('openspace.editor.open', { path: 'src/index.ts', line: 42 });
        await agent.call('openspace.editor.highlight', {
          path: 'src/index.ts',
          ranges: [{ startLine: 42, endLine: 50 }],
          highlightId: 'fix-1',
        });
        await agent.call('openspace.editor.open', { path: 'missing.ts' });
        await agent.call('openspace.terminal.create', { title: 'test-runner' });
        await agent.call('openspace.terminal.send', { terminalId: 'test-runner', text: 'echo $HOME' });
        await agent.call('openspace.pane.list');
        await agent.close();
        // A second, shorter session: the recording takes the one asked for.
        const other = await connectAgent(sim.server, 'other-agent', { catalog: 'start' });
        await other.call('openspace.terminal.list');
        await other.close();
      } finally {
        await sim.close();
      }
      const log = join(workspace, AUDIT_LOG_FILE);
      const ndjson = await readFile(log, 'utf8');
      const sessions = [
        ...new Set(
          ndjson
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
            .filter((e) => e.type === 'call' && e.client === 'recorded-agent')
            .map((e) => e.session),
        ),
      ];
      expect(sessions).toHaveLength(1);

      const recording = recordScenario(ndjson, { session: sessions[0]!.slice(0, 12), source: log });
      expect(recording.session.client).toBe('recorded-agent');
      expect(recording.sessions).toHaveLength(2);
      expect(recording.yaml).toMatch(/^# Recorded by `npm run play -- --record /);
      const scenario = parseScenario(recording.yaml, 'recorded.yaml');
      // The agent's six calls, and not what the hub did itself when the session ended (its cleanup,
      // logged under the session with cleanup: true).
      expect(scenario.steps.map((s) => ('tool' in s ? s.tool : ''))).toEqual([
        'openspace.editor.open',
        'openspace.editor.highlight',
        'openspace.editor.open',
        'openspace.terminal.create',
        'openspace.terminal.send',
        'openspace.pane.list',
      ]);
      const cleanupLines = ndjson
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((e) => e.session === sessions[0] && e.cleanup === true);
      expect(cleanupLines.map((e) => e.tool)).toContain('openspace.terminal.close');
      expect(scenario.steps[2]).toMatchObject({
        tool: 'openspace.editor.open',
        args: { path: 'missing.ts' },
        expect: { success: false, code: 'FILE_NOT_FOUND' },
      });
      expect(scenario.steps[4]).toMatchObject({ args: { text: 'echo $$HOME' } });

      const outcome = await playOnSim(scenario);
      expect(outcome.error ?? '').toBe('');
      expect(outcome.status).toBe('pass');

      // The same through the CLI: --record writes the file, play passes it.
      const file = join(out, 'recorded.yaml');
      const recorded = await cli(['--record', log, '--session', sessions[0]!, '--out', file]);
      expect(recorded.code).toBe(0);
      expect(recorded.stderr).toMatch(/Recorded session .* \(recorded-agent, \d+ calls\); the log also has .*other-agent, \d+ calls/);
      const played = await cli([file, '--no-reports']);
      expect(played.stdout).toContain('1 scenario(s): 1 passed, 0 failed, 0 skipped');
      expect(played.code).toBe(0);
    } finally {
      await rm(workspace, { recursive: true, force: true });
      await rm(out, { recursive: true, force: true });
    }
  }, 40_000);

  it("skips write lines, picks the last call's session by default and refuses an unknown one", () => {
    const lines = [
      {
        type: 'call',
        time: '2026-01-01T00:00:00Z',
        session: 'aaa',
        client: 'one',
        tool: 'openspace.pane.list',
        args: {},
        code: 'OK',
        durationMs: 1,
      },
      { type: 'write', time: '2026-01-01T00:00:01Z', path: 'x', version: 'v', bytes: 1, sha256: 's', tool: 'openspace.file.write' },
      {
        type: 'call',
        time: '2026-01-01T00:00:02Z',
        session: 'bbb',
        client: 'two',
        tool: 'openspace.file.read',
        args: { path: 'x' },
        code: 'SENSITIVE_FILE',
        durationMs: 1,
      },
    ].map((l) => JSON.stringify(l));
    const recording = recordScenario(lines.join('\n') + '\n');
    expect(recording.session.session).toBe('bbb');
    expect(parseScenario(recording.yaml, 'r.yaml').steps).toEqual([
      { tool: 'openspace.file.read', args: { path: 'x' }, expect: { success: false, code: 'SENSITIVE_FILE' } },
    ]);
    expect(() => recordScenario(lines.join('\n'), { session: 'zzz' })).toThrow(
      /no session matches "zzz"; the log has: aaa \(one, 1 calls\), bbb \(two, 1 calls\)/,
    );
    expect(() => recordScenario('{"type":"write"}\n')).toThrow(/no tool calls/);
    expect(() => recordScenario('not json\n', { source: 'audit.ndjson' })).toThrow(/^audit\.ndjson:1: not a JSON line/);
  });

  it('says in the recording which arguments the log redacted or shortened', () => {
    const call = { type: 'call', time: 't', session: 's', tool: 'openspace.terminal.send', code: 'OK', durationMs: 1 };
    const ndjson = [
      { ...call, args: { terminalId: 't', text: 'export TOKEN=[REDACTED:github_token]' } },
      { ...call, tool: 'openspace.file.write', args: { path: 'big.txt', content: 'xxxx… [5000 characters]' } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const { yaml, warnings } = recordScenario(ndjson);
    expect(warnings).toEqual([
      'step 1 (openspace.terminal.send) args.text was redacted in the log; the replay sends the redacted text',
      'step 2 (openspace.file.write) args.content was shortened in the log; the replay sends the shortened text',
    ]);
    expect(yaml).toContain('# Note: step 1 (openspace.terminal.send) args.text was redacted in the log');
  });
});

describe('the run report', () => {
  const outcome: ScenarioOutcome = {
    file: 'scenarios/x.yaml',
    name: 'x',
    covers: ['T1'],
    status: 'pass',
    durationMs: 12,
    steps: [
      {
        index: 1,
        name: 'open',
        kind: 'tool',
        tool: 'openspace.editor.open',
        status: 'pass',
        durationMs: 5,
        calls: [{ tool: 'openspace.editor.open', durationMs: 150 }],
      },
      {
        index: 2,
        name: 'prompt',
        kind: 'instructions',
        tool: 'GET /openspace/instructions',
        status: 'pass',
        durationMs: 2,
        calls: [{ tool: 'GET /openspace/instructions', durationMs: 2 }],
      },
    ],
  };

  it('has one test per scenario with its steps, and no latency budgets unless asked', () => {
    const report = scenarioReport([outcome], 'sim', new Date(0), new Date(20));
    expect(report).toMatchObject({ kind: 'scenario', target: 'sim', latency: [], summary: { total: 1, passed: 1, budgetBreaches: 0 } });
    expect(report.tests[0]).toMatchObject({
      name: 'x [T1]',
      file: 'scenarios/x.yaml',
      steps: [{ name: '1. open', tool: 'openspace.editor.open' }, { name: '2. prompt' }],
    });
  });

  it('with --budgets, a call over its budget is a breach', () => {
    const report = scenarioReport([outcome], 'sim', new Date(0), new Date(20), { budgets: true });
    expect(report.latency.map((l) => [l.tool, l.budgetMs, l.withinBudget])).toEqual([
      ['openspace.editor.open', 100, false],
      ['GET /openspace/instructions', 50, true],
    ]);
    expect(report.summary.budgetBreaches).toBe(1);
  });

  it('names report files after the target', () => {
    expect(reportBasename('sim')).toBe('scenarios-sim');
    expect(reportBasename('http://127.0.0.1:3200/mcp')).toBe('scenarios-127.0.0.1-3200-mcp');
  });
});
