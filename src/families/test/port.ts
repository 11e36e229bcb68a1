import type { z } from 'zod';
import type { TestCase, TestRun } from './tools.js';

export type TestRunInfo = z.output<typeof TestRun>;
export type TestCaseInfo = z.output<typeof TestCase>;

export interface TestDiscovery {
  runners: TestCaseInfo['runner'][];
  tests: TestCaseInfo[];
  errors: { path: string; message: string; line?: number }[];
}

/**
 * The workspace's tests, through the project's own runners (src/families/test/service.ts, Node
 * only). Paths are workspace-relative and already checked by the path guard. Throws NO_TEST_RUNNER
 * (none found or installed), TEST_NOT_FOUND (no test by that name or at that line), TEST_RUN_BUSY
 * (one run at a time), TEST_RUN_FAILED (the runner ended without reporting).
 */
export interface TestPort {
  /** Whether runs go in the agent sandbox; when not, an agent's run waits for the person's yes. */
  readonly sandboxed: boolean;
  discover(paths: string[]): Promise<TestDiscovery>;
  run(request: {
    paths: string[];
    names?: string[];
    at?: { path: string; line: number };
    timeoutMs: number;
    by: 'agent' | 'person';
    /** Aborted: the run stops as a cancel stops it. */
    signal?: AbortSignal;
  }): Promise<TestRunInfo>;
  /** The last run's answer, whoever started it. */
  last(): TestRunInfo | undefined;
  /** Stop the run in progress; false when none runs. */
  cancel(): boolean;
  /** Told of every run's answer (the live state counts its failures). */
  onRun(listener: (run: TestRunInfo) => void): () => void;
}
