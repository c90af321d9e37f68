/**
 * Exported tests run as users run them: `playwright test` (the checkout's @playwright/test) over
 * a folder of exported files, on the system Chromium, no retries; the outcome per file.
 * The folder lives inside the checkout so the files resolve @playwright/test from its node_modules.
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {stripVTControlCharacters} from 'node:util';
import {z} from 'zod';
import {collectRun, type CliRun} from './cliRun.js';
import {ROOT} from './engine.js';
import {LOAD_FACTOR_ENV, scaled} from './loadFactor.js';

/** How a process ended and what it printed. */
export type ProcessRun = CliRun;

/** Runs `node <args>` in `cwd` to its end (killed after `timeoutMs`), with `env` added. */
export function runNode(
  args: string[],
  cwd: string,
  timeoutMs = 240_000,
  env: Record<string, string> = {},
): Promise<ProcessRun> {
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...process.env, ...env},
  });
  return collectRun(child, timeoutMs);
}

/** The environment variable the folder's config reads its time-limit factor from. */
const TIMEOUT_FACTOR_ENV = 'MBI_PLAYWRIGHT_TIMEOUT_FACTOR';

/**
 * A fresh folder for exported tests under <checkout>/scratch, with a Playwright config whose time
 * limits are an idle machine's times a factor runPlaywright gives it: the run's load factor when
 * the tests must pass, 1 when they must fail (a failure takes its full time limit; a shorter one
 * cannot make a failing test pass).
 */
export function playwrightFolder(prefix: string): string {
  fs.mkdirSync(path.join(ROOT, 'scratch'), {recursive: true});
  const dir = fs.mkdtempSync(path.join(ROOT, 'scratch', prefix));
  fs.writeFileSync(
    path.join(dir, 'playwright.config.mjs'),
    `const factor = Math.max(1, Number(process.env.${TIMEOUT_FACTOR_ENV}) || 1);
// A whole test's limit always grows with the load: a failing test fails at its step's limit.
const load = Math.max(1, Number(process.env.${LOAD_FACTOR_ENV}) || 1);
export default {
  testDir: '.',
  testMatch: /\\.spec\\.ts$/,
  workers: 1,
  retries: 0,
  timeout: Math.ceil(90000 * load),
  expect: {timeout: Math.ceil(4000 * factor)},
  outputDir: './results',
  use: {headless: true, actionTimeout: Math.ceil(4000 * factor), launchOptions: {executablePath: '/usr/bin/chromium', args: ['--no-sandbox']}},
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

/** Playwright workers (each with its own browser) for a run whose files all wait out a limit. */
const FAILING_RUN_WORKERS = 4;

/**
 * Runs every exported test of the folder once, in one Playwright Test run (one process, a browser
 * per worker). `expected` is what the caller asserts: 'fail' runs use an idle
 * machine's time limits, since every failure waits its limit out.
 */
export async function runPlaywright(
  dir: string,
  expected: 'pass' | 'fail' = 'pass',
  timeoutMs = 240_000,
): Promise<PlaywrightOutcome> {
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const factor = expected === 'pass' ? scaled(1_000) / 1_000 : 1;
  // A run that must fail spends its time waiting out limits, not computing: its files wait side
  // by side. A passing run computes; two workers fill an idle machine's two cores.
  const workers = expected === 'pass' ? 2 : FAILING_RUN_WORKERS;
  const result = await runNode(
    [cli, 'test', '--config', 'playwright.config.mjs', '--reporter=json', `--workers=${workers}`],
    dir,
    scaled(timeoutMs),
    {[TIMEOUT_FACTOR_ENV]: String(factor)},
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
