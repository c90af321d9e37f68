/**
 * The recordings folder: a recording starts with the run's first tool call (a start with none
 * leaves nothing); retention (by age and size, oldest first, never a starred one, the current one
 * nor one being replayed or read), listing from files (including a crashed recording with a torn last line),
 * reading in chunks, images, deleting, search, and ids that try to leave the folder. Real files in
 * a temp folder.
 *
 * Tests: src/core/recordings/Recordings.ts, src/core/recordings/retention.ts,
 *   src/core/recordings/secrets.ts, src/core/recordings/search.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {parseFlags} from '../../../src/core/config/flags.js';
import {Recordings} from '../../../src/core/recordings/Recordings.js';
import {DEFAULT_RETENTION, type RetentionLimits} from '../../../src/core/recordings/retention.js';
import {recordingFileName} from '../../../src/shared/recordingFile.js';
import {configSecrets, headerFlags, SecretScrubber} from '../../../src/core/recordings/secrets.js';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  parseRecordingText,
  recordingLine,
} from '../../../src/shared/recordingFile.js';

const dirs: string[] = [];
const recordings: Recordings[] = [];

afterEach(() => {
  for (const recording of recordings.splice(0)) {
    recording.close();
  }
  for (const dir of dirs.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-recordings-'));
  dirs.push(dir);
  return dir;
}

function config(flags: string[]) {
  const parsed = parseFlags(['--headless', '--port', '0', ...flags], {env: {}, hasDisplay: false});
  if (parsed.kind !== 'config') {
    throw new Error(JSON.stringify(parsed));
  }
  return parsed.config;
}

function started(seq: number, tool: string, args: Record<string, unknown> = {}): EventEnvelope {
  return {
    seq,
    time: 1_000 + seq,
    event: {
      type: 'toolCallStarted',
      callId: `call-${seq}`,
      tool,
      args,
      client: {id: 'c1', name: 'agent-x', version: '1', transport: 'http'},
    },
  };
}

function ended(seq: number, tool: string, errorText?: string): EventEnvelope {
  return {
    seq: seq + 1,
    time: 1_500 + seq,
    event: {
      type: 'toolCallEnded',
      callId: `call-${seq}`,
      tool,
      status: errorText === undefined ? 'ok' : 'error',
      durationMs: 5,
      result: {text: errorText ?? 'fine', images: []},
      ...(errorText === undefined ? {} : {errorText}),
    },
  };
}

/** A finished recording as an earlier run left it. */
function writeRecording(dir: string, startedAt: number, events: EventEnvelope[], pad = 0): string {
  const name = recordingFileName(startedAt, 1000);
  const header = recordingLine({
    format: RECORDING_FORMAT,
    formatVersion: RECORDING_FORMAT_VERSION,
    appVersion: 'old',
    startedAt,
    flags: {},
  });
  const body = events.map(event => recordingLine(event)).join('');
  fs.writeFileSync(path.join(dir, name), header + body + ' '.repeat(pad), {mode: 0o600});
  return name;
}

function recording(dir: string, limits?: Partial<RetentionLimits>) {
  const made = new Recordings({
    config: config(['--recordDir', dir]),
    token: 'abcdefghijklmnop1234',
    version: 'test',
    log: () => undefined,
    ...(limits ? {limits: {...DEFAULT_RETENTION, ...limits}} : {}),
  });
  recordings.push(made);
  return made;
}

/** A recording whose run made its first tool call (so its file exists). */
function recordingWithACall(dir: string, limits?: Partial<RetentionLimits>) {
  const made = recording(dir, limits);
  made.record(started(1, 'list_pages'));
  return made;
}

describe('a run with no tool call', () => {
  it('leaves no recording; its first call starts one with what came before', async () => {
    const dir = tempDir();
    const rec = recording(dir);
    rec.record({
      seq: 1,
      time: 900,
      event: {
        type: 'clientConnected',
        client: {id: 'c1', name: 'agent-x', version: '1', transport: 'http'},
      },
    });
    expect(rec.recorder).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
    const idle = await rec.list();
    expect(idle.recording).toBe(true);
    expect(idle.recordings).toEqual([]);
    rec.close();
    expect(fs.readdirSync(dir)).toEqual([]);

    const used = recording(dir);
    used.record({
      seq: 1,
      time: 900,
      event: {
        type: 'clientConnected',
        client: {id: 'c1', name: 'agent-x', version: '1', transport: 'http'},
      },
    });
    used.record(started(2, 'list_pages'));
    used.recorder?.flush();
    const file = used.recorder?.file ?? '';
    const parsed = parseRecordingText(fs.readFileSync(file, 'utf8'));
    expect(parsed.events.map(envelope => envelope.event.type)).toEqual([
      'clientConnected',
      'toolCallStarted',
    ]);
    expect((await used.list()).recordings).toMatchObject([{id: used.recorder?.id, calls: 1}]);
  });
});

describe('retention', () => {
  it("keeps yesterday's long session past a morning of short runs; removes what is 14 days old, never a starred one", async () => {
    const dir = tempDir();
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    const aged = (name: string, ms: number): string => {
      fs.utimesSync(path.join(dir, name), new Date(now - ms), new Date(now - ms));
      return name;
    };
    const starredOld = aged(writeRecording(dir, now - 30 * day, []), 30 * day);
    const old = aged(writeRecording(dir, now - 20 * day, []), 15 * day);
    const images = path.join(dir, `${old.replace('.jsonl', '')}.images`);
    fs.mkdirSync(images);
    fs.writeFileSync(path.join(images, '1-after.jpeg'), 'x');
    // Started 16 days ago, written until yesterday: its age is its last write.
    const longSession = aged(writeRecording(dir, now - 16 * day, [], 50_000), day);
    const morning = Array.from({length: 60}, (_, i) =>
      writeRecording(dir, now - 4 * 60 * 60 * 1000 + i * 60_000, []),
    );
    expect(recording(dir).star(starredOld, true)).toEqual({id: starredOld, starred: true});
    const current = recordingWithACall(dir);
    const list = await current.list();
    expect(list.retention).toMatchObject({
      maxAgeMs: 14 * day,
      maxBytes: 2 * 1024 ** 3,
      maxRecordings: 1000,
      removed: 1,
    });
    const kept = list.recordings.map(s => s.id);
    expect(kept).toHaveLength(63);
    expect(kept[0]).toBe(current.recorder?.id);
    expect(kept).toEqual(expect.arrayContaining([longSession, starredOld, ...morning]));
    expect(kept).not.toContain(old);
    expect(fs.existsSync(images)).toBe(false);
    expect(list.recordings.filter(s => s.starred).map(s => s.id)).toEqual([starredOld]);
  });

  it('stars and unstars a recording by id; a delete takes its star too', async () => {
    const dir = tempDir();
    const id = writeRecording(dir, Date.UTC(2026, 0, 1), []);
    const run = recording(dir);
    run.star(id, true);
    expect((await run.list()).recordings.map(s => [s.id, s.starred])).toEqual([[id, true]]);
    run.star(id, false);
    expect((await run.list()).recordings.map(s => s.starred)).toEqual([false]);
    run.star(id, true);
    run.delete(id);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(() => run.star(id, true)).toThrow(/no longer in the recordings folder/);
    expect(() => run.star('../x.jsonl', true)).toThrow(/not a recording id/);
  });

  it('keeps the total under the size cap, oldest first, never the current recording', async () => {
    const dir = tempDir();
    const base = Date.UTC(2026, 0, 1);
    const names = [0, 1, 2].map(i => writeRecording(dir, base + i * 1000, [], 4_000));
    const current = recordingWithACall(dir, {maxBytes: 12_000});
    const list = await current.list();
    expect(list.recordings.map(s => s.id)).toEqual([current.recorder?.id, names[2], names[1]]);
    expect(list.retention.totalBytes).toBeLessThanOrEqual(12_000);
    // A starred one stays even over the cap; the next oldest goes instead.
    const starredDir = tempDir();
    const [first, second, third] = [0, 1, 2].map(i =>
      writeRecording(starredDir, base + i * 1000, [], 4_000),
    );
    recording(starredDir).star(first ?? '', true);
    const withStar = recordingWithACall(starredDir, {maxBytes: 12_000});
    const ids = (await withStar.list()).recordings.map(s => s.id);
    expect(ids).toEqual([withStar.recorder?.id, third, first]);
    expect(ids).not.toContain(second);
    const tiny = recordingWithACall(tempDir(), {maxRecordings: 1, maxBytes: 1});
    expect((await tiny.list()).recordings.map(s => s.current)).toEqual([true]);
  });

  it('never removes a recording being replayed, and marks the replay in its header', async () => {
    const dir = tempDir();
    const base = Date.UTC(2026, 0, 1);
    const names = Array.from({length: 50}, (_, i) => writeRecording(dir, base + i * 60_000, []));
    const oldest = names[0] ?? '';
    const replay = new Recordings({
      config: config(['--recordDir', dir]),
      token: 'abcdefghijklmnop1234',
      version: 'test',
      log: () => undefined,
      limits: {...DEFAULT_RETENTION, maxRecordings: 50},
      replayOf: path.join(dir, oldest),
    });
    recordings.push(replay);
    replay.record(started(1, 'list_pages'));
    const list = await replay.list();
    const ids = list.recordings.map(s => s.id);
    expect(ids).toHaveLength(50);
    expect(ids).toContain(oldest);
    expect(ids).not.toContain(names[1]);
    expect(list.recordings[0]).toMatchObject({id: replay.recorder?.id, replayOf: oldest});
    expect(() => replay.delete(oldest)).toThrow(/being replayed/);
    const header = parseRecordingText(fs.readFileSync(replay.recorder?.file ?? '', 'utf8')).header;
    expect(header.replayOf).toBe(oldest);
  });

  it('never removes a recording a UI is reading, which it may still delete', async () => {
    const dir = tempDir();
    const base = Date.UTC(2026, 0, 1);
    const names = Array.from({length: 50}, (_, i) => writeRecording(dir, base + i * 60_000, []));
    const oldest = names[0] ?? '';
    const run = new Recordings({
      config: config(['--recordDir', dir]),
      token: 'abcdefghijklmnop1234',
      version: 'test',
      log: () => undefined,
      limits: {...DEFAULT_RETENTION, maxRecordings: 50},
    });
    recordings.push(run);
    expect(run.read(oldest).text).toContain(RECORDING_FORMAT);
    run.record(started(1, 'list_pages'));
    const ids = (await run.list()).recordings.map(s => s.id);
    expect(ids).toHaveLength(50);
    expect(ids).toContain(oldest);
    expect(ids).not.toContain(names[1]);
    expect(run.delete(oldest)).toEqual({id: oldest});
    expect(fs.existsSync(path.join(dir, oldest))).toBe(false);
  });
});

describe('listing, reading, deleting, searching', () => {
  it('lists a crashed recording with a torn last line from its file', async () => {
    const dir = tempDir();
    const name = writeRecording(dir, Date.UTC(2026, 0, 2), [
      started(1, 'navigate_page', {url: 'http://127.0.0.1/shop'}),
      ended(1, 'navigate_page'),
      started(3, 'click', {uid: '1_2'}),
      ended(3, 'click', 'No element with uid 1_2. Take a new snapshot.'),
    ]);
    fs.appendFileSync(path.join(dir, name), '{"seq":9,"time":1,"event":{"type":"toolCa');
    const rec = recording(dir);
    const list = await rec.list();
    const listed = list.recordings.find(s => s.id === name);
    expect(listed).toMatchObject({calls: 2, errors: 1, clients: ['agent-x'], current: false});
    // Cached: a second listing does not need the scan (and says the same).
    expect(fs.existsSync(path.join(dir, name.replace('.jsonl', '.summary.json')))).toBe(true);
    expect((await rec.list()).recordings.find(s => s.id === name)).toEqual(listed);

    const chunk = rec.read(name);
    expect(chunk.done).toBe(true);
    const parsed = parseRecordingText(chunk.text);
    expect(parsed.events).toHaveLength(4);
    expect(parsed.skippedLines).toBe(1);

    const byTool = await rec.search('CLICK');
    expect(byTool.hits.map(h => [h.field, h.tool])).toEqual([['tool', 'click']]);
    const byUrl = await rec.search('/shop');
    expect(byUrl.hits).toMatchObject([{field: 'url', tool: 'navigate_page', recordingId: name}]);
    const byError = await rec.search('new snapshot');
    expect(byError.hits).toMatchObject([{field: 'error', callId: 'call-3'}]);
    expect((await rec.search('nothing-like-this')).hits).toEqual([]);

    expect(rec.delete(name)).toEqual({id: name});
    expect(fs.existsSync(path.join(dir, name))).toBe(false);
    expect(() => rec.read(name)).toThrow(/no longer in the recordings folder/);
  });

  it('reads a large recording in line-aligned chunks', () => {
    const dir = tempDir();
    const events = Array.from({length: 30_000}, (_, i) =>
      started(i + 1, `tool_${i}`, {pad: 'y'.repeat(200)}),
    );
    const name = writeRecording(dir, Date.UTC(2026, 0, 3), events);
    const rec = recording(dir);
    let offset = 0;
    let text = '';
    let chunks = 0;
    for (;;) {
      const chunk = rec.read(name, offset);
      expect(chunk.text.endsWith('\n')).toBe(true);
      text += chunk.text;
      offset = chunk.nextOffset;
      chunks++;
      if (chunk.done) {
        break;
      }
    }
    expect(chunks).toBeGreaterThan(1);
    expect(parseRecordingText(text).events).toHaveLength(30_000);
  });

  it('refuses ids and image names that are not plain names in the folder', () => {
    const dir = tempDir();
    const rec = recordingWithACall(dir);
    const outside = path.join(tempDir(), 'x.jsonl');
    fs.writeFileSync(outside, 'secret');
    fs.symlinkSync(outside, path.join(dir, 'link.jsonl'));
    for (const id of ['../x.jsonl', '/etc/passwd', 'a/b.jsonl', 'x.txt', '..jsonl', 'link.jsonl']) {
      expect(() => rec.read(id), id).toThrow();
    }
    const id = rec.recorder?.id ?? '';
    expect(() => rec.image(id, '../../x.jpeg')).toThrow(/not an image/);
    expect(() => rec.delete(id)).toThrow(/being written now/);
  });
});

describe('secrets', () => {
  it('drops the token and header values from the header flags and every line', () => {
    const cfg = config([
      '--token',
      'flag-token-abcdefghijk',
      '--wsEndpoint',
      'ws://127.0.0.1:9222/devtools/browser/x?token=qs-secret-123456',
      '--wsHeaders',
      '{"X-Api-Key":"header-value-secret-1"}',
      '--proxyServer',
      'http://user:pw-secret-777@proxy:3128',
    ]);
    const flags = JSON.stringify(headerFlags(cfg));
    for (const secret of [
      'flag-token-abcdefghijk',
      'qs-secret-123456',
      'header-value-secret-1',
      'pw-secret-777',
    ]) {
      expect(flags).not.toContain(secret);
    }
    expect(flags).toContain('X-Api-Key');
    const scrubber = new SecretScrubber(configSecrets(cfg, 'flag-token-abcdefghijk'));
    const line = JSON.stringify({
      text: 'authorization: Bearer abc.def.ghi\nx-api-key: header-value-secret-1 token=flag-token-abcdefghijk',
      nested: JSON.stringify({Authorization: 'Basic dXNlcjpwYXNz'}),
      url: 'http://me:hunter2@host/',
    });
    const scrubbed = scrubber.scrub(line);
    for (const secret of [
      'abc.def.ghi',
      'header-value-secret-1',
      'flag-token-abcdefghijk',
      'dXNlcjpwYXNz',
      'hunter2',
    ]) {
      expect(scrubbed).not.toContain(secret);
    }
    expect(JSON.parse(scrubbed)).toBeTypeOf('object');
  });
});
