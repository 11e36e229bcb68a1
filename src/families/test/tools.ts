import { z } from 'zod';
import { WorkspacePath } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

/** How long a run may take when the agent does not say. */
export const DEFAULT_TEST_TIMEOUT_MS = 120_000;
export const MAX_TEST_TIMEOUT_MS = 600_000;
/** The most tests one answer lists; failures first, so none of them is cut. */
export const MAX_LISTED_TESTS = 1000;

/** The runners a workspace's tests run with, when the person names them; otherwise they are found from its files. */
export const TEST_RUNNERS_SETTING = 'openspace.test.runners';

export const TestRunner = z.enum(['vitest', 'jest', 'node', 'pytest']).describe('The test runner: Vitest, Jest, node --test or pytest');

export const TestCase = z.object({
  id: z.string().describe('Stable ID: "<path>::<suite>::<name>" (pytest: its node ID); pass it in names to run just this test'),
  name: z.string(),
  suite: z.array(z.string()).describe('Enclosing describe blocks or classes, outermost first'),
  path: z.string().describe('Workspace-relative test file'),
  line: z.number().int().optional().describe("1-based line of the test's declaration"),
  runner: TestRunner,
});

const FileError = z.object({
  path: z.string(),
  message: z.string().describe('Why the file could not be loaded (a syntax error, a failing import)'),
  line: z.number().int().optional(),
});

export const TestOutcome = TestCase.extend({
  status: z.enum(['passed', 'failed', 'skipped', 'todo']),
  durationMs: z.number().optional(),
  failure: z
    .object({
      message: z.string(),
      expected: z.string().optional(),
      actual: z.string().optional(),
      path: z.string().optional().describe('Workspace-relative file of the failing assertion'),
      line: z.number().int().optional().describe('1-based line of the failing assertion'),
    })
    .optional(),
});

export const TestRun = z.object({
  status: z
    .enum(['passed', 'failed', 'timed-out', 'cancelled'])
    .describe('failed: a test failed or a file did not load; timed-out and cancelled list what finished'),
  runners: z.array(TestRunner),
  startedAt: z.string(),
  durationMs: z.number(),
  by: z.enum(['agent', 'person']).describe('Who started the run'),
  counts: z.object({ passed: z.number().int(), failed: z.number().int(), skipped: z.number().int(), todo: z.number().int() }),
  tests: z.array(TestOutcome).describe('Failed tests first'),
  errors: z.array(FileError).describe('Test files that did not load: none of their tests ran'),
  truncated: z.boolean().optional().describe(`More than ${MAX_LISTED_TESTS} tests ran; the passed ones past that are not listed`),
});

export const testDiscover = defineTool({
  name: 'openspace.test.discover',
  title: 'Tests: Discover',
  description:
    "List the workspace's tests (or those under path) with their file and line, from the project's own runner: Vitest, Jest, node --test or pytest, " +
    'found from package.json and config files. No test body runs. NO_TEST_RUNNER when none is found or installed.',
  input: z.strictObject({ path: WorkspacePath.optional().describe('A test file or a directory; default: the whole workspace') }),
  output: z.object({ runners: z.array(TestRunner), tests: z.array(TestCase), errors: z.array(FileError) }),
  budget: 'complex',
  effect: 'read-only',
  waitsUpTo: () => DEFAULT_TEST_TIMEOUT_MS,
});

export const testRun = defineTool({
  name: 'openspace.test.run',
  title: 'Tests: Run',
  description:
    "Run tests with the project's runner and answer per test: status, duration, and for a failure its message, expected and actual, " +
    'and the file:line of the failing assertion. Pick tests by names (a name, "Suite > name" or an ID from test.discover), ' +
    'by path and line (the test around that line), by paths (files or directories), or none for all. ' +
    'Runs in the agent sandbox like a terminal command; the run ends at timeoutMs and says what finished. Prefer this to parsing terminal output.',
  input: z.strictObject({
    paths: z.array(WorkspacePath).min(1).max(100).optional().describe('Test files or directories'),
    names: z.array(z.string().min(1).max(1000)).min(1).max(100).optional().describe('Tests by name, "Suite > name" or ID'),
    path: WorkspacePath.optional().describe('With line: the test file'),
    line: z.number().int().min(1).optional().describe('With path: a line inside the test to run'),
    timeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(MAX_TEST_TIMEOUT_MS)
      .optional()
      .describe(`The whole run's limit (default ${DEFAULT_TEST_TIMEOUT_MS / 1000} s)`),
  }),
  output: TestRun,
  budget: 'complex',
  effect: 'write',
  waitsUpTo: (args) => (args.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS) + 5000,
  session: {},
});

export const testResults = defineTool({
  name: 'openspace.test.results',
  title: 'Tests: Last Results',
  description:
    "The last test run's results (the agent's or one the person started), as openspace.test.run answered them. NO_TEST_RESULTS before any run.",
  input: z.strictObject({}),
  output: TestRun,
  budget: 'simple',
  effect: 'read-only',
});

export const testCancel = defineTool({
  name: 'openspace.test.cancel',
  title: 'Tests: Cancel Run',
  description:
    'Stop the test run in progress; its openspace.test.run answers "cancelled" with what finished. cancelled is false when none runs.',
  input: z.strictObject({}),
  output: z.object({ cancelled: z.boolean() }),
  budget: 'simple',
  effect: 'write',
  session: {},
});

export default [testDiscover, testRun, testResults, testCancel] as const;
