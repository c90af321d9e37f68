/**
 * The recordings folder: retention (newest 50, a size cap, oldest first, never the current one),
 * listing from files (including a crashed recording with a torn last line), reading in chunks,
 * images, deleting, search, and ids that try to leave the folder. Real files in a temp folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {parseFlags} from '../../../src/core/config/flags.js';
import {Recordings} from '../../../src/core/recordings/Recordings.js';
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

function recording(dir: string, limits?: {maxRecordings: number; maxBytes: number}) {
  const made = new Recordings({
    config: config(['--recordDir', dir]),
    token: 'abcdefghijklmnop1234',
    version: 'test',
    log: () => undefined,
    ...(limits ? {limits} : {}),
  });
  recordings.push(made);
  return made;
}

describe('retention', () => {
  it('keeps the newest 50 recordings, the new one included, removing the oldest first', async () => {
    const dir = tempDir();
    const base = Date.UTC(2026, 0, 1);
    const names = Array.from({length: 51}, (_, i) => writeRecording(dir, base + i * 60_000, []));
    const images = path.join(dir, `${names[0]?.replace('.jsonl', '')}.images`);
    fs.mkdirSync(images);
    fs.writeFileSync(path.join(images, '1-after.jpeg'), 'x');
    const current = recording(dir);
    const list = await current.list();
    expect(list.recordings).toHaveLength(50);
    expect(list.retention).toMatchObject({maxRecordings: 50, maxBytes: 2 * 1024 ** 3, removed: 2});
    const kept = list.recordings.map(s => s.id);
    expect(kept[0]).toBe(current.recorder?.id);
    expect(kept).not.toContain(names[0]);
    expect(kept).not.toContain(names[1]);
    expect(kept).toContain(names[2]);
    expect(fs.existsSync(images)).toBe(false);
  });

  it('keeps the total under the size cap, oldest first, never the current recording', async () => {
    const dir = tempDir();
    const base = Date.UTC(2026, 0, 1);
    const names = [0, 1, 2].map(i => writeRecording(dir, base + i * 1000, [], 4_000));
    const current = recording(dir, {maxRecordings: 50, maxBytes: 12_000});
    const list = await current.list();
    expect(list.recordings.map(s => s.id)).toEqual([current.recorder?.id, names[2], names[1]]);
    expect(list.retention.totalBytes).toBeLessThanOrEqual(12_000);
    const tiny = recording(tempDir(), {maxRecordings: 1, maxBytes: 1});
    expect((await tiny.list()).recordings.map(s => s.current)).toEqual([true]);
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
    const rec = recording(dir);
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
