import {defineConfig} from 'vitest/config';
import {LOAD_FACTOR_ENV, loadFactor} from './test/helpers/loadFactor.js';

// Measured once for the whole run, before any worker starts, and handed to every worker (and the
// processes tests start) by the environment: time limits grow with the machine's load.
const factor = loadFactor();
process.env[LOAD_FACTOR_ENV] = String(factor);

/**
 * Pure unit tests (no browser, no process, no module mocks or global state): they share worker
 * processes and module instances, which saves a process start and a module load per file.
 * Everything else keeps a fresh process per file. renderer/connection fakes timers and globals, so
 * it keeps its own. A file added to the list must stay pure: no vi.mock, fake timers, stubbed
 * globals or environment, browser or child process.
 */
const SHARED_WORKER_TESTS = [
  'test/renderer/!(connection).test.{ts,tsx}',
  'test/shared/*.test.ts',
  'test/core/browser/{keyboard,timeouts}.test.ts',
  'test/core/heap/units.test.ts',
  'test/core/recordings/replayCompare.test.ts',
  'test/core/telemetry/sanitize.test.ts',
  'test/core/tools/toolRecords.test.ts',
  'test/core/webmcp/pageToolNames.test.ts',
  'test/layout.test.ts',
];

/**
 * Integration files that keep a process of their own (isolate): they mock modules, fake timers,
 * stub globals or the environment, change the working folder or add process handlers. Every
 * other integration file shares its worker's module instances with the files before it, which
 * saves the module loading per file (3–4 s of a loaded machine's time each); each still launches
 * and closes its own browser and servers.
 */
const OWN_PROCESS_TESTS = [
  'test/renderer/connection.test.ts',
  'test/scripts/{start,electronDownload}.test.ts',
  'test/cli/processTree.test.ts',
  'test/main/*.test.ts',
  'test/preload/*.test.ts',
  'test/core/snapshot/workBudget.test.ts',
  'test/core/browser/{lock,keyScrollWait}.test.ts',
  'test/core/recordings/links.test.ts',
  'test/core/inspector/InspectorHub.test.ts',
  'test/core/files/safeOpen.test.ts',
  'test/core/heap/snapshotFiles.test.ts',
  'test/core/mcp/{hostileValues,progress,replyMemory}.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: Math.ceil(60_000 * factor),
    hookTimeout: Math.ceil(120_000 * factor),
    // Each file launches its own Chromium; two cores run two files at once comfortably.
    maxWorkers: 2,
    fileParallelism: true,
    pool: 'forks',
    env: {MCP_BROWSER_INSPECTOR_TEST: '1', [LOAD_FACTOR_ENV]: String(factor)},
    // MBI_TEST_CPU_LOG=<file>: CPU seconds per test file, appended there (comparable under load).
    setupFiles: process.env.MBI_TEST_CPU_LOG ? ['test/helpers/cpuTimeLog.ts'] : [],
    projects: [
      {
        extends: true,
        test: {name: 'unit', include: SHARED_WORKER_TESTS, isolate: false},
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...SHARED_WORKER_TESTS, ...OWN_PROCESS_TESTS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {name: 'own-process', include: OWN_PROCESS_TESTS},
      },
    ],
  },
});
