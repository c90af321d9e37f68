/**
 * Exported tests run as users run them: `playwright test` (the checkout's @playwright/test) over
 * a folder of exported files, on the system Chromium, no retries; the outcome per file.
 * The folder lives inside the checkout so the files resolve @playwright/test from its node_modules.
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import type {IncomingMessage} from 'node:http';
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

/**
 * The request header every request of the `changed` project carries: the fixture server answers
 * it with the changed pages (wantsChangedPages), so one run tests both kinds of pages side by side.
 */
export const CHANGED_PAGES_HEADER = 'x-mbi-changed-pages';

/** Whether a fixture page request comes from the `changed` project. */
export function wantsChangedPages(request: IncomingMessage): boolean {
  return request.headers[CHANGED_PAGES_HEADER] === '1';
}

/** Playwright workers (each with its own browser) on the pages as they are: two fill two cores. */
const PAGES_WORKERS = 2;
/**
 * Workers on the changed pages: their tests spend their time waiting out limits, not computing,
 * so they wait side by side (and Playwright starts a fresh worker after each failure).
 */
const CHANGED_WORKERS = 4;

/**
 * A fresh folder for exported tests under <checkout>/scratch, with a Playwright config of two
 * projects over the same files: `pages` (the pages as they are; time limits are an idle machine's
 * times the run's load factor) and `changed` (the fixture server's changed pages, asked for by
 * CHANGED_PAGES_HEADER; an idle machine's assertion limits, since a failure takes its full time
 * limit and a shorter one cannot make a failing test pass). Actions get at least 10 s in both.
 */
export function playwrightFolder(prefix: string): string {
  fs.mkdirSync(path.join(ROOT, 'scratch'), {recursive: true});
  const dir = fs.mkdtempSync(path.join(ROOT, 'scratch', prefix));
  fs.writeFileSync(
    path.join(dir, 'playwright.config.mjs'),
    `const load = Math.max(1, Number(process.env.${LOAD_FACTOR_ENV}) || 1);
// An action's limit has a 10 s floor in both projects: the load can rise after it was measured, and
// an action that lands (a click on a button that is there) must not fail for the machine's sake.
// The failures the changed pages must give are assertions, which keep the idle limit.
const limits = factor => ({expect: {timeout: Math.ceil(4000 * factor)}, use: {actionTimeout: Math.max(10000, Math.ceil(4000 * factor))}});
const pages = limits(load);
const changed = limits(1);
export default {
  testDir: '.',
  testMatch: /\\.spec\\.ts$/,
  workers: ${PAGES_WORKERS + CHANGED_WORKERS},
  retries: 0,
  // A whole test's limit always grows with the load: a failing test fails at its step's limit.
  timeout: Math.ceil(90000 * load),
  outputDir: './results',
  use: {headless: true, launchOptions: {executablePath: '/usr/bin/chromium', args: ['--no-sandbox']}},
  projects: [
    {name: 'pages', workers: ${PAGES_WORKERS}, expect: pages.expect, use: pages.use},
    {name: 'changed', workers: ${CHANGED_WORKERS}, expect: changed.expect, use: {...changed.use, extraHTTPHeaders: {'${CHANGED_PAGES_HEADER}': '1'}}},
  ],
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
          tests: z.array(
            z.object({
              projectName: z.string(),
              status: z.string(),
              results: z.array(z.object({error: z.object({message: z.string()}).optional()})),
            }),
          ),
        }),
      ),
    }),
  ),
});

type Report = z.infer<typeof reportSchema>;

export interface PlaywrightOutcome {
  /** Per exported file (without `.spec.ts`): true when every test in it passed. */
  passed: Map<string, boolean>;
  /** Per exported file that failed: the first error's message, without colours. */
  failures: Map<string, string>;
  /** The run's whole output, for failure messages. */
  output: string;
}

type Project = 'pages' | 'changed';

/** One project's outcome per file, from the run's JSON report. */
function outcomeOf(report: Report, project: Project, output: string): PlaywrightOutcome {
  const name = (file: string): string => file.replace(/\.spec\.ts$/, '');
  const passed = new Map<string, boolean>();
  const failures = new Map<string, string>();
  for (const suite of report.suites) {
    const tests = suite.specs.flatMap(spec => spec.tests).filter(t => t.projectName === project);
    if (tests.length === 0) {
      continue;
    }
    passed.set(
      name(suite.file),
      tests.every(test => test.status === 'expected'),
    );
    const error = tests.flatMap(test => test.results).find(run => run.error !== undefined)?.error;
    if (error) {
      failures.set(name(suite.file), stripVTControlCharacters(error.message));
    }
  }
  return {passed, failures, output};
}

/** Runs the folder's exported tests in one Playwright Test run (one process, a browser per worker). */
async function runProjects(
  dir: string,
  projects: Project[],
  timeoutMs: number,
): Promise<Report & {output: string}> {
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const result = await runNode(
    [
      cli,
      'test',
      '--config',
      'playwright.config.mjs',
      '--reporter=json',
      ...projects.map(project => `--project=${project}`),
    ],
    dir,
    scaled(timeoutMs),
  );
  if (result.stdout.trim() === '') {
    throw new Error(
      `playwright test printed no report (exit ${String(result.code)}): ${result.stderr.slice(0, 2_000)}`,
    );
  }
  const report = reportSchema.parse(JSON.parse(result.stdout));
  return {...report, output: result.stdout.slice(0, 20_000) + result.stderr.slice(0, 5_000)};
}

/** Runs every exported test of the folder once, on the pages as they are. */
export async function runPlaywright(dir: string, timeoutMs = 240_000): Promise<PlaywrightOutcome> {
  const report = await runProjects(dir, ['pages'], timeoutMs);
  return outcomeOf(report, 'pages', report.output);
}

/**
 * Runs every exported test of the folder twice in one run, side by side: on the pages as they are
 * (`pages`) and on the changed pages (`changed`). One run starts Playwright once, and the changed
 * pages' tests wait out their limits while the others compute.
 */
export async function runPlaywrightOnBoth(
  dir: string,
  timeoutMs = 240_000,
): Promise<{pages: PlaywrightOutcome; changed: PlaywrightOutcome}> {
  const report = await runProjects(dir, ['pages', 'changed'], timeoutMs);
  return {
    pages: outcomeOf(report, 'pages', report.output),
    changed: outcomeOf(report, 'changed', report.output),
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
