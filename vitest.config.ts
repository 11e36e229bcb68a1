import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** A running hub given by URL is one IDE shared by every spec file: run the files one after another (on Theia each file starts its own). */
const sharedTarget = /^https?:/.test(process.env.OPENSPACE_TARGET ?? '');

/** Hubs started by tests announce themselves here, not in the user's ~/.openspace/ide. */
process.env.OPENSPACE_LOCK_DIR ??= join(tmpdir(), `openspace-test-locks-${process.pid}`);
/**
 * The suite reaches nothing over TLS, so the processes it starts go without a CA bundle the machine
 * names for Node (NODE_EXTRA_CA_CERTS): Node parses it at each start, ~90 ms of CPU here for a
 * 3,613-line bundle against ~30 ms for the rest of `node -e 0`, and the killed writers of the crash
 * test alone are 200 starts (43 → 25 CPU-s). A person's hub and IDE keep their environment.
 */
delete process.env.NODE_EXTRA_CA_CERTS;

const LATENCY_SPEC = 'conformance/specs/latency.test.ts';
const THEIA_UNIT_TESTS = 'theia-app/openspace/src/**/*.theia.test.ts';
/** Tests of real agent CLIs (installed by npm ci --prefix ci/agents): npm run test:agents runs them. */
const REAL_AGENT_TESTS = ['conformance/agents/**/*.test.ts', 'theia-app/openspace/src/**/*.agents.test.ts'];
/** Specs of what the hub answers before any IDE or workspace is involved. */
const HUB_ONLY_SPECS = ['tools', 'invalid-input', 'access', 'consent-idle'].map((name) => `conformance/specs/${name}.test.ts`);
/** Unit tests that replace a module (vi.mock): each runs in a fresh module registry of its own. */
const MOCKING_TESTS = ['src/store/workspace-search-race.test.ts'];
const UNIT_TESTS = [
  'src/**/*.test.ts',
  'sim/**/*.test.ts',
  'theia-app/openspace/src/**/*.test.{ts,tsx}',
  'conformance/*.test.ts',
  'conformance/report/*.test.ts',
  'scenarios/**/*.test.ts',
  'ci/*.test.ts',
];

const shared = {
  fileParallelism: !sharedTarget,
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks' as const,
  exclude: ['**/node_modules/**', 'sim/demo-workspace/**', 'conformance/fixtures/**'],
};

export default defineConfig({
  test: {
    // NFR-3.4.1: at least 80% of src/ statements run by the suite (`npm test` measures and holds it).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      // A family's latency workloads run in the latency run, which measures time, not coverage.
      exclude: ['src/**/*.test.ts', 'src/families/*/latency.ts'],
      reporter: ['text-summary', ['text', { skipFull: true }]],
      thresholds: { statements: 80 },
    },
    projects: [
      // The unit tests share a worker's loaded modules (isolate: false), as the conformance specs do:
      // loading them again for each of some 70 files was a third of the run's CPU. Tests that
      // replace a module get a registry of their own.
      {
        test: {
          ...shared,
          name: 'unit',
          isolate: false,
          include: UNIT_TESTS,
          exclude: [...shared.exclude, THEIA_UNIT_TESTS, ...REAL_AGENT_TESTS, ...MOCKING_TESTS],
        },
      },
      { test: { ...shared, name: 'unit:mocking', include: MOCKING_TESTS } },
      // Unit tests of the Theia extension that load Theia's own packages, installed with the Theia app
      // (npm run test:theia runs them after building it).
      { test: { ...shared, name: 'theia-unit', include: [THEIA_UNIT_TESTS] } },
      // The target-agnostic suite, against the simulated IDE in memory (scripted shell) … Each spec
      // file starts its own target, so the files share a worker's loaded modules (isolate: false):
      // a third less time and CPU than loading them again for each file.
      {
        test: {
          ...shared,
          name: 'conformance',
          isolate: false,
          include: ['conformance/specs/**/*.test.ts'],
          exclude: [...shared.exclude, LATENCY_SPEC],
        },
      },
      // … and on a real directory (real shells through node-pty, ripgrep), less the specs of the
      // hub's own contract that no workspace reaches: the catalog, input validation, access and
      // consent (they run on the simulated IDE in memory and on Theia).
      {
        test: {
          ...shared,
          name: 'conformance:sim-disk',
          isolate: false,
          include: ['conformance/specs/**/*.test.ts'],
          exclude: [...shared.exclude, LATENCY_SPEC, ...HUB_ONLY_SPECS],
          env: { OPENSPACE_SIM_WORKSPACE: 'disk' },
        },
      },
      // The latency budgets last, when the other files no longer compete for the CPU, on the simulated
      // IDE on disk (real shells, git, runners and debuggers), in two parts at once (half the families
      // each, see the spec). In memory the same hub and commands measured at most 1.8 ms slower at p50
      // (and faster where the disk has real shells and files): a second measurement of the same code,
      // which `npm run conformance` takes.
      // 50 samples a tool here, where calls take a few milliseconds against budgets of 100 and 500
      // (p99 is then the slowest), as in the real IDE's run (npm run test:theia); a breach is measured
      // again with 100.
      ...[1, 2].map((part) => ({
        test: {
          ...shared,
          name: `conformance:latency:${part}`,
          include: [LATENCY_SPEC],
          sequence: { groupOrder: 1 },
          env: { OPENSPACE_LATENCY_SAMPLES: '50', OPENSPACE_SIM_WORKSPACE: 'disk', OPENSPACE_LATENCY_PART: `${part}/2` },
        },
      })),
      // Real Claude Code and OpenCode against a scripted model (npm run test:agents; not in npm test).
      {
        test: {
          ...shared,
          name: 'agents',
          include: REAL_AGENT_TESTS,
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
