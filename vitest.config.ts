import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sim/**/*.test.ts', 'conformance/**/*.test.ts', 'scenarios/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    exclude: ['**/node_modules/**', 'sim/demo-workspace/**', 'conformance/fixtures/**'],
    pool: 'forks',
  },
});
