/**
 * Records one server run as a recording (src/shared/recordingFile.ts): the header line at once,
 * then every inspector event, batched: lines collect in memory and are written together at most
 * FLUSH_INTERVAL_MS after the first of them, with one write() per batch and no fsync (the kernel
 * keeps written data across a kill -9 of this process). Every line passes the secret scrubber.
 *
 * The header is padded with spaces so it can be rewritten in place once the browser's version is
 * known (the browser starts lazily, after the header is on disk).
 */
import fs from 'node:fs';
import path from 'node:path';
import {errorCode, Folder, NOFOLLOW, sameFile} from '../files/folder.js';
import type {EventEnvelope} from '../../shared/protocol.js';
import {makeDirBounded} from '../config/pathFlags.js';
import {
  RECORDING_FILE_EXTENSION,
  recordingFileName,
  recordingLine,
  type RecordingHeader,
} from '../../shared/recordingFile.js';
import {imageExtension, recordableEnvelope} from './images.js';
import type {SecretScrubber} from './secrets.js';
import {SummaryBuilder, type SummaryCounts} from './summary.js';

export const FLUSH_INTERVAL_MS = 100;
/** A file this recorder creates: new (never an existing one), never through a link. */
const CREATE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW;
/** Room left in the header line for the browser version written later. */
const HEADER_SLACK = 160;

export interface RecorderOptions {
  dir: string;
  header: RecordingHeader;
  scrubber: SecretScrubber;
  log: (line: string) => void;
  /** Told after each flush how many bytes the recording has (retention checks). */
  onFlushed?: (bytes: number) => void;
}

/** The folder exists with mode 0700 (tightened if it was looser). */
export function ensurePrivateDir(dir: string): void {
  makeDirBounded(dir, 0o700);
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode !== 0o700) {
    fs.chmodSync(dir, 0o700);
  }
}

export function imagesDirOf(recordingFile: string): string {
  return `${recordingFile.slice(0, -RECORDING_FILE_EXTENSION.length)}.images`;
}

export class Recorder {
  readonly id: string;
  readonly file: string;
  readonly imagesDir: string;
  readonly summary: SummaryBuilder;
  #fd: number | undefined;
  #header: RecordingHeader;
  #headerLength: number;
  #pending: EventEnvelope[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** Length of the recording itself (images are counted apart). */
  #bytes: number;
  /** The images folder this recorder made, held open; null once making it failed. */
  #images: Folder | null | undefined;
  #imageBytes = 0;
  #failed = false;
  #lineFailed = false;

  constructor(private readonly options: RecorderOptions) {
    ensurePrivateDir(options.dir);
    let name = recordingFileName(options.header.startedAt, process.pid);
    for (let n = 2; fs.existsSync(path.join(options.dir, name)); n++) {
      name = recordingFileName(options.header.startedAt, process.pid).replace(
        RECORDING_FILE_EXTENSION,
        `-${n}${RECORDING_FILE_EXTENSION}`,
      );
    }
    this.id = name;
    this.file = path.join(options.dir, name);
    this.imagesDir = imagesDirOf(this.file);
    this.summary = new SummaryBuilder(options.header.startedAt, options.header.replayOf);
    this.#header = options.header;
    const line = this.#headerLine(options.header, HEADER_SLACK);
    this.#headerLength = line.length;
    this.#fd = Folder.with(options.dir, {follow: true}, folder =>
      fs.openSync(folder.entry(name), CREATE_NEW, 0o600),
    );
    fs.writeSync(this.#fd, line);
    this.#bytes = Buffer.byteLength(line);
  }

  #headerLine(header: RecordingHeader, slack: number): string {
    const json = this.options.scrubber.scrub(recordingLine(header).trimEnd());
    return `${json}${' '.repeat(slack)}\n`;
  }

  /** Bytes of the recording and its images so far. */
  get bytes(): number {
    return this.#bytes + this.#imageBytes;
  }

  /** Sets the browser version in the header line, in place, if it still fits. */
  setBrowserVersion(version: string): void {
    if (this.#fd === undefined || this.#header.browserVersion === version) {
      return;
    }
    const header = {...this.#header, browserVersion: version};
    const bare = this.options.scrubber.scrub(recordingLine(header).trimEnd());
    if (Buffer.byteLength(bare) + 1 > this.#headerLength) {
      return;
    }
    this.#header = header;
    const line = this.#headerLine(header, this.#headerLength - Buffer.byteLength(bare) - 1);
    fs.writeSync(this.#fd, line, 0);
  }

  record(envelope: EventEnvelope): void {
    if (this.#fd === undefined) {
      return;
    }
    this.summary.add(envelope);
    this.#pending.push(envelope);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.flush();
    }, FLUSH_INTERVAL_MS);
  }

  /** Writes what is pending now, as one write. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const fd = this.#fd;
    if (fd === undefined || this.#pending.length === 0) {
      return;
    }
    const batch = this.#pending;
    this.#pending = [];
    let text = '';
    for (const envelope of batch) {
      text += this.#line(envelope);
    }
    try {
      // Appends at the end: the header rewrite uses a position, which leaves the offset alone.
      this.#bytes += fs.writeSync(fd, text, this.#bytes);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.options.onFlushed?.(this.bytes);
  }

  /** One event's line; an event that cannot be written is left out (said once), never fatal. */
  #line(envelope: EventEnvelope): string {
    try {
      const line = JSON.stringify(recordableEnvelope(envelope, this.#writeImage));
      return `${this.options.scrubber.scrub(line)}\n`;
    } catch (error) {
      if (!this.#lineFailed) {
        this.#lineFailed = true;
        this.options.log(
          `The recorder left out an event (${envelope.event.type}) it could not write: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return '';
    }
  }

  /**
   * The images folder, made by this recorder and held open: a folder or link planted under its
   * name is never written into (then images are not kept).
   */
  #imagesFolder(): Folder | undefined {
    if (this.#images === undefined) {
      this.#images = null;
      const name = path.basename(this.imagesDir);
      this.#images = Folder.with(this.options.dir, {follow: true}, folder => {
        try {
          fs.mkdirSync(folder.entry(name), {mode: 0o700});
          const made = fs.lstatSync(folder.entry(name));
          const images = folder.child(name);
          if (sameFile(images.stat, made)) {
            return images;
          }
          images.close();
        } catch (error) {
          this.options.log(
            `Recording images are not kept: ${this.imagesDir} could not be made (${errorCode(error) ?? String(error)}).`,
          );
        }
        return null;
      });
    }
    return this.#images ?? undefined;
  }

  readonly #writeImage = (name: string, mimeType: string, data: string): string | undefined => {
    try {
      const images = this.#imagesFolder();
      if (images === undefined) {
        return undefined;
      }
      const file = `${name}.${imageExtension(mimeType)}`;
      const bytes = Buffer.from(data, 'base64');
      const fd = fs.openSync(images.entry(file), CREATE_NEW, 0o600);
      try {
        fs.writeFileSync(fd, bytes);
      } finally {
        fs.closeSync(fd);
      }
      this.#imageBytes += bytes.length;
      return file;
    } catch {
      return undefined;
    }
  };

  #fail(error: unknown): void {
    if (!this.#failed) {
      this.#failed = true;
      this.options.log(
        `Recording stopped: writing ${this.file} failed (${error instanceof Error ? error.message : String(error)}). Free disk space or pass --recordDir to another folder.`,
      );
    }
    this.close();
  }

  counts(): SummaryCounts {
    return this.summary.counts();
  }

  close(): void {
    if (this.#fd === undefined) {
      return;
    }
    if (!this.#failed) {
      this.flush();
    }
    const fd = this.#fd;
    this.#fd = undefined;
    this.#images?.close();
    try {
      fs.fsyncSync(fd);
    } catch {
      // Best effort: the data is written; a failed fsync must not stop shutdown.
    }
    fs.closeSync(fd);
  }

  get open(): boolean {
    return this.#fd !== undefined;
  }
}
