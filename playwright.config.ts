import { defineConfig } from '@playwright/test';

/**
 * A shard (`--shard I/N`, one per machine) also writes a blob report; `npx playwright merge-reports
 * --reporter list,junit,html reports/e2e-blob` makes one report of them all.
 */
const sharded = process.argv.some((arg) => arg.startsWith('--shard'));

/** The E2E reach nothing over TLS: their Theias start without a CA bundle to parse (vitest.config.ts says why). */
delete process.env.NODE_EXTRA_CA_CERTS;

/** E2E of the real Theia IDE in Debian's Chromium; the Theia app must be built (`npm run theia:build`). */
export default defineConfig({
  testDir: 'theia-app/e2e',
  timeout: 120_000,
  // Two files at a time, each with a Theia of its own: most of a file's time is Theia starting and
  // the window waiting, so on this 2-core machine the run takes 3.4 min instead of 4.7.
  workers: 2,
  reporter: sharded ? [['list'], ['blob', { outputDir: 'reports/e2e-blob' }]] : [['list']],
  outputDir: 'reports/playwright',
});
