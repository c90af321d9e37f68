/**
 * The Recordings panel end to end: a server start with no tool call lists no recording of its
 * own; once a real MCP client works the run is recorded and the panel lists it (and an older one,
 * with a replay's recording under it; dates in the Log's 24-hour format, every cell of a row on
 * one line), searches across recordings, opens one read-only in the Log panel with its page
 * activity timeline and after screenshot, deletes, and opens a recording from elsewhere through
 * the file picker. Screenshots are taken (light and dark) and looked at.
 *
 * Tests: src/renderer/src/features/recordings/recordingsModel.ts, src/core/inspectorCommands.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, openPage, waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {uidOf} from '../helpers/snapshotText.js';
import {
  type InspectorFixture,
  type McpTestClient,
  openPanel,
  screenshot,
  startInspectorFixture,
} from '../helpers/ui.js';

const OLD_RECORDING = 'session-2026-01-02T03-04-05-006Z-77.jsonl';
const REPLAY_RECORDING = 'session-2026-01-02T05-00-00-000Z-78.jsonl';

let fixture: InspectorFixture | undefined;
let server: FixtureServer | undefined;
let page: Page;
let agent: McpTestClient;
let work: string;

function oldRecordingText(replayOf?: string): string {
  const startedAt = Date.UTC(2026, 0, 2, replayOf === undefined ? 3 : 5, 4, 5, 6);
  const client = {id: 'c', name: 'older-agent', version: '1', transport: 'http'};
  // More clients than fit on a line: their cell is the row's tallest.
  const others = ['nightly-regression-runner', 'visual-diff-checker', 'a11y-audit-bot'].map(
    (name, index) => ({
      seq: 10 + index,
      time: startedAt + 950,
      event: {
        type: 'clientConnected',
        client: {id: `o${index}`, name, version: '1', transport: 'http'},
      },
    }),
  );
  const lines = [
    {
      format: 'mcp-browser-inspector-session',
      formatVersion: 1,
      appVersion: '0.0.9',
      startedAt,
      flags: {},
      ...(replayOf === undefined ? {} : {replayOf}),
    },
    {
      seq: 1,
      time: startedAt + 10,
      event: {
        type: 'toolCallStarted',
        callId: 'old-1',
        tool: 'navigate_page',
        args: {url: 'https://shop.example/cart'},
        client,
      },
    },
    {
      seq: 2,
      time: startedAt + 900,
      event: {
        type: 'toolCallEnded',
        callId: 'old-1',
        tool: 'navigate_page',
        status: 'error',
        durationMs: 890,
        result: {text: 'Navigation timed out <img src=x onerror=alert(1)>', images: []},
        errorText: 'Navigation timed out <img src=x onerror=alert(1)>',
      },
    },
    ...others,
  ];
  return lines.map(line => JSON.stringify(line)).join('\n') + '\n';
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-ui-recordings-'));
  server = await new FixtureServer().start();
  server.html(
    '/work.html',
    `<!doctype html><title>Work page</title><body style="margin:0;background:#e0f0ff">
<h1 style="margin:40px">Work page</h1>
<button id="go" style="margin:40px;font-size:24px" onclick="console.log('pressed go'); fetch('/data.json').then(() => { location.href = '/done.html'; })">Go</button>`,
  );
  server.html('/done.html', '<!doctype html><title>Done</title><h1>Done</h1>');
  server.route('/data.json', (_request, response) => {
    response.writeHead(200, {'Content-Type': 'application/json'}).end('{"items":3}');
  });
  fixture = await startInspectorFixture({clientName: 'recordings-agent'});
  ({page, agent} = fixture);
  const sessions = path.join(fixture.serve.configDir, 'sessions');
  fs.mkdirSync(sessions, {recursive: true, mode: 0o700});
  fs.writeFileSync(path.join(sessions, OLD_RECORDING), oldRecordingText());
  fs.writeFileSync(path.join(sessions, REPLAY_RECORDING), oldRecordingText(OLD_RECORDING));
});

afterAll(async () => {
  await fixture?.dispose();
  await server?.stop();
  fs.rmSync(work, {recursive: true, force: true});
});

async function rowCount(): Promise<number> {
  return page.$$eval('[data-testid=recording-row]', rows => rows.length);
}

/**
 * Cells that do not line up with their row: not laid out as table cells (a flex cell keeps its
 * own height and top-aligns its buttons), or with a box off the row's (top and height).
 */
async function misalignedCells(): Promise<string[]> {
  return page.$$eval('[data-testid=recording-row]', rows =>
    rows.flatMap(row => {
      const box = row.getBoundingClientRect();
      return [...row.querySelectorAll('td')].flatMap((cell, index) => {
        const own = cell.getBoundingClientRect();
        const off =
          getComputedStyle(cell).display !== 'table-cell' ||
          Math.abs(own.top - box.top) > 1 ||
          Math.abs(own.height - box.height) > 1;
        return off ? [`${row.getAttribute('data-recording-id') ?? ''} cell ${index}`] : [];
      });
    }),
  );
}

describe('Recordings panel (e2e)', () => {
  it('lists no recording of this run before its first tool call', async () => {
    await openPanel(page, 'Recordings');
    await page.waitForSelector('[data-testid=recording-row]');
    const ids = await page.$$eval('[data-testid=recording-row]', rows =>
      rows.map(row => row.getAttribute('data-recording-id')),
    );
    // The older recording with the replay of it right under it; nothing for this server start.
    expect(ids).toEqual([OLD_RECORDING, REPLAY_RECORDING]);
    const retention = await page.$eval('[data-testid=recordings-retention]', el => el.textContent);
    expect(retention).toContain('recorded from its first tool call');
    const sessions = path.join(fixture?.serve.configDir ?? '', 'sessions');
    expect(
      fs
        .readdirSync(sessions)
        .filter(name => name.endsWith('.jsonl'))
        .sort(),
    ).toEqual([OLD_RECORDING, REPLAY_RECORDING]);
  });

  it('lists the recording being written and an older one, with their counts', async () => {
    const pageId = await openPage(agent.client, server?.url('/work.html') ?? '', 'Work page');
    const snapshot = await call(agent.client, 'take_snapshot', {pageId});
    const uid = uidOf(snapshot.text, 'button', 'Go');
    const failed = await call(agent.client, 'click', {pageId, uid: 'no_such_uid'});
    expect(failed.isError).toBe(true);
    const clicked = await call(agent.client, 'click', {pageId, uid});
    expect(clicked.isError, clicked.text).toBe(false);

    await openPanel(page, 'Recordings');
    await page.click('.recordings-toolbar > button');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=recording-row]').length === 3,
    );
    const rows = await page.$$eval('[data-testid=recording-row]', trs =>
      trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)),
    );
    expect(rows[0]?.[0]).toContain('recording');
    // One 24-hour format, as the Log's clock: 2026-01-02 05:04:05.
    for (const row of rows) {
      expect(row[0]).toMatch(/^(↳ )?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    }
    expect(rows[2]?.[0]).toMatch(/^↳ .*replay/);
    expect(await misalignedCells()).toEqual([]);
    // Also where the row's buttons wrap (a 900 px window).
    await page.setViewport({width: 900, height: 800});
    try {
      expect(await misalignedCells()).toEqual([]);
      await screenshot(page, 'recordings-panel-900');
    } finally {
      await page.setViewport({width: 1280, height: 800});
    }
    expect(rows[0]?.[2]).toContain('recordings-agent');
    expect(Number(rows[0]?.[3])).toBeGreaterThanOrEqual(4);
    expect(Number(rows[0]?.[4])).toBeGreaterThanOrEqual(1);
    expect(rows[1]?.slice(2, 5)).toEqual([
      'older-agent, nightly-regression-runner, visual-diff-checker, a11y-audit-bot',
      '1',
      '1',
    ]);
    const retention = await page.$eval('[data-testid=recordings-retention]', el => el.textContent);
    // The rule as the server applies it: by age and size, a starred one always.
    expect(retention).toContain('Kept: 14 days since the last write, at most 2.0 GB and 1,000');
    expect(retention).toContain('a starred one (★) always');
    // Starring a recording: the button says so, the star is kept beside the file, the line counts it.
    const star = `[data-recording-id="${OLD_RECORDING}"] .recordings-table__star`;
    expect(await page.$eval(star, el => el.getAttribute('aria-pressed'))).toBe('false');
    await page.click(star);
    await page.waitForFunction(
      (selector: string) =>
        document.querySelector(selector)?.getAttribute('aria-pressed') === 'true',
      {},
      star,
    );
    const sessions = path.join(fixture?.serve.configDir ?? '', 'sessions');
    expect(fs.existsSync(path.join(sessions, OLD_RECORDING.replace('.jsonl', '.star')))).toBe(true);
    expect(await page.$eval('[data-testid=recordings-retention]', el => el.textContent)).toMatch(
      /, 1 starred\)/,
    );
    // Replay and export sit in every recording's row; on the one still being written, Replay is
    // not the main action and says it replays the calls so far.
    const actions = await page.$$eval('[data-testid=recording-actions-recording]', groups =>
      groups.map(group =>
        [...group.querySelectorAll('button')].map(
          button => `${button.textContent}${button.classList.contains('primary') ? ' (main)' : ''}`,
        ),
      ),
    );
    expect(actions).toEqual([
      ['Replay so far', 'Export as test'],
      ['Replay (main)', 'Export as test'],
      ['Replay (main)', 'Export as test'],
    ]);
    await screenshot(page, 'recordings-panel');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
    await screenshot(page, 'recordings-panel-dark');
    await page.setViewport({width: 900, height: 700});
    try {
      await screenshot(page, 'recordings-panel-900x700-dark');
      await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
      await screenshot(page, 'recordings-panel-900x700');
    } finally {
      await page.setViewport({width: 1280, height: 800});
      await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
    }
  });

  it('searches across recordings and opens a hit read-only in the log, with its timeline', async () => {
    const search = await page.$('.recordings-toolbar input[type=search]');
    await search?.click({count: 3});
    await search?.type('data.json');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=recordings-hits] li');
    const hits = await page.$$eval('[data-testid=recordings-hits] li', items =>
      items.map(item => item.textContent),
    );
    expect(hits.some(hit => hit.includes('click') && hit.includes('/data.json'))).toBe(true);
    // By error text, across the older recording too; its page text stays inert.
    await search?.click({count: 3});
    await search?.type('timed out');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid=recordings-hits]')
        ?.textContent.includes('navigate_page'),
    );
    expect(await page.$('[data-testid=recordings-hits] img')).toBeNull();

    await search?.click({count: 3});
    await search?.type('data.json');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=recordings-hits]')?.textContent.includes('/data.json'),
    );
    // Keyboard: focus the hit and press Enter.
    await page.focus('.recordings-hits__open');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=call-timeline]');
    const banner = await page.$eval('.log-panel__offline', el => el.textContent);
    expect(banner).toContain('read-only');
    const timeline = await page.$eval('[data-testid=call-timeline]', el => el.textContent);
    expect(timeline).toContain('[log] pressed go');
    expect(timeline).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/data\.json · 200/);
    expect(timeline).toContain('/done.html');
    // The after screenshot, fetched from the recording by file name, with the clicked button outlined.
    await page.waitForSelector('[data-testid=call-screen-after] img');
    const src = await page.$eval('[data-testid=call-screen-after] img', img =>
      img instanceof HTMLImageElement ? img.src : '',
    );
    expect(src.startsWith('data:image/jpeg;base64,/9j/')).toBe(true);
    expect(await page.$('[data-testid=call-screen-outline]')).not.toBeNull();
    await page.$eval('[data-testid=call-timeline]', el => el.scrollIntoView());
    await screenshot(page, 'recordings-opened-call');
  });

  it('replays up to the selected call from the Log, through the slot the Recordings panel fills', async () => {
    // The call opened above (the click that fetched /data.json) is selected in the read-only log.
    const slot = await page.waitForSelector('[data-testid=recording-actions-call]');
    const buttons = await slot?.$$eval('button', items => items.map(item => item.textContent));
    const upTo = buttons?.find(text => text.startsWith('Replay up to here'));
    expect(upTo).toMatch(/^Replay up to here \(call \d+\)$/);
    const callIndex = Number(/call (\d+)/.exec(upTo ?? '')?.[1]);
    expect(callIndex).toBeGreaterThanOrEqual(3);
    const button = await slot?.$('button:not(.primary):not([disabled])');
    expect(await button?.evaluate(item => item.textContent)).toBe(upTo);
    await button?.click();
    // Progress comes from the store's event stream: the headline counts the replayed calls.
    const headline = await waitFor(
      async () => {
        const text = await page.evaluate(
          () =>
            document.querySelector(
              '[data-testid=recording-actions-call] .recording-actions__headline',
            )?.textContent ?? '',
        );
        return text.startsWith('Replayed') ? text : undefined;
      },
      40_000,
      'the replay to finish',
    );
    expect(headline).toMatch(new RegExp(`^Replayed ${callIndex} call\\(s\\): `));
    const rows = await page.$$eval('[data-testid=recording-actions-call] .replay-calls li', items =>
      items.map(item => item.textContent),
    );
    expect(rows).toHaveLength(callIndex);
    await screenshot(page, 'recordings-replay-up-to-here');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
    await screenshot(page, 'recordings-replay-up-to-here-dark');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
  });

  it('deletes an older recording after a confirm', async () => {
    await openPanel(page, 'Recordings');
    await page.waitForSelector(`[data-recording-id="${OLD_RECORDING}"]`);
    await page.click(
      `[data-recording-id="${OLD_RECORDING}"] button[aria-label^="Delete the recording"]`,
    );
    await page.click(`[data-recording-id="${OLD_RECORDING}"] button[aria-label^="Confirm"]`);
    await page.waitForFunction(
      (id: string) => document.querySelector(`[data-recording-id="${id}"]`) === null,
      {},
      OLD_RECORDING,
    );
    // The replay's recording stays, on its own now that its source is gone.
    expect(await rowCount()).toBe(2);
    const dir = path.join(fixture?.serve.configDir ?? '', 'sessions');
    expect(fs.existsSync(path.join(dir, OLD_RECORDING))).toBe(false);
    // The current recording cannot be deleted.
    const disabled = await page.$eval(
      '[data-testid=recording-row] button[aria-label^="Delete the recording"]',
      button => button instanceof HTMLButtonElement && button.disabled,
    );
    expect(disabled).toBe(true);
  });

  it('opens a recording from elsewhere with the file picker', async () => {
    const file = path.join(work, 'from-a-colleague.jsonl');
    // A torn last line, as a crash leaves it.
    fs.writeFileSync(file, `${oldRecordingText()}{"seq":3,"time":1,"ev`);
    const input = await page.$('input[data-testid=open-recording-file]');
    await input?.uploadFile(file);
    await waitFor(
      () =>
        page.evaluate(() =>
          document.querySelector('.log-panel__offline')?.textContent.includes('from-a-colleague'),
        ),
      10_000,
      'the file to open',
    );
    const rows = await waitFor(
      async () => {
        const statuses = await page.$$eval('[role=grid] [role=row][data-call-id]', trs =>
          trs.map(tr => tr.getAttribute('data-status')),
        );
        return statuses.length > 0 ? statuses : undefined;
      },
      10_000,
      'the rows of the opened file',
    );
    expect(rows).toEqual(['error']);
    const notice = await page.$$eval('.notice', els => els.map(el => el.textContent).join(' '));
    expect(notice).toContain('from-a-colleague');
    expect(notice).toContain('1 line');
  });

  it('opens a recording dropped on the panel', async () => {
    await openPanel(page, 'Recordings');
    await page.waitForSelector('[data-testid=recordings-panel]');
    // A real drop: a DataTransfer holding a File, dispatched as the browser does.
    await page.$eval(
      '[data-testid=recordings-panel]',
      (panel, text: string) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'dropped-recording.jsonl', {type: 'application/x-ndjson'}));
        panel.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true}));
        panel.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true}));
      },
      oldRecordingText(),
    );
    await waitFor(
      () =>
        page.evaluate(() =>
          document.querySelector('.log-panel__offline')?.textContent.includes('dropped-recording'),
        ),
      10_000,
      'the dropped file to open',
    );
  });
});
