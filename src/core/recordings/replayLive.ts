/**
 * Replay and export from the inspector UI: a recording (by id, from the recordings folder)
 * replayed into the live browser, one at a time, its progress published as events; or exported
 * as test text. The recording is read and checked before the command answers, so a bad id or an
 * unreadable file is the command's error, not a silent replay of nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type {ClientRef, ExportFormat} from '../../shared/protocol.js';
import {
  parseRecordingText,
  RECORDING_FILE_EXTENSION,
  type ParsedRecording,
} from '../../shared/recordingFile.js';
import {errorText} from '../../shared/values.js';
import type {ReplayPages} from './replayArgs.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import {EXPORT_EXTENSIONS, exportRecording} from './exportRecording.js';
import {recordedCalls} from './replayCalls.js';
import {readStoredRecording, RecordingNotFoundError} from './recordingFiles.js';
import {
  replayRecordedCalls,
  summarise,
  type ReplayCallReport,
  type ReplayTarget,
} from './replayRecording.js';

export interface LiveReplayDeps {
  hub: InspectorHub;
  /** The view of the pages a replay client runs with (its own selection), and its release. */
  pagesOf(client: ClientRef): ReplayPages;
  releasePages(client: ClientRef): void;
  /** Where recordings are (the recorder's folder). */
  recordingsDir: () => string;
  /** Runs a tool through the engine's pipeline as `client`. */
  runTool(
    client: ClientRef,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{text: string; isError: boolean}>;
  elementPaths: ReplayTarget['elementPaths'];
  version: string;
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
      text = readStoredRecording(this.deps.recordingsDir(), recordingId, fd =>
        fs.readFileSync(fd, 'utf8'),
      );
    } catch (error) {
      if (error instanceof RecordingNotFoundError) {
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
    if (untilCall !== undefined && untilCall > recorded.calls.length) {
      throw new Error(
        `The recording has ${recorded.calls.length} call(s); replay up to a call between 1 and ${recorded.calls.length}.`,
      );
    }
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
    const finish = (error?: string): void => {
      this.#running = undefined;
      this.deps.releasePages(client);
      this.deps.hub.publish({
        type: 'replayFinished',
        replayId,
        recordingId,
        summary: summarise(reports),
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
      () => finish(),
      (error: unknown) => finish(errorText(error)),
    );
    return {replayId, total};
  }

  exportText(
    recordingId: string,
    format: ExportFormat,
    untilCall: number | undefined,
  ): {text: string; fileName: string; format: ExportFormat} {
    const recording = this.read(recordingId);
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
