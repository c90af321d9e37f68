/**
 * The engine's recording and the recordings folder behind the Recordings panel: records the run
 * (unless --no-record) from its first tool call on, applies retention when the recording starts
 * and as it grows, and answers the inspector's list / read / image / delete / search commands.
 * Recordings are addressed by id (the file name), checked against the folder; no path ever comes
 * from a UI.
 *
 * A server start with no tool call leaves no recording: the events before the first call (the
 * browser starting, clients connecting) wait in memory, bounded, and go into the file with that
 * call, so an idle start neither fills the folder nor counts against retention — and there is
 * nothing to clean up after a crash either.
 */
import fs from 'node:fs';
import path from 'node:path';
import {errorText} from '../../shared/values.js';
import type {EventEnvelope} from '../../shared/protocol.js';
import type {ReplyMap, UnreadRecording} from '../../shared/replies.js';
import {RECORDING_FORMAT, RECORDING_FORMAT_VERSION} from '../../shared/recordingFile.js';
import {userConfigDir} from '../config/paths.js';
import type {ServerConfig} from '../config/serverConfig.js';
import {mimeTypeOfImageFile} from './images.js';
import {applyRetention, DEFAULT_RETENTION, type RetentionLimits} from './retention.js';
import {storedSummary} from './scan.js';
import {searchRecordings} from './search.js';
import {configSecrets, headerFlags, SecretScrubber} from './secrets.js';
import {MAX_RECORDING_LINE_BYTES} from './lineReader.js';
import {
  listStoredRecordings,
  MAX_READ_RECORDING_BYTES,
  readRecordingImage,
  readStoredRecording,
  removeStoredRecording,
  tooLargeReason,
  setStoredRecordingStar,
} from './recordingFiles.js';
import {Recorder} from './Recorder.js';

/** Largest chunk one recordingRead answers (a longer line is sent whole, up to the longest read). */
export const READ_CHUNK_BYTES = 4 * 1024 * 1024;
/** Retention runs again after the recording grew by this much. */
const RETENTION_STEP_BYTES = 64 * 1024 * 1024;
/** A recording a UI reads (chunk by chunk, no handle held) is left by retention this long after. */
const READ_LEASE_MS = 60_000;
/** Events kept before the first tool call (the oldest go first, counted). */
export const MAX_EVENTS_BEFORE_FIRST_CALL = 5_000;

export interface RecordingOptions {
  config: ServerConfig;
  token: string;
  version: string;
  configDir?: string | undefined;
  env?: Record<string, string | undefined> | undefined;
  log: (line: string) => void;
  limits?: RetentionLimits;
  /** The recording this run replays (its path): named in the header, kept from retention. */
  replayOf?: string | undefined;
}

export function recordingsDirOf(options: RecordingOptions): string {
  const {recording} = options.config;
  return path.resolve(
    recording.dir ?? path.join(options.configDir ?? userConfigDir(options.env), 'sessions'),
  );
}

export class Recordings {
  readonly dir: string;
  /** Recording is on (--record, the default) and has not failed. */
  #enabled: boolean;
  #recorder: Recorder | undefined;
  readonly #startedAt = Date.now();
  readonly #limits: RetentionLimits;
  /** The events before the first tool call, and how many of them were left out. */
  #early: EventEnvelope[] = [];
  #earlyDropped = 0;
  /** Recordings being read or replayed (id → holders): retention leaves them. */
  readonly #kept = new Map<string, number>();
  /** Recordings read lately (id → the lease's timer): retention leaves them, delete does not. */
  readonly #reading = new Map<string, NodeJS.Timeout>();
  #removed = 0;
  #retainedAt = 0;

  constructor(private readonly options: RecordingOptions) {
    this.dir = recordingsDirOf(options);
    this.#limits = options.limits ?? DEFAULT_RETENTION;
    this.#enabled = options.config.recording.enabled;
    const source = options.replayOf;
    if (source !== undefined && this.#sameFolder(path.dirname(source))) {
      this.keep(path.basename(source));
    }
  }

  /** The recorder of this run; undefined until its first tool call (and with --no-record). */
  get recorder(): Recorder | undefined {
    return this.#recorder;
  }

  /** Whether this run is recorded (it may not have a file yet: no tool call so far). */
  get enabled(): boolean {
    return this.#enabled;
  }

  #sameFolder(dir: string): boolean {
    try {
      return fs.realpathSync(dir) === fs.realpathSync(this.dir);
    } catch {
      return false;
    }
  }

  /** Keeps a recording from retention while it is read or replayed; call the result to let go. */
  keep(id: string): () => void {
    this.#kept.set(id, (this.#kept.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const holders = (this.#kept.get(id) ?? 1) - 1;
      if (holders > 0) {
        this.#kept.set(id, holders);
      } else {
        this.#kept.delete(id);
      }
    };
  }

  #start(): Recorder | undefined {
    const {config, token, version, log, replayOf} = this.options;
    try {
      const recorder = new Recorder({
        dir: this.dir,
        header: {
          format: RECORDING_FORMAT,
          formatVersion: RECORDING_FORMAT_VERSION,
          appVersion: version,
          startedAt: this.#startedAt,
          flags: headerFlags(config),
          ...(replayOf === undefined ? {} : {replayOf: path.basename(replayOf)}),
        },
        scrubber: new SecretScrubber(configSecrets(config, token)),
        log,
        onFlushed: bytes => {
          if (bytes - this.#retainedAt >= RETENTION_STEP_BYTES) {
            this.#retainedAt = bytes;
            this.#retain(recorder.id);
          }
        },
      });
      this.#retain(recorder.id);
      return recorder;
    } catch (error) {
      log(
        `Recording is off: ${this.dir} is not writable (${errorText(error)}). Pass --recordDir to another folder, or --no-record.`,
      );
      return undefined;
    }
  }

  #retain(currentId: string): void {
    try {
      const kept = new Set([currentId, ...this.#kept.keys(), ...this.#reading.keys()]);
      this.#removed += applyRetention(this.dir, kept, this.#limits).length;
    } catch (error) {
      this.options.log(`Recording retention failed: ${errorText(error)}`);
    }
  }

  record(envelope: EventEnvelope): void {
    if (!this.#enabled) {
      return;
    }
    let recorder = this.#recorder;
    if (recorder === undefined) {
      if (envelope.event.type !== 'toolCallStarted') {
        this.#early.push(envelope);
        if (this.#early.length > MAX_EVENTS_BEFORE_FIRST_CALL) {
          this.#early.shift();
          this.#earlyDropped++;
        }
        return;
      }
      recorder = this.#start();
      if (recorder === undefined) {
        this.#enabled = false;
        this.#early = [];
        return;
      }
      this.#recorder = recorder;
      this.#writeEarly(recorder);
    }
    this.#write(recorder, envelope);
  }

  #writeEarly(recorder: Recorder): void {
    const early = this.#early;
    this.#early = [];
    if (this.#earlyDropped > 0 && early[0] !== undefined) {
      this.#write(recorder, {
        seq: early[0].seq,
        time: early[0].time,
        event: {
          type: 'eventOmitted',
          omittedType: 'events before the first tool call',
          reason: `${this.#earlyDropped} of the oldest were not kept`,
        },
      });
    }
    for (const envelope of early) {
      this.#write(recorder, envelope);
    }
  }

  #write(recorder: Recorder, envelope: EventEnvelope): void {
    recorder.record(envelope);
    const {event} = envelope;
    if (event.type === 'browserStatus' && event.status.version !== undefined) {
      recorder.setBrowserVersion(event.status.version);
    }
  }

  async list(): Promise<ReplyMap['recordingsList']> {
    this.#recorder?.flush();
    const stored = listStoredRecordings(this.dir);
    const recordings: ReplyMap['recordingsList']['recordings'] = [];
    const notListed: UnreadRecording[] = [];
    for (const recording of stored) {
      const recorder = recording.id === this.recorder?.id ? this.recorder : undefined;
      const current = recorder !== undefined;
      if (!current && recording.fileBytes > MAX_READ_RECORDING_BYTES) {
        const {id, bytes} = recording;
        notListed.push({id, bytes, reason: tooLargeReason(recording.fileBytes)});
        continue;
      }
      const counts = recorder ? recorder.counts() : await storedSummary(recording);
      if (counts === undefined) {
        continue;
      }
      recordings.push({
        id: recording.id,
        ...(counts.replayOf === undefined ? {} : {replayOf: counts.replayOf}),
        startedAt: counts.startedAt,
        durationMs: Math.max(0, (current ? Date.now() : counts.lastEventAt) - counts.startedAt),
        clients: counts.clients,
        calls: counts.calls,
        errors: counts.errors,
        bytes: recording.bytes,
        current,
        ...(counts.skippedLines === undefined ? {} : {skippedLines: counts.skippedLines}),
        starred: recording.starred,
      });
    }
    return {
      recording: this.#enabled && (this.#recorder === undefined || this.#recorder.open),
      retention: {
        maxAgeMs: this.#limits.maxAgeMs,
        maxBytes: this.#limits.maxBytes,
        maxRecordings: this.#limits.maxRecordings,
        totalBytes: stored.reduce((sum, recording) => sum + recording.bytes, 0),
        removed: this.#removed,
      },
      recordings,
      ...(notListed.length > 0 ? {notListed} : {}),
    };
  }

  /** A chunk of a recording's text from `offset`, ending at a line end. */
  read(id: string, offset = 0, maxBytes = READ_CHUNK_BYTES): ReplyMap['recordingRead'] {
    if (id === this.recorder?.id) {
      this.recorder.flush();
    }
    const chunk = readStoredRecording(this.dir, id, fd => readChunk(fd, offset, maxBytes));
    this.#leaseRead(id);
    return chunk;
  }

  /** Keeps a recording being read from retention until READ_LEASE_MS after its latest chunk. */
  #leaseRead(id: string): void {
    clearTimeout(this.#reading.get(id));
    const timer = setTimeout(() => this.#reading.delete(id), READ_LEASE_MS);
    timer.unref();
    this.#reading.set(id, timer);
  }

  #endLease(id: string): void {
    clearTimeout(this.#reading.get(id));
    this.#reading.delete(id);
  }

  image(id: string, file: string): ReplyMap['recordingImage'] {
    return {
      mimeType: mimeTypeOfImageFile(file),
      data: readRecordingImage(this.dir, id, file).toString('base64'),
    };
  }

  delete(id: string): ReplyMap['recordingDelete'] {
    if (id === this.recorder?.id) {
      throw new Error(
        'This is the recording being written now; it cannot be deleted while the server runs. Restart with --no-record to stop recording.',
      );
    }
    if (this.#kept.has(id)) {
      throw new Error('This recording is being replayed. Delete it once the replay has finished.');
    }
    // Checked like a read: a bad id or a missing recording is the command's error.
    readStoredRecording(this.dir, id, () => undefined);
    removeStoredRecording(this.dir, id);
    this.#endLease(id);
    return {id};
  }

  /** Stars a recording (retention never removes it) or takes the star off. */
  star(id: string, starred: boolean): ReplyMap['recordingStar'] {
    setStoredRecordingStar(this.dir, id, starred);
    return {id, starred};
  }

  search(query: string): Promise<ReplyMap['recordingsSearch']> {
    this.recorder?.flush();
    return searchRecordings(listStoredRecordings(this.dir), query);
  }

  close(): void {
    for (const id of [...this.#reading.keys()]) {
      this.#endLease(id);
    }
    this.recorder?.close();
  }
}

const LF = 0x0a;

function readAt(fd: number, start: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, start);
  return buffer.subarray(0, read);
}

/**
 * The end (LF) of the line that goes on at `from`, looked for in at most MAX_RECORDING_LINE_BYTES;
 * -1 if it does not end there (the next chunk goes on looking).
 */
function lineEndFrom(fd: number, from: number, size: number): number {
  for (let at = from; at < Math.min(size, from + MAX_RECORDING_LINE_BYTES); at += 1024 * 1024) {
    const found = readAt(fd, at, Math.min(1024 * 1024, size - at)).indexOf(LF);
    if (found >= 0) {
      return at + found;
    }
  }
  return -1;
}

type Chunk = ReplyMap['recordingRead'];

/**
 * Reads past a line longer than any recording's, from `from` (inside it): the chunk is empty and
 * ends where the line does, or MAX_RECORDING_LINE_BYTES further when it goes on (the next chunk
 * starts inside it and goes on reading past).
 */
function pastLongLine(fd: number, from: number, size: number): Chunk {
  const end = lineEndFrom(fd, from, size);
  const nextOffset = end >= 0 ? end + 1 : Math.min(size, from + MAX_RECORDING_LINE_BYTES);
  const ended = end >= 0 || nextOffset >= size;
  return {
    text: '',
    nextOffset,
    size,
    done: nextOffset >= size,
    ...(ended ? {skippedLines: 1} : {}),
  };
}

/**
 * A chunk of an open recording from `offset`, ending at a line end. Each call reads a bounded
 * amount: a file over MAX_READ_RECORDING_BYTES is refused, and a line over
 * MAX_RECORDING_LINE_BYTES is read past (counted), never held.
 */
function readChunk(fd: number, offset: number, maxBytes: number): Chunk {
  const size = fs.fstatSync(fd).size;
  if (size > MAX_READ_RECORDING_BYTES) {
    throw new Error(`This recording is not opened: ${tooLargeReason(size)}.`);
  }
  const start = Math.min(offset, size);
  if (start > 0 && start < size && readAt(fd, start - 1, 1)[0] !== LF) {
    // The previous chunk ended inside a line read past: on to its end.
    return pastLongLine(fd, start, size);
  }
  let length = Math.min(maxBytes, READ_CHUNK_BYTES, size - start);
  let buffer = readAt(fd, start, length);
  let end = buffer.lastIndexOf(LF);
  // One line longer than a chunk: read on to its end, up to the longest line read.
  while (end < 0 && start + length < size && length < MAX_RECORDING_LINE_BYTES) {
    length = Math.min(length * 2, size - start, MAX_RECORDING_LINE_BYTES);
    buffer = readAt(fd, start, length);
    end = buffer.lastIndexOf(LF);
  }
  if (end < 0 && start + length < size) {
    return pastLongLine(fd, start + length, size);
  }
  // At the end of the file the rest goes too (a torn last line is the reader's to skip).
  const used = end < 0 || start + length >= size ? length : end + 1;
  const nextOffset = start + used;
  return {
    text: buffer.subarray(0, used).toString('utf8'),
    nextOffset,
    size,
    done: nextOffset >= size,
  };
}
