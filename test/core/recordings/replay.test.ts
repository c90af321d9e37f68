/**
 * Replay against a fresh engine and browser: a multi-page recording replays with the same
 * outcome against unchanged pages; against pages that moved their elements around, the uids are
 * found again by role, name and ancestry; against pages that changed, calls come out different or
 * failed with the reason. The recording carries callElements for every element argument.
 *
 * Tests: src/core/recordings/replay/replayRecording.ts, src/core/recordings/replay/calls.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {ClientRef} from '../../../src/shared/protocol.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {recordedCalls} from '../../../src/core/recordings/replay/calls.js';
import {
  replayRecordedCalls,
  type ReplayCallReport,
} from '../../../src/core/recordings/replay/replayRecording.js';
import {startEngine, useEngineWithFixtures} from '../../helpers/engine.js';
import {recordHub} from '../../helpers/hubRecording.js';
import {runShopCalls, serveShop, SHOP_CALLS, type ShopVariant} from '../../helpers/shopCalls.js';

let variant: ShopVariant = {};
const fixture = useEngineWithFixtures({
  tmpPrefix: 'mbi-replay-',
  routes: server => serveShop(server, () => variant),
});
let recordingFile = '';

const REPLAY: ClientRef = {id: 'replay', name: 'Replay', version: 'test', transport: 'inspector'};

beforeAll(async () => {
  const recording = recordHub(fixture.engine.engine.hub);
  await runShopCalls(fixture.client, fixture.server);
  recordingFile = path.join(fixture.tmp, 'shop.jsonl');
  await recording.save(recordingFile);
  recording.close();
});

async function replay(shop: ShopVariant, untilCall?: number): Promise<ReplayCallReport[]> {
  variant = shop;
  const engine = await startEngine();
  try {
    const recording = parseRecordingText(fs.readFileSync(recordingFile, 'utf8'));
    const {calls, summary} = await replayRecordedCalls(
      recordedCalls(recording.events),
      engine.engine.replays.targetFor(REPLAY),
      untilCall === undefined ? {} : {untilCall},
    );
    expect(summary.total).toBe(calls.length);
    return calls;
  } finally {
    await engine.stop();
  }
}

function outcomes(reports: ReplayCallReport[]): string[] {
  return reports.map(report => `${report.index} ${report.tool} ${report.outcome}`);
}

describe('the recording', () => {
  it('names every element argument by role, name, ancestry and nth', () => {
    const recording = parseRecordingText(fs.readFileSync(recordingFile, 'utf8'));
    const {calls} = recordedCalls(recording.events);
    expect(calls).toHaveLength(SHOP_CALLS);
    const click = calls[2];
    expect(click?.tool).toBe('click');
    expect(click?.elements).toEqual([
      {
        param: 'uid',
        uid: click?.args.uid,
        role: 'button',
        name: 'Buy',
        ancestry: [
          {role: 'region', name: 'Books'},
          {role: 'RootWebArea', name: 'Shop'},
        ],
        nth: 1,
      },
    ]);
    expect(calls[4]?.elements.map(element => [element.role, element.name])).toEqual([
      ['combobox', 'Size'],
    ]);
    // Calls without element arguments carry none.
    expect(calls[5]?.elements).toEqual([]);
  });
});

describe('replay', () => {
  it('has the same outcome for every call against the same pages', async () => {
    const reports = await replay({});
    expect(outcomes(reports)).toEqual(outcomes(reports).map(line => line.replace(/\w+$/, 'same')));
    expect(reports.map(report => report.tool)).toEqual([
      'new_page',
      'take_snapshot',
      'click',
      'fill',
      'fill',
      'evaluate_script',
      'new_page',
      'wait_for',
      'select_page',
      'click',
      'evaluate_script',
    ]);
  });

  it('finds moved elements by role, name and ancestry, not by uid or position', async () => {
    const reports = await replay({reordered: true});
    // Only the snapshot itself shows the new button; the Books "Buy" is still the one clicked,
    // so the script that reads the result back returns what it did in the recording.
    expect(outcomes(reports).filter(line => !line.endsWith(' same'))).toEqual([
      '2 take_snapshot different',
    ]);
    expect(reports[1]?.diff).toMatch(/^\+ +<uid> button "Promo"$/m);
  });

  it('reports different and failed calls, with a diff and the reason, when the page changed', async () => {
    const reports = await replay({booksLabel: 'Purchase', heading: 'Store'});
    const byIndex = new Map(reports.map(report => [report.index, report]));
    expect(byIndex.get(1)?.outcome).toBe('same');
    expect(byIndex.get(2)?.outcome).toBe('different');
    expect(byIndex.get(2)?.diff).toMatch(/^- +<uid> heading "Shop" level=1$/m);
    expect(byIndex.get(2)?.diff).toMatch(/^\+ +<uid> heading "Store" level=1$/m);
    expect(byIndex.get(3)).toMatchObject({outcome: 'failed', replayedStatus: 'not run'});
    expect(byIndex.get(3)?.reason).toContain('button "Buy" inside region "Books"');
    expect(byIndex.get(6)?.outcome).toBe('different');
    expect(byIndex.get(6)?.diff).toContain('["","a@b.c","M"]');
    expect(byIndex.get(11)?.outcome).toBe('same');
  });

  it('stops after the call --until names', async () => {
    const reports = await replay({}, 3);
    expect(outcomes(reports)).toEqual(['1 new_page same', '2 take_snapshot same', '3 click same']);
  });
});

afterAll(() => {
  variant = {};
});
