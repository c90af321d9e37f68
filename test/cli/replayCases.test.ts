/**
 * `replay` and `export` on recordings made with the real engine, run as users run them: a
 * recording whose first call names a page, replayed as the oldest of 50 in the recordings folder
 * (it is not removed; the replay's own recording says what it replayed); a click that opens a
 * popup the next calls use; the recorded flags used again (and overridden from the command line);
 * a server that moved (`--origin`, and without it a first navigation that says which origin it
 * could not reach); export's --until past the end and --out onto the recording refused. The
 * exports of those recordings (the --viewport one sets the recorded size; the moved one is mapped
 * back with --origin) are run with Playwright Test against the fixture server, and pass.
 *
 * Tests: src/cli/replayCommand.ts, src/cli/exportCommand.ts,
 *   src/core/recordings/replay/replayRecording.ts, src/core/recordings/export/exportRecording.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {mapRecordingOrigins} from '../../src/core/recordings/origins.js';
import {headerFlags} from '../../src/core/recordings/secrets.js';
import {
  parseRecordingText,
  recordingFileName,
  recordingText,
} from '../../src/shared/recordingFile.js';
import {runCli, type CliRun} from '../helpers/cliRun.js';
import {call, startEngine, useEngineWithFixtures} from '../helpers/engine.js';
import {recordHub} from '../helpers/hubRecording.js';
import {playwrightFolder, runPlaywright} from '../helpers/playwrightRun.js';
import {restartablePort} from '../helpers/ports.js';
import {serveShop} from '../helpers/shopPages.js';
import {serveWidgets} from '../helpers/widgetPages.js';
import {Agent, WIDGET_SESSIONS} from '../helpers/widgetSessions.js';
import {scaled} from '../helpers/loadFactor.js';

const fixture = useEngineWithFixtures({
  tmpPrefix: 'mbi-replay-cases-',
  routes: server => {
    serveShop(server, () => ({}));
    serveWidgets(server, () => ({}));
  },
});
const files = {pageFirst: '', popup: '', viewport: ''};
let configDir = '';

/** Ports Chromium refuses to load whatever listens there (it would say ERR_UNSAFE_PORT). */
const UNSAFE_PORTS = new Set([1719, 1720, 1723, 2049, 3659, 4045, 5060, 5061, 6000, 6566, 6697]);

async function deadOrigin(): Promise<string> {
  for (;;) {
    const port = await restartablePort();
    if (!UNSAFE_PORTS.has(port) && (port < 6665 || port > 6669) && port !== 10080) {
      return `http://127.0.0.1:${port}`;
    }
  }
}

function cli(...args: string[]): Promise<CliRun> {
  return runCli(args, configDir);
}

/** The page-first recording as if its server had been at `dead`. */
function movedRecording(dead: string, name: string): string {
  const moved = path.join(fixture.tmp, name);
  const recording = parseRecordingText(fs.readFileSync(files.pageFirst, 'utf8'));
  const mapped = mapRecordingOrigins(recording, new Map([[fixture.server.origin, dead]]));
  fs.writeFileSync(moved, recordingText(mapped.header, mapped.events));
  return moved;
}

function callLines(run: CliRun): string[] {
  return run.stdout.split('\n').filter(line => /^#\s*\d+ /.test(line));
}

beforeAll(async () => {
  configDir = path.join(fixture.tmp, 'config');
  const hub = fixture.engine.engine.hub;
  // The first call names the browser's first tab before the browser runs.
  const first = recordHub(hub);
  const shop = fixture.server.url('/shop.html');
  const agent = new Agent(fixture.client, fixture.server, fixture.tmp);
  await agent.ok('navigate_page', {pageId: 1, url: shop});
  await agent.ok('take_snapshot', {pageId: 1});
  await agent.ok('evaluate_script', {pageId: 1, function: '() => document.title'});
  files.pageFirst = path.join(fixture.tmp, 'page-first.jsonl');
  await first.save(files.pageFirst);
  first.close();

  const popup = recordHub(hub, hub.nextSeq);
  await (WIDGET_SESSIONS.popup ?? (() => Promise.resolve()))(agent);
  files.popup = path.join(fixture.tmp, 'popup.jsonl');
  await popup.save(files.popup);
  popup.close();

  const sized = await startEngine(['--viewport', '800x600']);
  try {
    const client = await sized.connect('sized-agent');
    const recording = recordHub(sized.engine.hub, 1, headerFlags(sized.engine.config));
    const opened = await call(client, 'new_page', {url: shop});
    expect(opened.isError, opened.text).toBe(false);
    const size = await call(client, 'evaluate_script', {
      pageId: 2,
      function: '() => [innerWidth, innerHeight]',
    });
    expect(size.text).toContain('[800,600]');
    files.viewport = path.join(fixture.tmp, 'viewport.jsonl');
    await recording.save(files.viewport);
    recording.close();
  } finally {
    await sized.stop();
  }
}, scaled(180_000));

afterAll(() => {
  fs.rmSync(configDir, {recursive: true, force: true});
});

describe('replay', () => {
  it('replays a recording whose first call names a page, an old one retention would remove', async () => {
    const sessions = path.join(configDir, 'sessions');
    fs.mkdirSync(sessions, {recursive: true, mode: 0o700});
    const text = fs.readFileSync(files.pageFirst, 'utf8');
    const base = Date.UTC(2026, 0, 1);
    const names = Array.from({length: 50}, (_, i) => recordingFileName(base + i * 60_000, 7));
    for (const name of names) {
      fs.writeFileSync(path.join(sessions, name), text, {mode: 0o600});
    }
    const oldest = names[0] ?? '';
    // Last written 15 days ago: past the 14 days retention keeps a recording, unless it is read.
    const stale = (Date.now() - 15 * 24 * 3_600_000) / 1_000;
    for (const name of [oldest, names[1] ?? '']) {
      fs.utimesSync(path.join(sessions, name), stale, stale);
    }
    const result = await cli('replay', path.join(sessions, oldest), '--headless', '--isolated');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('Replayed 3 call(s): 3 same, 0 different, 0 failed.');
    expect(result.stdout).not.toContain('no counterpart');

    const left = fs.readdirSync(sessions).filter(name => name.endsWith('.jsonl'));
    expect(left).toHaveLength(50);
    expect(left).toContain(oldest);
    expect(left).not.toContain(names[1]);
    const own = left.filter(name => !names.includes(name));
    expect(own).toHaveLength(1);
    const header = parseRecordingText(
      fs.readFileSync(path.join(sessions, own[0] ?? ''), 'utf8'),
    ).header;
    expect(header.replayOf).toBe(oldest);
  });

  it('waits for the page a click opened and replays the calls on it', async () => {
    const result = await cli('replay', files.popup, '--headless', '--isolated');
    expect(result.stdout).not.toContain('no counterpart');
    expect(result.stdout).not.toContain('FAILED');
    // The listings differ (the recording's browser had more tabs open); the page work does not.
    const work = callLines(result).filter(line => /take_snapshot|click/.test(line));
    expect(work).toHaveLength(5);
    expect(
      work.every(line => / same +/.test(line)),
      result.stdout,
    ).toBe(true);
  });

  it('uses the recorded flags again, and the command line overrides them', async () => {
    // Two replays, each in its own browser, side by side.
    const [reused, overridden] = await Promise.all([
      cli('replay', files.viewport, '--headless', '--isolated'),
      cli('replay', files.viewport, '--headless', '--isolated', '--viewport', '1000x700'),
    ]);
    expect(reused.stderr).toContain("Using the recording's flags: --viewport=800x600");
    expect(reused.code, reused.stdout + reused.stderr).toBe(0);

    expect(overridden.stderr).not.toContain('--viewport=800x600');
    expect(overridden.code).toBe(1);
    expect(overridden.stdout).toMatch(/^# +2 DIFFERENT +evaluate_script/m);
    expect(overridden.stdout).toContain('+ [1000,700]');
  });

  it('maps a moved origin with --origin, and says which origin it could not reach without', async () => {
    const dead = await deadOrigin();
    const live = fixture.server.origin;
    const moved = movedRecording(dead, 'moved.jsonl');

    const [unreachable, back, exported] = await Promise.all([
      cli('replay', moved, '--headless', '--isolated'),
      cli('replay', moved, '--origin', `${dead}=${live}`, '--headless', '--isolated'),
      cli('export', moved, '--origin', `${dead}/=${live}`),
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toMatch(/^# +1 FAILED +navigate_page/m);
    expect(unreachable.stdout).toContain(`The recording's origin ${dead} (ERR_CONNECTION_REFUSED)`);
    expect(unreachable.stdout).toContain(`pass --origin ${dead}=<its origin now>`);
    expect(unreachable.stdout).toContain('so the 2 call(s) after it were not run.');
    expect(unreachable.stdout).not.toContain('not on page');
    expect(callLines(unreachable)).toHaveLength(1);

    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toContain('3 same, 0 different, 0 failed.');

    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`await page.goto("${live}/shop.html");`);
    expect(exported.stdout).not.toContain(dead);
  });
});

describe('export', () => {
  it(
    'writes tests that pass with Playwright Test: page-first, popup, --viewport, --origin',
    async () => {
      const dir = playwrightFolder('replay-cases-');
      try {
        const dead = await deadOrigin();
        const moved = movedRecording(dead, 'moved-export.jsonl');
        const [pageFirst, popup, viewport, movedExport] = await Promise.all([
          cli('export', files.pageFirst),
          cli('export', files.popup),
          cli('export', files.viewport),
          cli('export', moved, '--origin', `${dead}=${fixture.server.origin}`),
        ]);
        const exports = {'page-first': pageFirst, popup, viewport, moved: movedExport};
        for (const [name, run] of Object.entries(exports)) {
          expect(run.code, `${name}: ${run.stderr}`).toBe(0);
          fs.writeFileSync(path.join(dir, `${name}.spec.ts`), run.stdout);
        }
        // The recorded size is the test's, and what the agent read there is asserted.
        expect(exports.viewport.stdout).toContain(
          'test.use({ viewport: { width: 800, height: 600 } });',
        );
        expect(exports.viewport.stdout).toContain('.toEqual([800,600]);');
        expect(exports['page-first'].stdout).toContain('expect(await page.evaluate(');
        const outcome = await runPlaywright(dir);
        expect(Object.fromEntries(outcome.passed), outcome.output).toEqual({
          'page-first': true,
          popup: true,
          viewport: true,
          moved: true,
        });
      } finally {
        fs.rmSync(dir, {recursive: true, force: true});
      }
    },
    scaled(300_000),
  );
});

describe('usage errors', () => {
  it('refuses --until past the last call for export too, --out onto the recording, a bad --origin', async () => {
    const cases: [string[], string][] = [
      [['export', files.pageFirst, '--until', '4'], '--until 4: the recording has 3 call(s).'],
      [['export', files.pageFirst, '--out', files.pageFirst], 'is the recording itself'],
      [['export', files.pageFirst, '--origin', 'localhost:3000'], '--origin takes OLD=NEW'],
      [
        ['replay', files.pageFirst, '--origin', 'http://a.test/path=http://b.test'],
        '--origin takes OLD=NEW',
      ],
    ];
    const link = path.join(os.tmpdir(), `mbi-link-${process.pid}.jsonl`);
    fs.symlinkSync(files.pageFirst, link);
    cases.push([['export', files.pageFirst, '--out', link], 'is the recording itself']);
    try {
      // Each exits at once; they start side by side rather than one after another.
      const results = await Promise.all(cases.map(([args]) => cli(...args)));
      for (const [index, [args, message]] of cases.entries()) {
        const result = results[index] ?? {code: null, stdout: '', stderr: ''};
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toContain(message);
      }
      expect(fs.readFileSync(files.pageFirst, 'utf8')).toContain('"navigate_page"');
    } finally {
      fs.rmSync(link, {force: true});
    }
  });
});
