/**
 * Recording speed, printed as JSON and written to bench/results/recording.json:
 *
 * 1. per call: the same calls against two real servers over stdio, one with `--no-record` and one
 *    recording (the default), interleaved call by call so machine noise hits both alike. The
 *    recording's cost per call is the difference of the medians (target ≤ 0.5 ms).
 * 2. cpu: the recorder alone fed 2,000 events/s (1,000 calls/s) for some seconds; the process CPU
 *    time it adds over the same loop without it, as a share of one core (target ≤ 10%).
 * 3. open: a recording of 100,000 events opened from the Recordings panel in headless
 *    Chromium: time from the click to the first rows (target ≤ 1 s), to the whole file, and the
 *    longest frame while scrolling through it (target: none over 50 ms).
 *
 * Run: npx tsx bench/recording.ts [--calls 40] [--seconds 5] [--events 100000] [--only per-call|cpu|open]
 * The build must be current (npm run build). The machine is shared: numbers are indicative.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {parseFlags} from '../src/core/config/flags.js';
import {Recordings} from '../src/core/recordings/Recordings.js';
import type {ClientRef, EventEnvelope, InspectorEvent} from '../src/shared/protocol.js';
import {
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  recordingFileName,
  recordingLine,
} from '../src/shared/recordingFile.js';
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {launchUiBrowser, openProbedInspector, startInProcessEngine} from './inProcessEngine.js';
import {callTool, median, ROOT, selectedPageId, startServer, timed, uidOf} from './lib.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const round = (value: number, digits = 3): number => Number(value.toFixed(digits));

const CLIENT: ClientRef = {id: 'bench', name: 'bench-agent', version: '1.0', transport: 'http'};
const RESULT_TEXT = `## Pages\n1: about:blank\n2: https://example.com/app [selected]\n${'Some response text. '.repeat(20)}`;

function callEvents(index: number): InspectorEvent[] {
  const callId = `bench-${String(index).padStart(7, '0')}`;
  const tool = index % 3 === 0 ? 'click' : 'navigate_page';
  return [
    {
      type: 'toolCallStarted',
      callId,
      tool,
      args: {url: `https://example.com/page/${index}`, timeout: 5000},
      client: CLIENT,
      pageId: 2,
    },
    {
      type: 'toolCallEnded',
      callId,
      tool,
      status: index % 17 === 0 ? 'error' : 'ok',
      durationMs: 12.5,
      pageId: 2,
      result: {text: `${RESULT_TEXT}\ncall ${index}`, images: []},
      ...(index % 17 === 0 ? {errorText: `Timed out on call ${index}`} : {}),
    },
  ];
}

/** 1. What recording adds to a tool call, on real servers. */
async function perCall(calls: number): Promise<Record<string, unknown>> {
  const fixtures = await new FixtureServer().start();
  fixtures.html(
    '/a.html',
    '<!doctype html><title>A</title><h1>Page A</h1><button onclick="window.n=(window.n||0)+1;console.log(\'n\', window.n)">Noop</button>',
  );
  const off = await startServer('ours', ['--no-record']);
  const on = await startServer('ours');
  try {
    const subjects = [];
    for (const server of [off, on]) {
      const {text} = await callTool(server.client, 'new_page', {url: fixtures.url('/a.html')});
      const pageId = selectedPageId(text);
      const snapshot = await callTool(server.client, 'take_snapshot', {pageId});
      subjects.push({server, pageId, uid: uidOf(snapshot.text, 'button "Noop"')});
    }
    const result: Record<string, unknown> = {};
    for (const tool of ['evaluate_script', 'click', 'list_pages'] as const) {
      const times: [number[], number[]] = [[], []];
      for (let i = 0; i < calls; i++) {
        // Interleaved, and the order flips each round, so drift and noise hit both alike.
        const order = i % 2 === 0 ? [0, 1] : [1, 0];
        for (const which of order) {
          const subject = subjects[which];
          if (!subject) {
            continue;
          }
          const params =
            tool === 'evaluate_script'
              ? {pageId: subject.pageId, function: '() => document.title'}
              : tool === 'click'
                ? {pageId: subject.pageId, uid: subject.uid}
                : {};
          const {ms} = await timed(() => callTool(subject.server.client, tool, params));
          times[which]?.push(ms);
        }
      }
      const [noRecord, recording] = times.map(median);
      result[tool] = {
        noRecordMedianMs: round(noRecord ?? NaN),
        recordingMedianMs: round(recording ?? NaN),
        addedMs: round((recording ?? NaN) - (noRecord ?? NaN)),
      };
    }
    return {calls, ...result, target: 'recording adds <= 0.5 ms (median) per call'};
  } finally {
    await off.close();
    await on.close();
    await fixtures.stop();
  }
}

/** 2. The recorder's CPU at 2,000 events/s. */
async function cpu(seconds: number): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-rec-'));
  const parsed = parseFlags(['--headless', '--port', '0', '--recordDir', dir], {
    env: {},
    hasDisplay: false,
  });
  if (parsed.kind !== 'config') {
    throw new Error('bad flags');
  }
  // Time spent in the recorder on the event loop: record() (on the call's path) and the flushes.
  const spent = {recordMs: 0, flushMs: 0};
  const run = async (recording: Recordings | undefined): Promise<number> => {
    const calls = seconds * 1000;
    let seq = 1;
    let published = 0;
    const recorder = recording?.recorder;
    if (recorder) {
      const flush = recorder.flush.bind(recorder);
      recorder.flush = () => {
        const start = performance.now();
        flush();
        spent.flushMs += performance.now() - start;
      };
    }
    const before = process.cpuUsage();
    const started = performance.now();
    await new Promise<void>(resolve => {
      const timer = setInterval(() => {
        const due = Math.min(calls, Math.floor((performance.now() - started) * 1));
        for (; published < due; published++) {
          for (const event of callEvents(published)) {
            const envelope: EventEnvelope = {seq: seq++, time: Date.now(), event};
            if (recording) {
              const start = performance.now();
              recording.record(envelope);
              spent.recordMs += performance.now() - start;
            }
          }
        }
        if (published >= calls) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    recording?.recorder?.flush();
    const used = process.cpuUsage(before);
    const wallMs = performance.now() - started;
    return (used.user + used.system) / 1000 / wallMs;
  };
  try {
    const baseline = await run(undefined);
    const recording = new Recordings({
      config: parsed.config,
      token: 'bench-token-0123456789',
      version: 'bench',
      log: () => undefined,
    });
    const withRecorder = await run(recording);
    const bytes = recording.recorder?.bytes ?? 0;
    recording.close();
    return {
      eventsPerSecond: 2000,
      seconds,
      baselineCpuShare: round(baseline),
      withRecorderCpuShare: round(withRecorder),
      recorderCpuShareOfOneCore: round(withRecorder - baseline),
      /** On the call's own path: record() of its events (started and ended), per call. */
      recordUsPerCall: round((spent.recordMs * 1000) / (seconds * 1000)),
      /** Off the call's path (the batch timer): serialize, scrub and write, per call. */
      flushUsPerCall: round((spent.flushMs * 1000) / (seconds * 1000)),
      bytesWritten: bytes,
      target: 'recorder <= 10% of one core at 2,000 events/s',
    };
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

function writeBigRecording(dir: string, events: number): string {
  const startedAt = Date.now() - 3_600_000;
  const name = recordingFileName(startedAt, 1);
  const fd = fs.openSync(path.join(dir, name), 'w', 0o600);
  fs.writeSync(
    fd,
    recordingLine({
      format: RECORDING_FORMAT,
      formatVersion: RECORDING_FORMAT_VERSION,
      appVersion: 'bench',
      startedAt,
      flags: {},
    }),
  );
  let seq = 1;
  let chunk = '';
  for (let index = 0; seq <= events; index++) {
    for (const event of callEvents(index)) {
      chunk += recordingLine({seq, time: startedAt + seq, event});
      seq++;
    }
    if (chunk.length > 1_000_000) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  return name;
}

/** 3. A 100,000-event recording opened in the UI. */
async function open(events: number): Promise<Record<string, unknown>> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-open-'));
  const recordingsDir = path.join(configDir, 'sessions');
  fs.mkdirSync(recordingsDir, {recursive: true, mode: 0o700});
  const name = writeBigRecording(recordingsDir, events);
  const fileBytes = fs.statSync(path.join(recordingsDir, name)).size;
  const {engine, http} = await startInProcessEngine(configDir);
  const browser = await launchUiBrowser();
  try {
    const page = await openProbedInspector(browser, http.inspectorUrl, engine.token.token);
    await page.click('[role=tab]:last-child');
    const row = `[data-recording-id="${name}"] button[aria-label^="Open"]`;
    // The list scans the file once to count its calls (then caches the summary).
    const listStarted = performance.now();
    await page.waitForSelector(row, {timeout: 120_000});
    const listMs = performance.now() - listStarted;
    const started = performance.now();
    await page.click(row);
    await page.waitForSelector('[role=grid] [role=row][data-call-id]', {timeout: 60_000});
    const firstRowsMs = performance.now() - started;
    // Frames while the rest of the file loads (the user may already scroll).
    await page.evaluate(() => {
      const probe = Reflect.get(window, '__frameProbe') as {recording: boolean};
      probe.recording = true;
    });
    await page.waitForFunction(
      () => !document.querySelector('.log-panel__offline')?.textContent.includes('still reading'),
      {timeout: 300_000, polling: 100},
    );
    const wholeMs = performance.now() - started;
    const calls = await page.$eval('[role=grid]', grid => grid.getAttribute('aria-rowcount'));
    const loading = await page.evaluate(() => {
      const probe = Reflect.get(window, '__frameProbe') as {
        maxGap: number;
        maxLoaf: number;
        last: number;
      };
      const seen = {maxGap: probe.maxGap, maxLoaf: probe.maxLoaf};
      probe.maxGap = 0;
      probe.maxLoaf = 0;
      probe.last = 0;
      return seen;
    });
    const scroller = await page.$('.log-table');
    const box = await scroller?.boundingBox();
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 60; i++) {
        await page.mouse.wheel({deltaY: 4000});
        await new Promise(resolve => setTimeout(resolve, 16));
      }
    }
    const probe = await page.evaluate(
      () => Reflect.get(window, '__frameProbe') as {maxGap: number; maxLoaf: number},
    );
    return {
      events,
      fileBytes,
      listMs: Math.round(listMs),
      firstRowsMs: Math.round(firstRowsMs),
      wholeFileMs: Math.round(wholeMs),
      gridRows: Number(calls) - 1,
      loadingLongestFrameMs: Math.round(loading.maxGap),
      loadingLongestAnimationFrameMs: Math.round(loading.maxLoaf),
      scrollLongestFrameMs: Math.round(probe.maxGap),
      scrollLongestAnimationFrameMs: Math.round(probe.maxLoaf),
      target: 'first rows <= 1 s; no frame over 50 ms while scrolling',
    };
  } finally {
    await browser.close();
    await engine.stop();
    fs.rmSync(configDir, {recursive: true, force: true});
  }
}

const result: Record<string, unknown> = {
  machine: {cpus: os.cpus().length, loadAverageAtStart: os.loadavg().map(v => round(v, 2))},
};
if (only === undefined || only === 'per-call') {
  result.perCall = await perCall(option('calls', 40));
}
if (only === undefined || only === 'cpu') {
  result.cpu = await cpu(option('seconds', 5));
}
if (only === undefined || only === 'open') {
  result.open = await open(option('events', 100_000));
}
Object.assign(result.machine as object, {loadAverageAtEnd: os.loadavg().map(v => round(v, 2))});
const json = JSON.stringify(result, null, 2);
process.stdout.write(`${json}\n`);
if (only === undefined) {
  fs.writeFileSync(path.join(ROOT, 'bench/results/recording.json'), `${json}\n`);
}
