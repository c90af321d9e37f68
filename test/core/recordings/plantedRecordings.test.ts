/**
 * Files planted in the recordings folder cannot hang the Recordings tab or the server: a 1 GB file
 * whose second line never ends (sparse, made here, never kept) is named as too large in the list
 * and the search, never read; opening, replaying or exporting it is refused with the reason. A
 * 40 MB line inside a smaller recording is read past with bounded memory and counted; the calls
 * around it are listed and found. Meanwhile the server keeps answering: an MCP call made while the
 * list and search run is answered, and the event loop never stalls for long.
 *
 * Tests: src/core/recordings/Recordings.ts, src/core/recordings/scan.ts,
 *   src/core/inspectorCommands.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {monitorEventLoopDelay} from 'node:perf_hooks';
import {beforeAll, describe, expect, it} from 'vitest';
import {commandReplySchemas} from '../../../src/shared/replies.js';
import type {InspectorCommand} from '../../../src/shared/protocol.js';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';
import {loadFactor} from '../../helpers/loadFactor.js';

const fx = useEngineWithFixtures({clientName: 'planted'});

const HEADER =
  '{"format":"mcp-browser-inspector-session","formatVersion":1,"appVersion":"x","startedAt":1600000000000,"flags":{}}';
const CLIENT = '{"id":"c1","name":"agent","version":"1","transport":"http"}';
const PROBE_CALL = `{"seq":1,"time":1600000000001,"event":{"type":"toolCallStarted","callId":"p1","tool":"planted_probe_tool","args":{},"client":${CLIENT}}}`;
const HUGE = 'session-2020-01-01T00-00-00-000Z-1.jsonl';
const LONG_LINE = 'session-2020-01-02T00-00-00-000Z-1.jsonl';
const GIB = 1024 * 1024 * 1024;
const LONG_LINE_BYTES = 40 * 1024 * 1024;

let dir = '';

beforeAll(async () => {
  // The engine's own recording starts with its first call; the folder exists from then on.
  await call(fx.client, 'list_pages');
  dir = fx.engine.engine.recordings.dir;
  // 1 GB: the header, then a line of zeros that never ends (a hole: nothing is written).
  const huge = fs.openSync(path.join(dir, HUGE), 'w', 0o600);
  fs.writeSync(huge, `${HEADER}\n${PROBE_CALL}\n`);
  fs.ftruncateSync(huge, GIB);
  fs.closeSync(huge);
  // 40 MB of zeros as one line between the header and a call.
  const long = fs.openSync(path.join(dir, LONG_LINE), 'w', 0o600);
  fs.writeSync(long, `${HEADER}\n`);
  fs.writeSync(long, `\n${PROBE_CALL}\n`, HEADER.length + 1 + LONG_LINE_BYTES);
  fs.closeSync(long);
});

async function command(request: InspectorCommand): Promise<unknown> {
  const reply = await fx.engine.engine.handleCommand(request);
  if (!reply.ok) {
    throw new Error(reply.error);
  }
  return reply.value;
}

/** Runs `work` while the server is asked something else, and watches the event loop. */
async function whileServing<T>(work: () => Promise<T>): Promise<T> {
  const delay = monitorEventLoopDelay({resolution: 10});
  delay.enable();
  const rssBefore = process.memoryUsage().rss;
  const started = work();
  const other = await call(fx.client, 'list_pages');
  expect(other.isError, other.text).toBe(false);
  const value = await started;
  delay.disable();
  const stalledMs = delay.max / 1e6;
  console.log(
    `event loop: longest stall ${stalledMs.toFixed(0)} ms (load ${loadFactor().toFixed(2)}); RSS +${((process.memoryUsage().rss - rssBefore) / 1e6).toFixed(0)} MB`,
  );
  expect(stalledMs).toBeLessThan(1_000 * loadFactor());
  // Nothing holds a line: reading 1 GB and 40 MB lines costs no such memory.
  expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  return value;
}

describe('planted recordings', () => {
  it('are listed, or named as not read, without hanging the list', async () => {
    const list = commandReplySchemas.recordingsList.parse(
      await whileServing(() => command({type: 'recordingsList'})),
    );
    expect(list.notListed?.map(item => item.id)).toEqual([HUGE]);
    expect(list.notListed?.[0]?.reason).toContain('over the 512 MB the inspector reads');
    const long = list.recordings.find(recording => recording.id === LONG_LINE);
    expect(long).toMatchObject({calls: 1, skippedLines: 1});
  });

  it('are searched, or named as not searched', async () => {
    const found = commandReplySchemas.recordingsSearch.parse(
      await whileServing(() => command({type: 'recordingsSearch', query: 'planted_probe_tool'})),
    );
    expect(found.hits.map(hit => hit.recordingId)).toEqual([LONG_LINE]);
    const notSearched = new Map(found.notSearched?.map(item => [item.id, item.reason]));
    expect(notSearched.get(HUGE)).toContain('over the 512 MB the inspector reads');
    expect(notSearched.get(LONG_LINE)).toContain('1 line(s) longer than 16 MB');
  });

  it('are opened in bounded chunks, the long line read past, or refused when too large', async () => {
    await expect(command({type: 'recordingRead', id: HUGE})).rejects.toThrow(
      /not opened: 1024 MB, over the 512 MB/,
    );
    let offset = 0;
    let text = '';
    let skipped = 0;
    for (let reads = 0; reads < 20; reads++) {
      const chunk = commandReplySchemas.recordingRead.parse(
        await command({type: 'recordingRead', id: LONG_LINE, offset}),
      );
      text += chunk.text;
      skipped += chunk.skippedLines ?? 0;
      expect(chunk.text.length).toBeLessThanOrEqual(4 * 1024 * 1024);
      offset = chunk.nextOffset;
      if (chunk.done) {
        break;
      }
    }
    expect(offset).toBe(fs.statSync(path.join(dir, LONG_LINE)).size);
    expect(skipped).toBe(1);
    expect(text).toBe(`${HEADER}\n${PROBE_CALL}\n`);
  });

  it('are not replayed or exported when too large', async () => {
    await expect(
      command({type: 'exportRecording', recordingId: HUGE, format: 'playwright'}),
    ).rejects.toThrow(/over the 512 MB the inspector reads; replay or export it from the command/);
    await expect(command({type: 'replayRecording', recordingId: HUGE})).rejects.toThrow(
      /over the 512 MB/,
    );
  });
});
