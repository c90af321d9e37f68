/**
 * Exported tests run as users run them: `playwright test` (the checkout's @playwright/test) over
 * a folder of exported files, on the system Chromium, one worker, no retries; the outcome per file.
 * The folder lives inside the checkout so the files resolve @playwright/test from its node_modules.
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {stripVTControlCharacters} from 'node:util';
import {z} from 'zod';
import {collectRun, type CliRun} from './cliRun.js';
import {ROOT} from './engine.js';

/** How a process ended and what it printed. */
export type ProcessRun = CliRun;

/** Runs `node <args>` in `cwd` to its end (killed after `timeoutMs`). */
export function runNode(args: string[], cwd: string, timeoutMs = 240_000): Promise<ProcessRun> {
  const child = spawn(process.execPath, args, {cwd, stdio: ['ignore', 'pipe', 'pipe']});
  return collectRun(child, timeoutMs);
}

/** A fresh folder for exported tests under <checkout>/scratch, with a Playwright config. */
export function playwrightFolder(prefix: string): string {
  fs.mkdirSync(path.join(ROOT, 'scratch'), {recursive: true});
  const dir = fs.mkdtempSync(path.join(ROOT, 'scratch', prefix));
  fs.writeFileSync(
    path.join(dir, 'playwright.config.mjs'),
    `export default {
  testDir: '.',
  testMatch: /\\.spec\\.ts$/,
  workers: 1,
  retries: 0,
  timeout: 90000,
  expect: {timeout: 4000},
  outputDir: './results',
  use: {headless: true, actionTimeout: 4000, launchOptions: {executablePath: '/usr/bin/chromium', args: ['--no-sandbox']}},
};
`,
  );
  return dir;
}

const reportSchema = z.object({
  suites: z.array(
    z.object({
      file: z.string(),
      specs: z.array(
        z.object({
          ok: z.boolean(),
          tests: z.array(
            z.object({
              results: z.array(z.object({error: z.object({message: z.string()}).optional()})),
            }),
          ),
        }),
      ),
    }),
  ),
});

export interface PlaywrightOutcome {
  /** Per exported file (without `.spec.ts`): true when every test in it passed. */
  passed: Map<string, boolean>;
  /** Per exported file that failed: the first error's message, without colours. */
  failures: Map<string, string>;
  /** The run's whole output, for failure messages. */
  output: string;
}

/** Runs every exported test of the folder once (all of them in one run: one start-up). */
export async function runPlaywright(dir: string, timeoutMs = 240_000): Promise<PlaywrightOutcome> {
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const result = await runNode(
    [cli, 'test', '--config', 'playwright.config.mjs', '--reporter=json'],
    dir,
    timeoutMs,
  );
  if (result.stdout.trim() === '') {
    throw new Error(
      `playwright test printed no report (exit ${String(result.code)}): ${result.stderr.slice(0, 2_000)}`,
    );
  }
  const report = reportSchema.parse(JSON.parse(result.stdout));
  const name = (file: string): string => file.replace(/\.spec\.ts$/, '');
  const failures = new Map<string, string>();
  for (const suite of report.suites) {
    const error = suite.specs
      .flatMap(spec => spec.tests.flatMap(test => test.results))
      .find(run => run.error !== undefined)?.error;
    if (error) {
      failures.set(name(suite.file), stripVTControlCharacters(error.message));
    }
  }
  return {
    passed: new Map(
      report.suites.map(suite => [name(suite.file), suite.specs.every(spec => spec.ok)]),
    ),
    failures,
    output: result.stdout.slice(0, 20_000) + result.stderr.slice(0, 5_000),
  };
}

/** A tsconfig that type-checks the folder's exported specs as a user's strict project would. */
export function writeStrictTsconfig(dir: string): void {
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        skipLibCheck: true,
      },
      include: ['*.spec.ts'],
    }),
  );
}
