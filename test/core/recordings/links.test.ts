/**
 * Links and other planted entries in the recordings folder are never followed: a
 * summary link to an outside file is replaced, not written through; an images folder that is a
 * link (or flips to one) serves nothing from outside and is removed as a link; a FIFO does not
 * hang the listing; the recorder never writes its images through a planted link. Real files, a
 * real flipping process.
 *
 * Tests: src/core/recordings/Recordings.ts, src/core/recordings/retention.ts
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {parseFlags} from '../../../src/core/config/flags.js';
import {Recordings} from '../../../src/core/recordings/Recordings.js';
import {recordingFileName} from '../../../src/shared/recordingFile.js';
import {applyRetention} from '../../../src/core/recordings/retention.js';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  recordingLine,
} from '../../../src/shared/recordingFile.js';
import {startFlipper, type Flipper} from '../../helpers/flipper.js';
import {parkFolderForLink, restoreFolder, withRaceHook} from '../../helpers/racePoint.js';

const dirs: string[] = [];
const recordings: Recordings[] = [];
const flippers: Flipper[] = [];

afterEach(async () => {
  for (const flipper of flippers.splice(0)) {
    await flipper.stop();
  }
  for (const recording of recordings.splice(0)) {
    recording.close();
  }
  for (const dir of dirs.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

function tempDir(prefix = 'mbi-recording-links-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}

function recording(dir: string): Recordings {
  const parsed = parseFlags(['--headless', '--port', '0', '--recordDir', dir], {
    env: {},
    hasDisplay: false,
  });
  if (parsed.kind !== 'config') {
    throw new Error(JSON.stringify(parsed));
  }
  const made = new Recordings({
    config: parsed.config,
    token: 'abcdefghijklmnop1234',
    version: 'test',
    log: () => undefined,
  });
  recordings.push(made);
  return made;
}

/** A finished recording as an earlier run left it; returns its id. */
function writeRecording(dir: string, startedAt: number): string {
  const name = recordingFileName(startedAt, 1000);
  const header = recordingLine({
    format: RECORDING_FORMAT,
    formatVersion: RECORDING_FORMAT_VERSION,
    appVersion: 'old',
    startedAt,
    flags: {},
  });
  fs.writeFileSync(path.join(dir, name), header, {mode: 0o600});
  return name;
}

const base = (id: string): string => id.replace(/\.jsonl$/, '');

/** An outside folder holding one "image" and one file the listing must never touch. */
function outsideFolder(): {dir: string; image: string; victim: string} {
  const dir = tempDir('mbi-outside-');
  const image = path.join(dir, '1-after.jpeg');
  const victim = path.join(dir, 'victim.txt');
  fs.writeFileSync(image, 'OUTSIDE-IMAGE');
  fs.writeFileSync(victim, 'precious');
  return {dir, image, victim};
}

describe('a planted summary link', () => {
  it('is replaced by the listing, never written through', async () => {
    const dir = tempDir();
    const outside = outsideFolder();
    const id = writeRecording(dir, Date.UTC(2026, 0, 1));
    const summary = path.join(dir, `${base(id)}.summary.json`);
    fs.symlinkSync(outside.victim, summary);
    const rec = recording(dir);
    const listed = await rec.list();
    expect(listed.recordings.map(entry => entry.id)).toContain(id);
    expect(fs.readFileSync(outside.victim, 'utf8')).toBe('precious');
    // The summary is a plain file of the folder now, private, and nothing else was left behind.
    const stat = fs.lstatSync(summary);
    expect(stat.isFile()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir).filter(name => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a FIFO in its place or as a recording does not hang the listing', async () => {
    if (process.platform === 'win32') {
      return;
    }
    const dir = tempDir();
    const id = writeRecording(dir, Date.UTC(2026, 0, 2));
    execFileSync('mkfifo', [path.join(dir, `${base(id)}.summary.json`)]);
    execFileSync('mkfifo', [path.join(dir, recordingFileName(Date.UTC(2026, 0, 3), 1000))]);
    const rec = recording(dir);
    const listed = await rec.list();
    expect(listed.recordings.map(entry => entry.id)).toEqual([id]);
  });
});

describe('an images folder that is a link', () => {
  it('serves nothing from outside, counts nothing, and is removed as a link', async () => {
    const dir = tempDir();
    const outside = outsideFolder();
    const id = writeRecording(dir, Date.UTC(2026, 0, 4));
    fs.symlinkSync(outside.dir, path.join(dir, `${base(id)}.images`));
    const rec = recording(dir);
    expect(() => rec.image(id, '1-after.jpeg')).toThrow(/cannot be read|missing/);
    const listed = (await rec.list()).recordings.find(entry => entry.id === id);
    expect(listed?.bytes).toBe(fs.statSync(path.join(dir, id)).size);
    expect(rec.delete(id)).toEqual({id});
    expect(fs.readdirSync(outside.dir).sort()).toEqual(['1-after.jpeg', 'victim.txt']);
    expect(fs.existsSync(path.join(dir, `${base(id)}.images`))).toBe(false);
  });

  it('links inside a real images folder are neither served nor followed on removal', () => {
    const dir = tempDir();
    const outside = outsideFolder();
    const id = writeRecording(dir, Date.UTC(2026, 0, 5));
    const images = path.join(dir, `${base(id)}.images`);
    fs.mkdirSync(images);
    fs.writeFileSync(path.join(images, '2-before.png'), 'INSIDE');
    fs.symlinkSync(outside.image, path.join(images, '1-after.jpeg'));
    fs.symlinkSync(outside.dir, path.join(images, 'sub'));
    const rec = recording(dir);
    expect(rec.image(id, '2-before.png').data).toBe(Buffer.from('INSIDE').toString('base64'));
    expect(() => rec.image(id, '1-after.jpeg')).toThrow();
    // Retention removes it like a delete: the links go, what they lead to stays.
    applyRetention(dir, new Set(), {maxAgeMs: 1, maxRecordings: 0, maxBytes: 0});
    expect(fs.existsSync(path.join(dir, id))).toBe(false);
    expect(fs.existsSync(images)).toBe(false);
    expect(fs.readdirSync(outside.dir).sort()).toEqual(['1-after.jpeg', 'victim.txt']);
  });

  it('never serves an outside file while the folder flips between real and a link', async () => {
    const dir = tempDir();
    const outside = outsideFolder();
    const id = writeRecording(dir, Date.UTC(2026, 0, 6));
    const images = path.join(dir, `${base(id)}.images`);
    const parked = path.join(dir, 'parked');
    const link = path.join(dir, 'link');
    fs.mkdirSync(images);
    fs.writeFileSync(path.join(images, '1-after.jpeg'), 'INSIDE');
    fs.symlinkSync(outside.dir, link);
    flippers.push(
      await startFlipper(
        `const [images, parked, link] = args;
         globalThis.n = (globalThis.n || 0) + 1;
         if (globalThis.n % 2) { fs.renameSync(images, parked); fs.renameSync(link, images); }
         else { fs.renameSync(images, link); fs.renameSync(parked, images); }`,
        [images, parked, link],
      ),
    );
    const rec = recording(dir);
    const served = new Set<string>();
    let refused = 0;
    const end = Date.now() + 3_000;
    for (let index = 0; index < 2_000 && Date.now() < end; index++) {
      try {
        served.add(Buffer.from(rec.image(id, '1-after.jpeg').data, 'base64').toString());
      } catch {
        refused++;
      }
    }
    // How many reads met a link depends on the scheduler: the race itself is run at its instant
    // by the next test; here only what every read returned is asserted.
    expect([...served], `${refused} refused`).toEqual(['INSIDE']);
  });

  it('refuses the image when the folder became a link just before it was opened', async () => {
    const dir = tempDir();
    const outside = outsideFolder();
    const id = writeRecording(dir, Date.UTC(2026, 0, 7));
    const images = path.join(dir, `${base(id)}.images`);
    const parked = path.join(dir, 'parked');
    fs.mkdirSync(images);
    fs.writeFileSync(path.join(images, '1-after.jpeg'), 'INSIDE');
    const rec = recording(dir);
    const read = (): string => Buffer.from(rec.image(id, '1-after.jpeg').data, 'base64').toString();
    expect(read()).toBe('INSIDE');
    let swapped = 0;
    await withRaceHook(
      (step, target) => {
        if (step === 'open-folder' && path.basename(target) === path.basename(images)) {
          parkFolderForLink(images, parked, outside.dir);
          swapped++;
        }
      },
      () => expect(read).toThrow(/cannot be read/),
    );
    expect(swapped).toBe(1);
    restoreFolder(images, parked);
    expect(read()).toBe('INSIDE');
  });
});

describe('the recorder', () => {
  it('keeps no images when a link was planted under its images folder name', () => {
    const dir = tempDir();
    const outside = outsideFolder();
    const rec = recording(dir);
    rec.record({
      seq: 6,
      time: 1_900,
      event: {
        type: 'toolCallStarted',
        callId: 'c-7',
        tool: 'take_screenshot',
        args: {},
        client: {id: 'c1', name: 'agent', version: '1', transport: 'http'},
      },
    });
    const recorder = rec.recorder;
    if (recorder === undefined) {
      throw new Error('not recording');
    }
    fs.symlinkSync(outside.dir, recorder.imagesDir);
    const ended: EventEnvelope = {
      seq: 7,
      time: 2_000,
      event: {
        type: 'toolCallEnded',
        callId: 'c-7',
        tool: 'take_screenshot',
        status: 'ok',
        durationMs: 3,
        result: {text: 'shot', images: [{mimeType: 'image/png', data: 'UExBTlRFRA=='}]},
      },
    };
    rec.record(ended);
    recorder.flush();
    expect(fs.readdirSync(outside.dir).sort()).toEqual(['1-after.jpeg', 'victim.txt']);
    const line = fs.readFileSync(recorder.file, 'utf8').trim().split('\n').at(-1) ?? '';
    expect(line).toContain('"take_screenshot"');
    expect(line).not.toContain('"file"');
  });
});
