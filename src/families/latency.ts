/**
 * How the latency budgets exercise a family's tools: each family's latency.ts (beside its tools)
 * gives a representative successful call of every tool it has, and what to do around it, untimed.
 * conformance/specs/latency.test.ts finds them by their place (src/families/<family>/latency.ts), so
 * adding a family adds its workloads without editing the spec; a family whose latency.ts misses one
 * of its tools does not compile. Types only: nothing here runs in an IDE.
 */
import type { ToolDefinition } from '../contract/index.js';

/** A tool's structured answer (success, and the tool's own fields). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = Record<string, any>;

/** What the spec lends the workloads. */
export interface LatencyKit {
  /** Call a tool as the measuring agent, untimed; fails the test unless it succeeds. */
  ok(tool: string, args?: Record<string, unknown>): Promise<Answer>;
  /** Once per run: a 5-slide deck and a board with six shapes, both open beside the code. */
  openDeckAndBoard(): Promise<void>;
  /** That deck's and that board's paths. */
  DECK: string;
  BOARD: string;
}

/** A tool whose time is a program's it runs (a test runner, a script): why the latency spec does not time it, and where it is measured instead. */
export interface UntimedWorkload {
  untimed: string;
}

export interface Workload {
  /** Untimed, once before the samples. */
  before?: () => Promise<void>;
  /** Untimed, before each sample; returns the arguments of the timed call. */
  prepare: (i: number) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Untimed, after each sample. */
  cleanup?: (i: number, result: Answer) => Promise<void>;
  /** Untimed, once after the samples: leaves the IDE as the next tool's workload expects it. */
  after?: () => Promise<void>;
  /**
   * Instead of an untimed cleanup: the call that undoes the sample, itself timed (after a settle) as
   * a sample of its own tool, whose test then uses these samples. An open and a close measured in
   * one loop cost Theia one open and one close per pair of samples, not two of each.
   */
  undo?: { tool: string; args: (i: number, result: Answer) => Record<string, unknown> };
  /**
   * What the workspace must be: `repository`, a git repository with every file committed (the spec
   * makes it one where the workspace is on disk, once, and skips the tool on the in-memory one);
   * `disk`, a directory programs can read (skipped on the in-memory workspace).
   */
  needs?: 'repository' | 'disk';
}

/** A family's workloads, one per tool, made once per run (state they share lives in the closure). */
export type LatencyWorkloads<T extends readonly ToolDefinition[] = readonly ToolDefinition[]> = (kit: LatencyKit) => {
  readonly [K in T[number]['name']]: Workload | UntimedWorkload;
};
