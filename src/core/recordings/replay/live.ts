/**
 * Replay and export from the inspector UI: a recording (by id, from the recordings folder)
 * replayed into the live browser, one at a time, its progress published as events; or exported
 * as test text. The recording is read and checked before the command answers, so a bad id or an
 * unreadable file is the command's error, not a silent replay of nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type {ClientRef, ExportFormat} from '../../../shared/protocol.js';
import {
  parseRecordingText,
  RECORDING_FILE_EXTENSION,
  type ParsedRecording,
} from '../../../shared/recordingFile.js';
import {errorText} from '../../../shared/values.js';
import type {ReplayPages} from './args.js';
import type {InspectorHub} from '../../inspector/InspectorHub.js';
import type {Recordings} from '../Recordings.js';
import {EXPORT_EXTENSIONS, exportRecording} from '../export/exportRecording.js';
import {recordedCalls} from './calls.js';
import {
  MAX_READ_RECORDING_BYTES,
  readStoredRecording,
  RecordingNotFoundError,
  tooLargeReason,
} from '../recordingFiles.js';
import {
  replayRecordedCalls,
  summarise,
  type ReplayCallReport,
  type ReplaySummary,
  type ReplayTarget,
} from './replayRecording.js';

export interface LiveReplayDeps {
  hub: InspectorHub;
  /** The recordings folder (--recordDir, else <config dir>/sessions) and what retention keeps. */
  recordings: Pick<Recordings, 'dir' | 'keep'>;
  /** The client pages a replay runs with (its own selection), and its release. */
  pagesOf(client: ClientRef): ReplayPages;
  releasePages(client: ClientRef): void;
  /** Calls the listener when a page is added (whoever opened it); returns the unsubscribe. */
  onPageAdded(listener: () => void): () => void;
  /** Runs a tool through the engine's pipeline as `client`. */
  runTool(
    client: ClientRef,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{text: string; isError: boolean}>;
  elementPaths: ReplayTarget['elementPaths'];
  ensureBrowser: ReplayTarget['ensureBrowser'];
  version: string;
}

/** A call number past the recording's last call is a mistake, for replay and export alike. */
function checkUntil(untilCall: number | undefined, calls: number, what: string): void {
  if (untilCall !== undefined && untilCall > calls) {
    throw new Error(
      `The recording has ${calls} call(s); ${what} up to a call between 1 and ${calls}.`,
    );
  }
}

/** A recording over the size the inspector reads (replay and export take it from the command line). */
class RecordingTooLargeError extends Error {
  override name = 'RecordingTooLargeError';
}

export class LiveReplays {
  #running: {replayId: string; recordingId: string; done: number; total: number} | undefined;
  readonly #abort = new AbortController();

  constructor(private readonly deps: LiveReplayDeps) {}

  /**
   * Reads a recording by id: its file name in the recordings folder, as the Recordings panel lists it
   * (checked like every recording command: a plain file in that folder, no path).
   */
  read(recordingId: string): ParsedRecording {
    let text: string;
    try {
      text = readStoredRecording(this.deps.recordings.dir, recordingId, fd => {
        const size = fs.fstatSync(fd).size;
        if (size > MAX_READ_RECORDING_BYTES) {
          throw new RecordingTooLargeError(`Recording ${recordingId} is ${tooLargeReason(size)}.`);
        }
        return fs.readFileSync(fd, 'utf8');
      });
    } catch (error) {
      if (error instanceof RecordingNotFoundError || error instanceof RecordingTooLargeError) {
        throw error;
      }
      throw new Error(
        `Recording ${recordingId} cannot be read (${errorText(error)}). It may have been deleted; refresh the Recordings panel.`,
        {cause: error},
      );
    }
    return parseRecordingText(text);
  }

  /** What a replay runs its calls on: the engine's pipeline as `client`, its pages and tools. */
  targetFor(client: ClientRef): ReplayTarget {
    return {
      runTool: (tool, args) => this.deps.runTool(client, tool, args),
      pages: this.deps.pagesOf(client),
      elementPaths: this.deps.elementPaths,
      ensureBrowser: this.deps.ensureBrowser,
      onPageAdded: listener => this.deps.onPageAdded(listener),
    };
  }

  /** Starts a replay into the live browser; answers at once, progress follows as events. */
  start(recordingId: string, untilCall: number | undefined): {replayId: string; total: number} {
    const running = this.#running;
    if (running) {
      throw new Error(
        `A replay of recording ${running.recordingId} is running (${running.done} of ${running.total} calls). Wait for it to finish.`,
      );
    }
    const recorded = recordedCalls(this.read(recordingId).events);
    checkUntil(untilCall, recorded.calls.length, 'replay');
    const total = untilCall ?? recorded.calls.length;
    const replayId = crypto.randomUUID();
    const state = {replayId, recordingId, done: 0, total};
    this.#running = state;
    const client: ClientRef = {
      id: `replay-${replayId}`,
      name: 'Replay',
      version: this.deps.version,
      transport: 'inspector',
    };
    const reports: ReplayCallReport[] = [];
    // Retention leaves the recording alone while it is replayed.
    const release = this.deps.recordings.keep(recordingId);
    const finish = (summary: ReplaySummary, error?: string): void => {
      release();
      this.#running = undefined;
      this.deps.releasePages(client);
      this.deps.hub.publish({
        type: 'replayFinished',
        replayId,
        recordingId,
        summary,
        ...(error === undefined ? {} : {error}),
      });
    };
    replayRecordedCalls(recorded, this.targetFor(client), {
      ...(untilCall === undefined ? {} : {untilCall}),
      signal: this.#abort.signal,
      onCall: report => {
        reports.push(report);
        state.done = reports.length;
        this.deps.hub.publish({
          type: 'replayProgress',
          replayId,
          recordingId,
          total,
          call: report,
        });
      },
    }).then(
      result => finish(result.summary),
      (error: unknown) => finish(summarise(reports), errorText(error)),
    );
    return {replayId, total};
  }

  exportText(
    recordingId: string,
    format: ExportFormat,
    untilCall: number | undefined,
  ): {text: string; fileName: string; format: ExportFormat} {
    const recording = this.read(recordingId);
    checkUntil(untilCall, recordedCalls(recording.events).calls.length, 'export');
    const text = exportRecording(recording, format, untilCall === undefined ? {} : {untilCall});
    const base = recordingId.endsWith(RECORDING_FILE_EXTENSION)
      ? recordingId.slice(0, -RECORDING_FILE_EXTENSION.length)
      : recordingId;
    return {text, fileName: `${base}${EXPORT_EXTENSIONS[format]}`, format};
  }

  /** Stops a running replay after its current call (the engine is stopping). */
  stop(): void {
    this.#abort.abort();
  }
}
