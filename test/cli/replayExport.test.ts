/**
 * `replay` and `export` as users run them (`node out/node/cli/index.js …`): replay in its own
 * fresh engine and browser with the exit code saying whether every call had the same outcome;
 * export to a Playwright Test file that then runs green with Playwright Test against the same
 * pages, and red when the page changed.
 *
 * Tests: src/cli/replayCommand.ts, src/cli/exportCommand.ts,
 *   src/core/recordings/replay/replayRecording.ts, src/core/recordings/export/exportRecording.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {runCli, type CliRun} from '../helpers/cliRun.js';
import {useEngineWithFixtures} from '../helpers/engine.js';
import {recordHub} from '../helpers/hubRecording.js';
import {
  playwrightFolder,
  runPlaywrightOnBoth,
  wantsChangedPages,
} from '../helpers/playwrightRun.js';
import {runShopCalls, serveShop, type ShopVariant} from '../helpers/shopCalls.js';

let variant: ShopVariant = {};
/** The shop as it changed: for the replay (by `variant`) and the Playwright run's `changed` project. */
const CHANGED: ShopVariant = {booksLabel: 'Purchase'};
const fixture = useEngineWithFixtures({
  tmpPrefix: 'mbi-replay-cli-',
  routes: server => serveShop(server, request => (wantsChangedPages(request) ? CHANGED : variant)),
});
let recordingFile = '';

beforeAll(async () => {
  const recording = recordHub(fixture.engine.engine.hub);
  await runShopCalls(fixture.client, fixture.server);
  recordingFile = path.join(fixture.tmp, 'shop.jsonl');
  await recording.save(recordingFile);
  recording.close();
});

/** The CLI to its end (bounded), with its own config dir and no display. */
const cli = (...args: string[]): Promise<CliRun> =>
  runCli(args, path.join(fixture.tmp, 'config'), 90_000);

describe('replay', () => {
  it('exits 0 when every call had the same outcome, with one line per call', async () => {
    variant = {};
    const result = await cli('replay', recordingFile, '--headless', '--isolated');
    expect(result.stderr).not.toContain('failed');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const callLines = result.stdout.split('\n').filter(line => /^#\s*\d+ /.test(line));
    expect(callLines).toHaveLength(11);
    expect(callLines.every(line => / same +/.test(line))).toBe(true);
    expect(result.stdout).toContain('Replayed 11 call(s): 11 same, 0 different, 0 failed.');
  });

  it('exits 1 and says which calls differ or failed when the page changed', async () => {
    variant = CHANGED;
    const result = await cli('replay', recordingFile, '--headless', '--isolated');
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^# +3 FAILED +click/m);
    expect(result.stdout).toContain('button "Buy" inside region "Books"');
    expect(result.stdout).toMatch(/^# +6 DIFFERENT +evaluate_script/m);
    expect(result.stdout).toMatch(/1 failed\./);
  });

  it('replays up to --until N only', async () => {
    variant = {};
    const result = await cli('replay', recordingFile, '--until', '2', '--headless', '--isolated');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('Replayed 2 call(s): 2 same, 0 different, 0 failed.');
  });

  it('exits 2 with a clear message on usage errors', async () => {
    const cases: [string[], string][] = [
      [['replay'], 'replay needs a recording'],
      [
        ['replay', recordingFile, '--bogus'],
        'mcp-browser-inspector: replay does not take --bogus.',
      ],
      [['replay', recordingFile, '--until', '0'], '--until takes a call number'],
      [['replay', recordingFile, '--until', '99'], 'the recording has 11 call(s)'],
      [['replay', path.join(fixture.tmp, 'missing.jsonl')], 'Cannot read'],
      [['export', recordingFile, '--format', 'cobol'], '--format "cobol" is not known'],
      [['export', recordingFile, '--headless'], 'export does not take --headless'],
      [['frobnicate'], 'Unknown command "frobnicate"'],
    ];
    // Each exits at once; they start side by side rather than one after another.
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    for (const [index, [args, message]] of cases.entries()) {
      const result = results[index] ?? {code: null, stdout: '', stderr: ''};
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
      // A usage error is said once; nothing claims to have been ignored.
      expect(result.stderr, args.join(' ')).not.toContain('ignored');
    }
  });
});

describe('export --format playwright', () => {
  it('writes a test that passes with Playwright Test on the same pages and fails when they change', async () => {
    variant = {};
    const dir = playwrightFolder('export-');
    try {
      const spec = path.join(dir, 'recording.spec.ts');
      const exported = await cli('export', recordingFile, '--format', 'playwright', '--out', spec);
      expect(exported.code, exported.stderr).toBe(0);
      const text = fs.readFileSync(spec, 'utf8');
      expect(text).toContain(
        `await page.goto(${JSON.stringify(fixture.server.url('/shop.html'))});`,
      );
      expect(text).toContain(
        `page.getByRole("button", { name: "Buy", exact: true }).nth(1).click();`,
      );
      expect(text).toContain('expect(await page.evaluate(');
      expect(text).toContain('.toEqual(["books","a@b.c","M"]);');
      expect(text).toMatch(/\/\/ #3 click pageId="2" uid="\d+"/);
      // Uids appear only in the comments naming the original calls, never in the code.
      const code = text.split('\n').filter(line => !line.trimStart().startsWith('//'));
      expect(code.filter(line => line.includes('uid'))).toEqual([]);
      // One run, side by side: on the same pages it must pass (time limits grow with the load);
      // on the changed pages it must fail (an idle machine's limits: each failure waits its limit out).
      const {pages: green, changed: red} = await runPlaywrightOnBoth(dir);
      expect(Object.fromEntries(green.passed), green.output).toEqual({recording: true});
      expect(Object.fromEntries(red.passed), red.output).toEqual({recording: false});
      expect(red.failures.get('recording'), red.output).toContain(
        "getByRole('button', { name: 'Buy', exact: true })",
      );
    } finally {
      variant = {};
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
});
