import { defineConfig } from '@playwright/test';

/** E2E of the real Theia IDE in Debian's Chromium; the Theia app must be built (`npm run theia:build`). */
export default defineConfig({
  testDir: 'theia-app/e2e',
  timeout: 120_000,
  workers: 1,
  reporter: [['list']],
  outputDir: 'reports/playwright',
});
