/**
 * The engine's recording and the recordings folder behind the Recordings panel: starts the
 * recorder (unless --no-record), applies retention at start and as the recording grows, and answers
 * the inspector's list / read / image / delete / search commands. Recordings are addressed by id (the
 * file name), checked against the folder; no path ever comes from a UI.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {EventEnvelope} from '../../shared/protocol.js';
import type {ReplyMap} from '../../shared/replies.js';
import {RECORDING_FORMAT, RECORDING_FORMAT_VERSION} from '../../shared/recordingFile.js';
import {userConfigDir} from '../config/paths.js';
import type {ServerConfig} from '../config/serverConfig.js';
import {mimeTypeOfImageFile} from './images.js';
import {applyRetention, DEFAULT_RETENTION, type RetentionLimits} from './retention.js';
import {storedSummary} from './scan.js';
import {searchRecordings} from './search.js';
import {configSecrets, headerFlags, SecretScrubber} from './secrets.js';
import {
  listStoredRecordings,
  readRecordingImage,
  readStoredRecording,
  removeStoredRecording,
} from './recordingFiles.js';
import {Recorder} from './Recorder.js';

/** Largest chunk one recordingRead answers (a longer line is still sent whole). */
export const READ_CHUNK_BYTES = 4 * 1024 * 1024;
/** Retention runs again after the recording grew by this much. */
const RETENTION_STEP_BYTES = 64 * 1024 * 1024;

export interface RecordingOptions {
  config: ServerConfig;
  token: string;
  version: string;
  configDir?: string | undefined;
  env?: Record<string, string | undefined> | undefined;
  log: (line: string) => void;
  limits?: RetentionLimits;
}

export function recordingsDirOf(options: RecordingOptions): string {
  const {recording} = options.config;
  return path.resolve(
    recording.dir ?? path.join(options.configDir ?? userConfigDir(options.env), 'sessions'),
  );
}

export class Recordings {
  readonly dir: string;
  readonly recorder: Recorder | undefined;
  readonly #limits: RetentionLimits;
  #removed = 0;
  #retainedAt = 0;

  constructor(private readonly options: RecordingOptions) {
    this.dir = recordingsDirOf(options);
    this.#limits = options.limits ?? DEFAULT_RETENTION;
    this.recorder = options.config.recording.enabled ? this.#start() : undefined;
  }

  #start(): Recorder | undefined {
    const {config, token, version, log} = this.options;
    try {
      const recorder = new Recorder({
        dir: this.dir,
        header: {
          format: RECORDING_FORMAT,
          formatVersion: RECORDING_FORMAT_VERSION,
          appVersion: version,
          startedAt: Date.now(),
          flags: headerFlags(config),
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
        `Recording is off: ${this.dir} is not writable (${error instanceof Error ? error.message : String(error)}). Pass --recordDir to another folder, or --no-record.`,
      );
      return undefined;
    }
  }

  #retain(currentId: string): void {
    try {
      this.#removed += applyRetention(this.dir, currentId, this.#limits).length;
    } catch (error) {
      this.options.log(
        `Recording retention failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  record(envelope: EventEnvelope): void {
    const recorder = this.recorder;
    if (recorder === undefined) {
      return;
    }
    recorder.record(envelope);
    const {event} = envelope;
    if (event.type === 'browserStatus' && event.status.version !== undefined) {
      recorder.setBrowserVersion(event.status.version);
    }
  }

  async list(): Promise<ReplyMap['recordingsList']> {
    this.recorder?.flush();
    const stored = listStoredRecordings(this.dir);
    const recordings: ReplyMap['recordingsList']['recordings'] = [];
    for (const recording of stored) {
      const recorder = recording.id === this.recorder?.id ? this.recorder : undefined;
      const current = recorder !== undefined;
      const counts = recorder ? recorder.counts() : await storedSummary(recording);
      if (counts === undefined) {
        continue;
      }
      recordings.push({
        id: recording.id,
        startedAt: counts.startedAt,
        durationMs: Math.max(0, (current ? Date.now() : counts.lastEventAt) - counts.startedAt),
        clients: counts.clients,
        calls: counts.calls,
        errors: counts.errors,
        bytes: recording.bytes,
        current,
      });
    }
    return {
      recording: this.recorder?.open === true,
      retention: {
        maxRecordings: this.#limits.maxRecordings,
        maxBytes: this.#limits.maxBytes,
        totalBytes: stored.reduce((sum, recording) => sum + recording.bytes, 0),
        removed: this.#removed,
      },
      recordings,
    };
  }

  /** A chunk of a recording's text from `offset`, ending at a line end. */
  read(id: string, offset = 0, maxBytes = READ_CHUNK_BYTES): ReplyMap['recordingRead'] {
    if (id === this.recorder?.id) {
      this.recorder.flush();
    }
    return readStoredRecording(this.dir, id, fd => readChunk(fd, offset, maxBytes));
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
    // Checked like a read: a bad id or a missing recording is the command's error.
    readStoredRecording(this.dir, id, () => undefined);
    removeStoredRecording(this.dir, id);
    return {id};
  }

  search(query: string): Promise<ReplyMap['recordingsSearch']> {
    this.recorder?.flush();
    return searchRecordings(listStoredRecordings(this.dir), query);
  }

  close(): void {
    this.recorder?.close();
  }
}

/** A chunk of an open recording from `offset`, ending at a line end. */
function readChunk(fd: number, offset: number, maxBytes: number): ReplyMap['recordingRead'] {
  const size = fs.fstatSync(fd).size;
  const start = Math.min(offset, size);
  let length = Math.min(maxBytes, READ_CHUNK_BYTES, size - start);
  let buffer = Buffer.alloc(length);
  fs.readSync(fd, buffer, 0, length, start);
  let end = buffer.lastIndexOf(0x0a);
  // One line longer than a chunk: read on to its end.
  while (end < 0 && start + length < size) {
    length = Math.min(length * 2, size - start);
    buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, start);
    end = buffer.lastIndexOf(0x0a);
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
