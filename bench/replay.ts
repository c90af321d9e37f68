/**
 * Replay overhead: a recording of agent calls (the shop run, several rounds over two
 * pages) replayed into a fresh engine and browser; the replay's wall time per call (argument
 * mapping, element lookup, the call itself) against the recorded calls' own durationMs. Target:
 * at most 1.2× in sum. Used by `npm run bench -- replay`.
 */
import {parseFlags} from '../src/core/config/flags.js';
import {Engine} from '../src/core/Engine.js';
import {recordedCalls} from '../src/core/recordings/replay/calls.js';
import {replayRecordedCalls} from '../src/core/recordings/replay/replayRecording.js';
import type {ClientRef, EventEnvelope} from '../src/shared/protocol.js';
import type {FixtureServer} from '../test/helpers/fixtureServer.js';
import {serveShop} from '../test/helpers/shopPages.js';
import {CHROMIUM, median} from './lib.js';

const AGENT: ClientRef = {id: 'agent', name: 'bench agent', version: '1', transport: 'http'};
const REPLAY: ClientRef = {id: 'replay', name: 'Replay', version: '1', transport: 'inspector'};
const ROUNDS = 5;

function engine(configDir: string): Engine {
  const parsed = parseFlags(['--headless', '--isolated'], {env: {}, hasDisplay: false});
  if (parsed.kind !== 'config') {
    throw new Error('bad flags');
  }
  return new Engine(parsed.config, {
    version: 'bench',
    log: () => undefined,
    rendererDir: undefined,
    configDir,
    env: {CHROME_PATH: CHROMIUM},
  });
}

function uidAfter(snapshot: string, after: string, fragment: string): string {
  const lines = snapshot.split('\n');
  const start = Math.max(
    0,
    lines.findIndex(line => line.includes(after)),
  );
  const line = lines.slice(start).find(candidate => candidate.includes(fragment)) ?? '';
  return /^ *(\d+)/.exec(line)?.[1] ?? '';
}

/** The agent's calls, ROUNDS times: open, read, click, fill, check, second page, navigate. */
async function record(recorder: Engine, fixtures: FixtureServer): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  const subscription = recorder.hub.subscribe(1, batch => {
    events.push(...batch.events);
    return true;
  });
  const run = (tool: string, args: Record<string, unknown>) =>
    recorder.runToolAs(AGENT, tool, args);
  for (let round = 0; round < ROUNDS; round++) {
    await run('new_page', {url: fixtures.url('/shop.html')});
    const shop = recorder.inProcess.of(AGENT).selected?.id ?? 0;
    const snapshot = (await run('take_snapshot', {pageId: shop})).text;
    await run('click', {pageId: shop, uid: uidAfter(snapshot, 'region "Books"', 'button "Buy"')});
    await run('fill', {
      pageId: shop,
      uid: uidAfter(snapshot, '', 'textbox "Email"'),
      value: 'a@b.c',
    });
    await run('fill', {pageId: shop, uid: uidAfter(snapshot, '', 'combobox "Size"'), value: 'M'});
    await run('evaluate_script', {
      pageId: shop,
      function: "() => document.querySelector('output').textContent",
    });
    await run('new_page', {url: fixtures.url('/next.html')});
    await run('wait_for', {
      pageId: recorder.inProcess.of(AGENT).selected?.id ?? 0,
      text: ['Next page'],
    });
    await run('select_page', {pageId: shop});
    await run('click', {pageId: shop, uid: uidAfter(snapshot, '', 'link "Next"')});
  }
  const last = recorder.hub.nextSeq - 1;
  const deadline = Date.now() + 10_000;
  while ((events.at(-1)?.seq ?? 0) < last && Date.now() < deadline) {
    await new Promise(resolve => setTimeout(resolve, 20));
  }
  subscription.close();
  return events;
}

export interface ReplayOverhead {
  calls: number;
  recordedMs: number;
  replayMs: number;
  /** Sum of replay wall time over sum of recorded durations. */
  ratio: number;
  /** Median of the per-call ratios. */
  medianCallRatio: number;
  same: number;
}

export async function measureReplayOverhead(
  fixtures: FixtureServer,
  configDir: string,
): Promise<ReplayOverhead> {
  serveShop(fixtures, () => ({}));
  const recorder = engine(configDir);
  let events: EventEnvelope[];
  try {
    events = await record(recorder, fixtures);
  } finally {
    await recorder.stop();
  }
  const replayer = engine(configDir);
  try {
    const {calls, summary} = await replayRecordedCalls(
      recordedCalls(events),
      replayer.replays.targetFor(REPLAY),
    );
    // The first call of each side also launches its browser: left out of the per-call median.
    const ratios = calls
      .slice(1)
      .flatMap(call => (call.recordedMs ? [call.replayMs / call.recordedMs] : []));
    return {
      calls: summary.total,
      recordedMs: summary.recordedMs,
      replayMs: summary.replayMs,
      ratio: summary.replayMs / summary.recordedMs,
      medianCallRatio: median(ratios),
      same: summary.same,
    };
  } finally {
    await replayer.stop();
  }
}
