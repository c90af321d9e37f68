import {defineConfig} from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file launches its own Chromium; two cores run two files at once comfortably.
    maxWorkers: 2,
    fileParallelism: true,
    pool: 'forks',
    env: {MCP_BROWSER_INSPECTOR_TEST: '1'},
  },
});
