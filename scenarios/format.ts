/**
 * The scenario file format (scenarios/README.md describes it for authors): a YAML document with a
 * name and a list of steps, checked against a zod schema. Errors name the file and the line.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { z } from 'zod';

/** A value to compare a result against: partial objects, regex strings, `$` operators (see match.ts). */
const Matcher = z.unknown();

/** `name: path.in.result`, e.g. `term: terminalId` or `pane: panes.0.id`. */
const Capture = z.record(z.string().regex(/^[A-Za-z_]\w*$/, 'a variable name is letters, digits and _'), z.string());

const Timing = {
  /** The step fails when it took longer than this (a latency budget). */
  maxMs: z.number().positive().optional(),
};

const WaitFor = z
  .object({
    /** The condition the result must meet, in the same language as `expect`. */
    until: Matcher,
    timeoutMs: z.number().positive().default(5000),
    intervalMs: z.number().positive().default(100),
  })
  .strict();

export const ToolStepSchema = z
  .object({
    name: z.string().optional(),
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()).default({}),
    /** Partial deep match against the structured result; omitted means `{success: true}`. */
    expect: Matcher.optional(),
    capture: Capture.optional(),
    waitFor: WaitFor.optional(),
    ...Timing,
  })
  .strict();

/** A string, or `/regex/flags`, that the instructions text must (or must not) contain. */
const TextPattern = z.string();

export const InstructionsStepSchema = z
  .object({
    name: z.string().optional(),
    instructions: z
      .object({
        contains: z.array(TextPattern).default([]),
        excludes: z.array(TextPattern).default([]),
        /** The IDE publishes its state at most once a second: the check retries until it holds. */
        timeoutMs: z.number().nonnegative().default(3000),
      })
      .strict(),
    ...Timing,
  })
  .strict();

export const ToolsStepSchema = z
  .object({
    name: z.string().optional(),
    tools: z
      .object({
        includes: z.array(z.string()).default([]),
        excludes: z.array(z.string()).default([]),
        /** Matched against the number of tools listed, e.g. `{$gte: 20}`. */
        count: Matcher.optional(),
        /** Every tool of this OpenSpace's contract is listed with exactly the contract's schemas. */
        matchContract: z.boolean().default(false),
      })
      .strict(),
    ...Timing,
  })
  .strict();

export const StepSchema = z.union([ToolStepSchema, InstructionsStepSchema, ToolsStepSchema]);

export const ScenarioSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** The stories and tests the scenario covers, e.g. [US-3.3, T3, T4]. */
    covers: z.array(z.string()).default([]),
    /** Tools the target must serve; without them the scenario is skipped, not failed. */
    requires: z.array(z.string()).default([]),
    steps: z.array(StepSchema).min(1),
  })
  .strict();

export type ToolStep = z.output<typeof ToolStepSchema>;
export type InstructionsStep = z.output<typeof InstructionsStepSchema>;
export type ToolsStep = z.output<typeof ToolsStepSchema>;
export type Step = z.output<typeof StepSchema>;
export type Scenario = z.output<typeof ScenarioSchema> & { file: string };

export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: { line?: number; message: string }[],
  ) {
    super(problems.map((p) => `${file}${p.line ? `:${p.line}` : ''}: ${p.message}`).join('\n'));
    this.name = 'ScenarioFileError';
  }
}

/** The kind of a step, from the key that names it. */
export function stepKind(step: Step): 'tool' | 'instructions' | 'tools' {
  return 'tool' in step ? 'tool' : 'instructions' in step ? 'instructions' : 'tools';
}

/** The line of the deepest node that exists along a path in the document. */
function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * One step's union error says little ("Invalid input"); explain it by the step's kind instead:
 * a step with `tool` is checked as a tool step, and so on.
 */
function stepIssues(value: unknown, at: (string | number)[]): z.core.$ZodIssue[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return [{ code: 'custom', path: at, message: 'a step is a mapping with one of tool, instructions or tools', input: value }];
  }
  const schema =
    'tool' in value ? ToolStepSchema : 'instructions' in value ? InstructionsStepSchema : 'tools' in value ? ToolsStepSchema : undefined;
  if (!schema) return [{ code: 'custom', path: at, message: 'a step needs one of tool, instructions or tools', input: value }];
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] }));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.join('.') : '(file)';
  if (issue.code === 'unrecognized_keys') return `${where}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return `${where}: ${issue.message}`;
}

/** Parse and check a scenario from YAML text; throws ScenarioFileError naming the lines at fault. */
export function parseScenario(text: string, file: string): Scenario {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true });
  if (doc.errors.length > 0) {
    // After the first syntax error the parser's later complaints are mostly echoes of it.
    const shown = doc.errors.slice(0, 3).map((e) => ({ line: e.linePos?.[0]?.line, message: e.message.split('\n')[0]! }));
    if (doc.errors.length > 3) shown.push({ line: undefined, message: `… and ${doc.errors.length - 3} more YAML errors after these` });
    throw new ScenarioFileError(file, shown);
  }
  const value: unknown = doc.toJS();
  const parsed = ScenarioSchema.safeParse(value);
  if (parsed.success) return { ...parsed.data, file };
  const issues = parsed.error.issues.flatMap((issue) => {
    const steps = (value as { steps?: unknown[] } | null)?.steps;
    if (issue.path[0] === 'steps' && typeof issue.path[1] === 'number' && issue.path.length === 2 && Array.isArray(steps)) {
      return stepIssues(steps[issue.path[1]], issue.path as (string | number)[]);
    }
    return [issue];
  });
  throw new ScenarioFileError(
    file,
    issues.map((issue) => {
      // An unknown key is best shown on its own line, not on the line of the mapping holding it.
      const at = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])] as (string | number)[];
      return { line: lineOf(doc, lines, at), message: describeIssue(issue) };
    }),
  );
}

export async function loadScenario(file: string): Promise<Scenario> {
  return parseScenario(await readFile(file, 'utf8'), file);
}
