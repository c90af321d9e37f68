/**
 * The panel model of a recording's replay and export actions (features/recordings).
 *
 * Tests: src/renderer/src/features/recordings/recordingActionsModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  INITIAL_RECORDING_ACTIONS,
  isReplaying,
  reduceRecordingActions,
  replayHeadline,
  replayState,
  requestedReplayId,
  type RecordingActionsAction,
  type RecordingActionsRequests,
} from '../../src/renderer/src/features/recordings/recordingActionsModel.js';
import type {ReplayProgress} from '../../src/renderer/src/store/replays.js';
import type {ReplayCallReport} from '../../src/shared/protocol.js';

const call = (index: number, outcome: ReplayCallReport['outcome']): ReplayCallReport => ({
  index,
  tool: 'click',
  client: 'agent',
  outcome,
  recordedStatus: 'ok',
  replayedStatus: outcome === 'failed' ? 'not run' : 'ok',
  replayMs: 10,
  recordedMs: 9,
});

function run(actions: RecordingActionsAction[]): RecordingActionsRequests {
  return actions.reduce(reduceRecordingActions, INITIAL_RECORDING_ACTIONS);
}

const progressOf = (calls: ReplayCallReport[], finished = false): ReplayProgress => ({
  replayId: 'r1',
  recordingId: 's',
  total: 3,
  calls,
  finished,
  ...(finished
    ? {summary: {total: 2, same: 1, different: 0, failed: 1, recordedMs: 18, replayMs: 20}}
    : {}),
});

describe('recording actions', () => {
  it('follows its replay from request to summary through the progress the store keeps', () => {
    const starting = run([{type: 'replayRequested', untilCall: 3}]);
    expect(replayState(starting.replay, undefined)).toEqual({status: 'starting', untilCall: 3});
    expect(isReplaying(replayState(starting.replay, undefined))).toBe(true);
    const started = reduceRecordingActions(starting, {
      type: 'replayAnswered',
      result: {ok: true, value: {replayId: 'r1', total: 3}},
    });
    expect(requestedReplayId(started.replay)).toBe('r1');
    // Before the first progress event: the total the answer named.
    expect(replayHeadline(replayState(started.replay, undefined))).toBe('Replaying: 0 of 3 calls');
    const running = replayState(started.replay, progressOf([call(1, 'same'), call(2, 'failed')]));
    expect(running.status).toBe('running');
    expect(isReplaying(running)).toBe(true);
    expect(replayHeadline(running)).toBe('Replaying: 2 of 3 calls');
    const done = replayState(
      started.replay,
      progressOf([call(1, 'same'), call(2, 'failed')], true),
    );
    expect(done.status).toBe('done');
    expect(isReplaying(done)).toBe(false);
    expect(replayHeadline(done)).toBe('Replayed 2 call(s): 1 same, 0 different, 1 failed.');
  });

  it('shows why a replay could not start', () => {
    const state = run([
      {type: 'replayRequested'},
      {type: 'replayAnswered', result: {ok: false, error: 'A replay is running.'}},
    ]);
    expect(requestedReplayId(state.replay)).toBeUndefined();
    const shown = replayState(state.replay, undefined);
    expect(shown).toEqual({status: 'error', error: 'A replay is running.'});
    expect(isReplaying(shown)).toBe(false);
  });

  it('opens, fills and closes the export preview', () => {
    const loading = run([{type: 'exportRequested'}]);
    expect(loading.preview).toEqual({status: 'loading'});
    const ready = reduceRecordingActions(loading, {
      type: 'exportAnswered',
      result: {ok: true, value: {text: 'test()', fileName: 's.spec.ts', format: 'playwright'}},
    });
    expect(ready.preview).toEqual({
      status: 'ready',
      text: 'test()',
      fileName: 's.spec.ts',
      format: 'playwright',
    });
    expect(reduceRecordingActions(ready, {type: 'previewClosed'}).preview).toEqual({
      status: 'closed',
    });
  });
});
