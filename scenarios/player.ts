/**
 * The scenario player: runs each step of a scenario through a real MCP client, checks its
 * expectations, captures variables, polls for `waitFor` conditions, and reports each step as it ends.
 */
import { connectAgent, type Agent, type HubEndpoint, type Result } from '../conformance/client.js';
import { inputJsonSchema, outputJsonSchema } from '../src/contract/index.js';
import { TOOLS, TOOLS_ENABLE } from '../src/families/index.js';
import { stepKind, type InstructionsStep, type Scenario, type Step, type ToolsStep, type ToolStep } from './format.js';
import { asRegex, deepEqual, interpolate, match, show, valueAt, type Mismatch, type Variables } from './match.js';

export type Status = 'pass' | 'fail' | 'skip';

export interface StepOutcome {
  index: number;
  name: string;
  kind: 'tool' | 'instructions' | 'tools';
  tool?: string;
  status: Status;
  durationMs: number;
  /** What went wrong: a headline, then the detail (expected and actual). */
  error?: string;
  /** Every round trip the step made (a waitFor polls several times). */
  calls: { tool: string; durationMs: number }[];
}

export interface ScenarioOutcome {
  file: string;
  name: string;
  covers: string[];
  status: Status;
  durationMs: number;
  steps: StepOutcome[];
  /** Why it failed (the failing step's error, or a connection failure), or why it was skipped. */
  error?: string;
}

export interface PlayEvents {
  scenarioStarted?(scenario: Scenario): void;
  stepEnded?(step: StepOutcome, scenario: Scenario): void;
  scenarioEnded?(outcome: ScenarioOutcome, scenario: Scenario): void;
}

/** A failed check; its message is the step's error. */
class StepFailure extends Error {}

function describeMismatches(mismatches: Mismatch[], expected: unknown, actual: unknown): string {
  const lines = mismatches.slice(0, 8).map((m) => `${m.path ? `at ${m.path}: ` : ''}${m.message}`);
  if (mismatches.length > 8) lines.push(`… and ${mismatches.length - 8} more`);
  lines.push(`expected: ${show(expected, 1000)}`, `actual:   ${show(actual, 2000)}`);
  return lines.join('\n');
}

function shortArgs(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  if (text === '{}') return '';
  return ` ${text.length > 70 ? `${text.slice(0, 70)}…` : text}`;
}

/** A step's label: its name, or what it does. */
export function stepLabel(step: Step, vars: Variables = {}): string {
  if (step.name) return step.name;
  switch (stepKind(step)) {
    case 'tool': {
      const s = step as ToolStep;
      let args: Record<string, unknown> = s.args;
      try {
        args = interpolate(s.args, vars) as Record<string, unknown>;
      } catch {
        // Label with the raw arguments; running the step reports the unknown variable.
      }
      return `${s.waitFor ? 'wait for ' : ''}${s.tool}${shortArgs(args)}`;
    }
    case 'instructions': {
      const { contains, excludes } = (step as InstructionsStep).instructions;
      return `instructions ${[...contains.map((c) => `⊇ ${show(c, 40)}`), ...excludes.map((e) => `∌ ${show(e, 40)}`)].join(', ')}`;
    }
    default:
      return 'tools/list';
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function checkMaxMs(step: { maxMs?: number }, durationMs: number, what: string) {
  if (step.maxMs !== undefined && durationMs > step.maxMs) {
    throw new StepFailure(`${what} took ${durationMs.toFixed(1)} ms, more than maxMs ${step.maxMs}`);
  }
}

async function runToolStep(agent: Agent, step: ToolStep, vars: Variables, calls: StepOutcome['calls']): Promise<void> {
  const args = interpolate(step.args, vars) as Record<string, unknown>;
  const expected = interpolate(step.expect ?? { success: true }, vars);
  const call = async (): Promise<Result> => {
    const outcome = await agent.answer(step.tool, args);
    calls.push({ tool: step.tool, durationMs: outcome.durationMs });
    if (outcome.problems.length > 0)
      throw new StepFailure(
        `${step.tool} broke the result conventions: ${outcome.problems.join('; ')}\nactual: ${show(outcome.result, 2000)}`,
      );
    return outcome.result;
  };
  let result: Result = {} as Result;
  if (step.waitFor) {
    const until = interpolate(step.waitFor.until, vars);
    const deadline = performance.now() + step.waitFor.timeoutMs;
    let attempts = 0;
    for (;;) {
      attempts++;
      let mismatches: Mismatch[];
      let last: unknown;
      try {
        result = await call();
        last = result;
        mismatches = match(until, result);
      } catch (err) {
        if (err instanceof StepFailure) throw err;
        last = undefined;
        mismatches = [{ path: '', message: `the call threw: ${(err as Error).message}` }];
      }
      if (mismatches.length === 0) break;
      if (performance.now() + step.waitFor.intervalMs > deadline) {
        throw new StepFailure(
          `waitFor: the condition did not hold within ${step.waitFor.timeoutMs} ms (${attempts} call${attempts === 1 ? '' : 's'} of ${step.tool})\n${describeMismatches(mismatches, until, last)}`,
        );
      }
      await sleep(step.waitFor.intervalMs);
    }
  } else {
    result = await call();
  }
  checkMaxMs(step, calls.at(-1)!.durationMs, step.tool);
  if (step.waitFor === undefined || step.expect !== undefined) {
    const mismatches = match(expected, result);
    if (mismatches.length > 0) {
      const failed = result.success === false && (expected as { success?: unknown })?.success !== false;
      const headline = failed
        ? `${step.tool} failed with ${String(result.code)}: ${String(result.error)}`
        : `${step.tool} answered other than expected`;
      throw new StepFailure(`${headline}\n${describeMismatches(mismatches, expected, result)}`);
    }
  }
  for (const [name, path] of Object.entries(step.capture ?? {})) {
    const value = valueAt(result, path);
    if (value === undefined) throw new StepFailure(`capture ${name}: the result has nothing at "${path}"\nactual: ${show(result, 2000)}`);
    vars[name] = value;
  }
}

async function runInstructionsStep(agent: Agent, step: InstructionsStep, vars: Variables, calls: StepOutcome['calls']): Promise<void> {
  const contains = interpolate(step.instructions.contains, vars) as string[];
  const excludes = interpolate(step.instructions.excludes, vars) as string[];
  const deadline = performance.now() + step.instructions.timeoutMs;
  for (;;) {
    const { text, durationMs } = await agent.instructions();
    calls.push({ tool: 'GET /openspace/instructions', durationMs });
    checkMaxMs(step, durationMs, 'GET /openspace/instructions');
    const found = (pattern: string) => asRegex(pattern)?.test(text) ?? text.includes(pattern);
    const problems = [
      ...contains.filter((p) => !found(p)).map((p) => `missing ${show(p)}`),
      ...excludes.filter((p) => found(p)).map((p) => `should not contain ${show(p)}`),
    ];
    if (problems.length === 0) return;
    if (performance.now() > deadline) {
      const waited = step.instructions.timeoutMs > 0 ? ` (still, after ${step.instructions.timeoutMs} ms)` : '';
      throw new StepFailure(`the instructions text ${problems.join(', ')}${waited}\nactual:\n${text.replace(/^/gm, '  | ')}`);
    }
    await sleep(100);
  }
}

async function runToolsStep(agent: Agent, step: ToolsStep, calls: StepOutcome['calls']): Promise<void> {
  const { tools, durationMs } = await agent.listTools();
  calls.push({ tool: 'tools/list', durationMs });
  checkMaxMs(step, durationMs, 'tools/list');
  const names = tools.map((t) => t.name);
  const problems: string[] = [];
  for (const name of step.tools.includes) if (!names.includes(name)) problems.push(`${name} is not listed`);
  for (const name of step.tools.excludes) if (names.includes(name)) problems.push(`${name} is listed`);
  if (step.tools.count !== undefined)
    problems.push(...match(step.tools.count, tools.length, 'count').map((m) => `${m.path}: ${m.message}`));
  if (step.tools.matchContract) {
    for (const def of TOOLS) {
      const listed = tools.find((t) => t.name === def.name);
      if (!listed) problems.push(`${def.name} (in the contract) is not listed`);
      else {
        if (!deepEqual(listed.inputSchema, inputJsonSchema(def))) problems.push(`${def.name}: inputSchema differs from the contract's`);
        if (!deepEqual(listed.outputSchema, outputJsonSchema(def))) problems.push(`${def.name}: outputSchema differs from the contract's`);
      }
    }
    for (const name of names)
      if (name !== TOOLS_ENABLE.name && !TOOLS.some((d) => d.name === name)) problems.push(`${name} is listed but not in the contract`);
  }
  if (problems.length > 0) throw new StepFailure(`tools/list: ${problems.join('; ')}\nlisted (${names.length}): ${names.join(', ')}`);
}

/** Plays one scenario on an open connection; steps after a failure are skipped. */
export async function playScenario(scenario: Scenario, agent: Agent, events: PlayEvents = {}): Promise<ScenarioOutcome> {
  events.scenarioStarted?.(scenario);
  const started = performance.now();
  const outcome: ScenarioOutcome = {
    file: scenario.file,
    name: scenario.name,
    covers: scenario.covers,
    status: 'pass',
    durationMs: 0,
    steps: [],
  };
  const missing = scenario.requires.filter((tool) => !agent.tools.some((t) => t.name === tool));
  if (missing.length > 0) {
    outcome.status = 'skip';
    outcome.error = `the target does not serve ${missing.join(', ')}`;
  }
  const vars: Variables = {};
  for (const [index, step] of scenario.steps.entries()) {
    const kind = stepKind(step);
    const result: StepOutcome = {
      index: index + 1,
      name: stepLabel(step, vars),
      kind,
      tool: kind === 'tool' ? (step as ToolStep).tool : kind === 'instructions' ? 'GET /openspace/instructions' : 'tools/list',
      status: 'skip',
      durationMs: 0,
      calls: [],
    };
    if (outcome.status === 'pass') {
      const stepStarted = performance.now();
      try {
        if (kind === 'tool') await runToolStep(agent, step as ToolStep, vars, result.calls);
        else if (kind === 'instructions') await runInstructionsStep(agent, step as InstructionsStep, vars, result.calls);
        else await runToolsStep(agent, step as ToolsStep, result.calls);
        result.status = 'pass';
      } catch (err) {
        result.status = 'fail';
        result.error = err instanceof StepFailure ? err.message : `${result.tool}: ${(err as Error).message}`;
        outcome.status = 'fail';
        outcome.error = `step ${index + 1} (${result.name}): ${result.error}`;
      }
      result.durationMs = performance.now() - stepStarted;
    } else {
      result.error = outcome.status === 'skip' ? outcome.error : 'not run: an earlier step failed';
    }
    outcome.steps.push(result);
    events.stepEnded?.(result, scenario);
  }
  outcome.durationMs = performance.now() - started;
  events.scenarioEnded?.(outcome, scenario);
  return outcome;
}

export interface PlayOptions extends PlayEvents {
  /** Opens a target; called once per scenario when `freshTargetPerScenario`, else once for all. */
  openTarget(): Promise<HubEndpoint & { close(): Promise<void> }>;
  freshTargetPerScenario: boolean;
}

/** Plays scenarios one after another, each over its own MCP session. */
export async function playScenarios(scenarios: Scenario[], options: PlayOptions): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  let shared: (HubEndpoint & { close(): Promise<void> }) | undefined;
  try {
    for (const scenario of scenarios) {
      const started = performance.now();
      let target: (HubEndpoint & { close(): Promise<void> }) | undefined;
      let agent: Agent | undefined;
      try {
        target = options.freshTargetPerScenario ? await options.openTarget() : (shared ??= await options.openTarget());
        agent = await connectAgent(target, 'openspace-scenario-player');
        outcomes.push(await playScenario(scenario, agent, options));
      } catch (err) {
        const outcome: ScenarioOutcome = {
          file: scenario.file,
          name: scenario.name,
          covers: scenario.covers,
          status: 'fail',
          durationMs: performance.now() - started,
          steps: [],
          error: `cannot reach the target: ${(err as Error).message}`,
        };
        options.scenarioStarted?.(scenario);
        options.scenarioEnded?.(outcome, scenario);
        outcomes.push(outcome);
      } finally {
        await agent?.close().catch(() => undefined);
        if (options.freshTargetPerScenario) await target?.close().catch(() => undefined);
      }
    }
  } finally {
    await shared?.close().catch(() => undefined);
  }
  return outcomes;
}
