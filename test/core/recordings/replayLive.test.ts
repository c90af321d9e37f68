/**
 * Replay and export from the inspector: `replayRecording` replays a recording into the live
 * browser (beside the pages already open), streaming one replayProgress event per call and a
 * replayFinished; `untilCall` stops early; `exportRecording` answers the test text; bad ids and a
 * second replay while one runs are refused with what to do.
 *
 * Tests: src/core/recordings/replay/live.ts, src/core/recordings/replay/replayRecording.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import type {InspectorEvent} from '../../../src/shared/protocol.js';
import {useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {recordHub} from '../../helpers/hubRecording.js';
import {runShopCalls, serveShop, SHOP_CALLS} from '../../helpers/shopCalls.js';

const fixture = useEngineWithFixtures({routes: server => serveShop(server, () => ({}))});
const RECORDING_ID = 'shop-2026-12-01.jsonl';

beforeAll(async () => {
  const recording = recordHub(fixture.engine.engine.hub);
  await runShopCalls(fixture.client, fixture.server);
  const dir = path.join(fixture.engine.configDir, 'sessions');
  fs.mkdirSync(dir, {recursive: true});
  await recording.save(path.join(dir, RECORDING_ID));
  recording.close();
});

type ReplayEvent = Extract<InspectorEvent, {type: 'replayProgress' | 'replayFinished'}>;

/** Replay events published from now on, for one replay id. */
function replayEvents(): {events: ReplayEvent[]; close(): void} {
  const {hub} = fixture.engine.engine;
  const events: ReplayEvent[] = [];
  const subscription = hub.subscribe(hub.nextSeq, batch => {
    for (const {event} of batch.events) {
      if (event.type === 'replayProgress' || event.type === 'replayFinished') {
        events.push(event);
      }
    }
    return true;
  });
  return {events, close: () => subscription.close()};
}

describe('replayRecording', () => {
  it('replays into the live browser, one progress event per call, then the summary', async () => {
    const stream = replayEvents();
    try {
      const started = await fixture.engine.engine.handleCommand({
        type: 'replayRecording',
        recordingId: RECORDING_ID,
      });
      expect(started.ok).toBe(true);
      const replayId = started.ok ? started.value.replayId : '';
      expect(started.ok && started.value.total).toBe(SHOP_CALLS);
      // One replay at a time.
      const second = await fixture.engine.engine.handleCommand({
        type: 'replayRecording',
        recordingId: RECORDING_ID,
      });
      expect(second).toMatchObject({ok: false});
      expect(second.ok ? '' : second.error).toContain('is running');

      const finished = await waitFor(
        () => stream.events.find(event => event.type === 'replayFinished'),
        60_000,
        'the replay to finish',
      );
      const progress = stream.events.flatMap(event =>
        event.type === 'replayProgress' && event.replayId === replayId ? [event.call] : [],
      );
      expect(progress.map(call => call.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(finished).toMatchObject({replayId, recordingId: RECORDING_ID});
      expect(finished.summary.total).toBe(SHOP_CALLS);
      // The pages opened by the replay stand in for the recorded ones: the clicks reach the same
      // elements and the script reads back what it did in the recording.
      const byIndex = new Map(progress.map(call => [call.index, call]));
      expect(byIndex.get(3)?.outcome).toBe('same');
      expect(byIndex.get(6)?.outcome).toBe('same');
      expect(byIndex.get(11)?.outcome).toBe('same');
      // The page list of a live browser holds more pages than the recording's did.
      expect(byIndex.get(1)?.outcome).toBe('different');
    } finally {
      stream.close();
    }
  });

  it('replays up to the call untilCall names', async () => {
    const stream = replayEvents();
    try {
      const started = await fixture.engine.engine.handleCommand({
        type: 'replayRecording',
        recordingId: RECORDING_ID,
        untilCall: 2,
      });
      expect(started).toMatchObject({ok: true, value: {total: 2}});
      const finished = await waitFor(
        () => stream.events.find(event => event.type === 'replayFinished'),
        30_000,
        'the replay to finish',
      );
      expect(finished.summary.total).toBe(2);
    } finally {
      stream.close();
    }
  });

  it('refuses ids that are not recording names, and recordings that are gone', async () => {
    for (const recordingId of ['../token', 'a/b', '.hidden']) {
      const result = await fixture.engine.engine.handleCommand({
        type: 'replayRecording',
        recordingId,
      });
      expect(result.ok, recordingId).toBe(false);
    }
    const gone = await fixture.engine.engine.handleCommand({
      type: 'replayRecording',
      recordingId: 'no-such-recording.jsonl',
    });
    expect(gone.ok ? '' : gone.error).toContain(
      'Recording no-such-recording.jsonl is no longer in the recordings folder',
    );
  });
});

describe('exportRecording', () => {
  it('answers the Playwright test text and a file name', async () => {
    const result = await fixture.engine.engine.handleCommand({
      type: 'exportRecording',
      recordingId: RECORDING_ID,
      format: 'playwright',
    });
    expect(result.ok).toBe(true);
    const value = result.ok ? result.value : undefined;
    expect(value?.fileName).toBe('shop-2026-12-01.spec.ts');
    expect(value?.text).toContain("import { test, expect } from '@playwright/test';");
    expect(value?.text).toContain('// #11 evaluate_script');
  });
});
