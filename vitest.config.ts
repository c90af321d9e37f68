import {defineConfig} from 'vitest/config';
import {LOAD_FACTOR_ENV, loadFactor} from './test/helpers/loadFactor.js';

// Measured once for the whole run, before any worker starts, and handed to every worker (and the
// processes tests start) by the environment: time limits grow with the machine's load.
const factor = loadFactor();
process.env[LOAD_FACTOR_ENV] = String(factor);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: Math.ceil(60_000 * factor),
    hookTimeout: Math.ceil(120_000 * factor),
    // Each file launches its own Chromium; two cores run two files at once comfortably.
    maxWorkers: 2,
    fileParallelism: true,
    pool: 'forks',
    env: {MCP_BROWSER_INSPECTOR_TEST: '1', [LOAD_FACTOR_ENV]: String(factor)},
  },
});
