/**
 * Inspector speed, printed as JSON:
 *
 * 1. stream: with the UI open in headless Chromium, 2,000 tool-call events per second (1,000 calls,
 *    each a started + ended event) for 10 s. Checks that every call reaches the UI, in order, and
 *    records the longest frame (long-animation-frame entries and requestAnimationFrame gaps).
 * 2. memory: RSS of a server process holding 100,000 events (a child process; with and without
 *    screenshots in the mix).
 * 3. latency: what the hub adds to a tool call (its three synchronous publishes: started, ended,
 *    telemetry), median and p99, with a UI subscribed over a real WebSocket and the store full.
 *
 * Run: npx tsx bench/inspector-stream.ts [--seconds 10] [--rate 2000] [--skip-memory]
 * The renderer must be built (npx electron-vite build). The machine is shared: numbers are
 * indicative, not idle-machine figures.
 */
import {execFileSync} from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {WebSocket} from 'ws';
import type {Engine} from '../src/core/Engine.js';
import {launchUiBrowser, openProbedInspector, startInProcessEngine} from './inProcessEngine.js';
import type {InspectorHub} from '../src/core/inspector/InspectorHub.js';
import type {ClientRef, InspectorEvent} from '../src/shared/protocol.js';
import {WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX} from '../src/shared/constants.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};

const CLIENT: ClientRef = {id: 'bench', name: 'bench-agent', version: '1.0', transport: 'http'};
const RESULT_TEXT = `## Pages\n1: about:blank\n2: https://example.com/app [selected]\n${'Some response text. '.repeat(20)}`;

export function callEvents(index: number, withImage = false): InspectorEvent[] {
  const callId = `bench-${String(index).padStart(7, '0')}`;
  return [
    {
      type: 'toolCallStarted',
      callId,
      tool: index % 3 === 0 ? 'click' : 'navigate_page',
      args: {url: `https://example.com/page/${index}`, timeout: 5000},
      client: CLIENT,
      pageId: 2,
    },
    {
      type: 'toolCallEnded',
      callId,
      tool: index % 3 === 0 ? 'click' : 'navigate_page',
      status: 'ok',
      durationMs: 12.5,
      pageId: 2,
      result: {
        // A flat string of its own per call, like real rendered responses (not a shared constant).
        text: Buffer.from(`${RESULT_TEXT}\ncall ${index}`).toString('utf8'),
        // Random bytes: a repeated character would be stored as a tiny rope and prove nothing.
        images: withImage
          ? [{mimeType: 'image/jpeg', data: crypto.randomBytes(90_000).toString('base64')}]
          : [],
      },
      telemetry: {
        os_type: 3,
        mcp_client: 3,
        app_version: 'bench',
        session_id: 'bench-run',
        tool_invocation: {tool_name: 'navigate_page', success: true, latency_ms: 50},
      },
    },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

async function startEngine(): Promise<{engine: Engine; url: string; token: string; dir: string}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-'));
  // MBI_RENDERER_DIR: profile against an unminified build.
  const {engine, http} = await startInProcessEngine(dir, process.env.MBI_RENDERER_DIR);
  return {engine, url: http.inspectorUrl, token: engine.token.token, dir};
}

async function streamBench(seconds: number, rate: number): Promise<Record<string, unknown>> {
  const {engine, url, token, dir} = await startEngine();
  const browser = await launchUiBrowser();
  try {
    const page = await openProbedInspector(browser, url, token);
    // Let the first render settle before measuring.
    await new Promise(resolve => setTimeout(resolve, 500));
    await page.evaluate(() => {
      const probe = Reflect.get(window, '__frameProbe') as {recording: boolean};
      probe.recording = true;
    });
    const profileFile = args.includes('--profile')
      ? args[args.indexOf('--profile') + 1]
      : undefined;
    const cdp = profileFile ? await page.createCDPSession() : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }

    // Thread CPU time of the page's main thread, from a trace: unlike wall-clock frame lengths it
    // does not grow when other processes take the CPU, so it shows the UI's own cost.
    await page.tracing.start({categories: ['toplevel', 'disabled-by-default-devtools.timeline']});
    const callsPerSecond = rate / 2;
    const totalCalls = Math.round(callsPerSecond * seconds);
    const started = performance.now();
    let published = 0;
    await new Promise<void>(resolve => {
      const timer = setInterval(() => {
        const due = Math.min(
          totalCalls,
          Math.floor(((performance.now() - started) / 1000) * callsPerSecond),
        );
        for (; published < due; published++) {
          for (const event of callEvents(published)) {
            engine.hub.publish(event);
          }
        }
        if (published >= totalCalls) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    const publishSeconds = (performance.now() - started) / 1000;
    // Every call has arrived (and ended) when the grid holds them all with none running.
    await page.waitForFunction(
      (count: number) =>
        document.querySelector('[role=grid]')?.getAttribute('aria-rowcount') ===
          String(count + 1) && !document.querySelector('[role=row][data-status=running]'),
      {timeout: 60_000, polling: 100},
      totalCalls,
    );
    const drainMs = performance.now() - started - publishSeconds * 1000;
    if (cdp && profileFile) {
      const {profile} = await cdp.send('Profiler.stop');
      fs.writeFileSync(profileFile, JSON.stringify(profile));
    }
    const mainThread = mainThreadCpu(await page.tracing.stop(), publishSeconds * 1000 + drainMs);
    const probe = await page.evaluate(() => {
      const value = Reflect.get(window, '__frameProbe') as {
        maxLoaf: number;
        maxGap: number;
        loafCount: number;
        recording: boolean;
        worst: unknown;
      };
      value.recording = false;
      return {
        maxLoaf: value.maxLoaf,
        maxGap: value.maxGap,
        loafCount: value.loafCount,
        worst: value.worst,
      };
    });

    // Order: walk the whole grid top to bottom and check the call ids increase one by one.
    const order = await page.evaluate(async (count: number) => {
      const grid = document.querySelector('[role=grid]');
      if (!grid) {
        return {seen: 0, inOrder: false, allOk: false};
      }
      const seen = new Map<string, string>();
      grid.scrollTop = 0;
      for (;;) {
        await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        for (const row of grid.querySelectorAll('[role=row][data-call-id]')) {
          seen.set(row.getAttribute('data-call-id') ?? '', row.getAttribute('data-status') ?? '');
        }
        if (grid.scrollTop + grid.clientHeight >= grid.scrollHeight - 1) {
          break;
        }
        grid.scrollTop += grid.clientHeight - 60;
      }
      const ids = [...seen.keys()];
      const sorted = ids.every((id, index) => index === 0 || (ids[index - 1] ?? '') < id);
      return {
        seen: ids.length,
        inOrder: sorted && ids.length === count,
        allOk: [...seen.values()].every(status => status === 'ok'),
      };
    }, totalCalls);

    return {
      eventsPerSecond: rate,
      seconds,
      calls: totalCalls,
      events: totalCalls * 2,
      publishSeconds: round(publishSeconds),
      drainAfterLastEventMs: Math.round(drainMs),
      allReachedUi: order.seen === totalCalls && order.allOk,
      inOrder: order.inOrder,
      longestAnimationFrameMs: round(probe.maxLoaf),
      longAnimationFrames: probe.loafCount,
      longestRafGapMs: round(probe.maxGap),
      longestFrameBreakdown: probe.worst,
      mainThread,
      responsive: Math.max(probe.maxLoaf, probe.maxGap) < 50,
    };
  } finally {
    await browser.close();
    await engine.stop();
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

/** Child-process part of the memory measurement (needs --expose-gc). */
async function memoryChild(withImages: boolean): Promise<void> {
  const gc = (): void => {
    // Present with --expose-gc.
    const collect = (globalThis as {gc?: () => void}).gc;
    collect?.();
    collect?.();
  };
  const {engine, dir} = await startEngine();
  await new Promise(resolve => setTimeout(resolve, 200));
  gc();
  const baseline = process.memoryUsage();
  const hub: InspectorHub = engine.hub;
  let index = 0;
  while (hub.nextSeq <= 100_000) {
    for (const event of callEvents(index, withImages && index % 50 === 0)) {
      hub.publish(event);
    }
    if (hub.nextSeq <= 100_000) {
      hub.publish({
        type: 'telemetry',
        callId: `bench-${index}`,
        record: {
          os_type: 3,
          mcp_client: 3,
          app_version: 'bench',
          session_id: 'bench-run',
          tool_invocation: {tool_name: 'navigate_page', success: true, latency_ms: 50},
        },
      });
    }
    index++;
  }
  gc();
  const filled = process.memoryUsage();
  process.stdout.write(
    JSON.stringify({
      events: hub.size,
      baselineRssMb: mb(baseline.rss),
      rssMb: mb(filled.rss),
      addedRssMb: mb(filled.rss - baseline.rss),
      heapUsedMb: mb(filled.heapUsed),
    }),
  );
  await engine.stop();
  fs.rmSync(dir, {recursive: true, force: true});
}

function memoryBench(withImages: boolean): Record<string, unknown> {
  const output = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      path.join(ROOT, 'bench/inspector-stream.ts'),
      '--memory-child',
      withImages ? '1' : '0',
    ],
    {cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']},
  );
  return {screenshotsInMix: withImages, ...(JSON.parse(output) as Record<string, unknown>)};
}

async function latencyBench(): Promise<Record<string, unknown>> {
  const {engine, url, token, dir} = await startEngine();
  const socket = new WebSocket(
    `${url.replace(/^http/, 'ws')}inspector`,
    [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${token}`],
    {origin: url.replace(/\/$/, '')},
  );
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let received = 0;
  socket.on('message', data => {
    // The UI parses every batch and acknowledges it; so does this stand-in.
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : '{}';
    const message = JSON.parse(text) as {kind: string; id?: number; batch?: {events: unknown[]}};
    received += message.batch?.events.length ?? 0;
    if (message.kind === 'batch') {
      socket.send(JSON.stringify({kind: 'batchAck', id: message.id}));
    }
  });
  socket.send(JSON.stringify({kind: 'subscribe', id: 1, fromSeq: 0}));
  const hub = engine.hub;
  // Fill the store first: the ring buffer is at capacity and evicting, as in a long run.
  for (let index = 0; hub.nextSeq <= hub.capacity; index++) {
    for (const event of callEvents(index)) {
      hub.publish(event);
    }
  }
  await new Promise(resolve => setTimeout(resolve, 2_000));
  const samples: number[] = [];
  const telemetry: InspectorEvent = {
    type: 'telemetry',
    callId: 'x',
    record: {
      os_type: 3,
      mcp_client: 3,
      app_version: 'bench',
      session_id: 's',
      tool_invocation: {tool_name: 'click', success: true, latency_ms: 50},
    },
  };
  for (let index = 0; index < 5_000; index++) {
    const [start, end] = callEvents(1_000_000 + index);
    if (!start || !end) {
      break;
    }
    const before = performance.now();
    hub.publish(start);
    hub.publish(end);
    hub.publish(telemetry);
    samples.push(performance.now() - before);
    // Spread the calls out like real ones, so batching timers fire in between.
    if (index % 50 === 0) {
      await new Promise(resolve => setTimeout(resolve, 1));
    }
  }
  await new Promise(resolve => setTimeout(resolve, 500));
  socket.close();
  await engine.stop();
  fs.rmSync(dir, {recursive: true, force: true});
  samples.sort((a, b) => a - b);
  return {
    calls: samples.length,
    storeFull: true,
    subscriberEventsReceived: received,
    medianMs: round(percentile(samples, 50), 4),
    p99Ms: round(percentile(samples, 99), 4),
    maxMs: round(samples.at(-1) ?? NaN, 4),
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: {name?: string};
}

/** Busy CPU time of the renderer main thread (CrRendererMain) and its longest task, from a trace. */
function mainThreadCpu(trace: Uint8Array | undefined, wallMs: number): Record<string, number> {
  if (!trace) {
    return {};
  }
  const parsed = JSON.parse(Buffer.from(trace).toString('utf8')) as
    {traceEvents: TraceEvent[]} | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  // Several renderer processes may exist; the page's main thread is the busiest one.
  const totals = new Map<string, {pid: number; tid: number; cpuUs: number}>();
  for (const event of events) {
    if (event.name === 'RunTask' && event.ph === 'X') {
      const key = `${event.pid}:${event.tid}`;
      const entry = totals.get(key) ?? {pid: event.pid, tid: event.tid, cpuUs: 0};
      entry.cpuUs += event.tdur ?? 0;
      totals.set(key, entry);
    }
  }
  const mainThreads = new Set(
    events
      .filter(event => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map(event => `${event.pid}:${event.tid}`),
  );
  const main = [...totals.entries()]
    .filter(([key]) => mainThreads.has(key))
    .map(([, entry]) => entry)
    .sort((a, b) => b.cpuUs - a.cpuUs)[0];
  if (!main) {
    return {};
  }
  let cpuUs = 0;
  let longestTaskCpuUs = 0;
  let longestTaskWallUs = 0;
  let tasksOver50msCpu = 0;
  for (const event of events) {
    if (
      event.pid !== main.pid ||
      event.tid !== main.tid ||
      event.name !== 'RunTask' ||
      event.ph !== 'X'
    ) {
      continue;
    }
    const cpu = event.tdur ?? 0;
    cpuUs += cpu;
    longestTaskCpuUs = Math.max(longestTaskCpuUs, cpu);
    longestTaskWallUs = Math.max(longestTaskWallUs, event.dur ?? 0);
    if (cpu > 50_000) {
      tasksOver50msCpu++;
    }
  }
  return {
    busyCpuMsPerSecond: round((cpuUs / 1000 / wallMs) * 1000),
    longestTaskCpuMs: round(longestTaskCpuUs / 1000),
    longestTaskWallMs: round(longestTaskWallUs / 1000),
    tasksOver50msCpu,
  };
}

function mb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

async function main(): Promise<void> {
  const childIndex = args.indexOf('--memory-child');
  if (childIndex >= 0) {
    await memoryChild(args[childIndex + 1] === '1');
    return;
  }
  const seconds = option('seconds', 10);
  const rate = option('rate', 2_000);
  const result: Record<string, unknown> = {
    machine: {
      cpus: os.cpus().length,
      loadAverageAtStart: os.loadavg().map(value => round(value)),
      note: 'shared machine; other work may run at the same time (see the load averages)',
    },
    stream: await streamBench(seconds, rate),
  };
  if (!args.includes('--skip-memory')) {
    result.memory = [memoryBench(false), memoryBench(true)];
  }
  result.latency = await latencyBench();
  Object.assign(result.machine as object, {
    loadAverageAtEnd: os.loadavg().map(value => round(value)),
  });
  result.targets = {
    stream: 'all events reach the UI in order; longest frame < 50 ms',
    memory: '100,000 events held: <= 300 MB RSS',
    latency: 'hub adds <= 1 ms (median) per tool call',
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

await main();
