/** The view model of a recording's replay and export actions (features/recordings). */
import {describe, expect, it} from 'vitest';
import {
  INITIAL_RECORDING_ACTIONS,
  isReplaying,
  reduceRecordingActions,
  replayHeadline,
  type RecordingActionsAction,
} from '../../src/renderer/src/features/recordings/recordingActionsModel.js';
import type {ReplayCallReportView} from '../../src/shared/protocol.js';

const call = (index: number, outcome: ReplayCallReportView['outcome']): ReplayCallReportView => ({
  index,
  tool: 'click',
  client: 'agent',
  outcome,
  recordedStatus: 'ok',
  replayedStatus: outcome === 'failed' ? 'not run' : 'ok',
  replayMs: 10,
  recordedMs: 9,
});

const progress = (replayId: string, index: number): RecordingActionsAction => ({
  type: 'replayEvent',
  event: {type: 'replayProgress', replayId, recordingId: 's', total: 3, call: call(index, 'same')},
});

function run(actions: RecordingActionsAction[]): typeof INITIAL_RECORDING_ACTIONS {
  return actions.reduce(reduceRecordingActions, INITIAL_RECORDING_ACTIONS);
}

describe('recording actions', () => {
  it('follows one replay from request to summary, ignoring other replays', () => {
    const state = run([
      {type: 'replayRequested', untilCall: 3},
      {type: 'replayAnswered', result: {ok: true, value: {replayId: 'r1', total: 3}}},
      progress('r1', 1),
      progress('other', 1),
      progress('r1', 2),
    ]);
    expect(state.replay.status).toBe('running');
    expect(isReplaying(state.replay)).toBe(true);
    expect(replayHeadline(state.replay)).toBe('Replaying: 2 of 3 calls');
    const done = reduceRecordingActions(state, {
      type: 'replayEvent',
      event: {
        type: 'replayFinished',
        replayId: 'r1',
        recordingId: 's',
        summary: {total: 2, same: 1, different: 0, failed: 1, recordedMs: 18, replayMs: 20},
      },
    });
    expect(done.replay.status).toBe('done');
    expect(isReplaying(done.replay)).toBe(false);
    expect(replayHeadline(done.replay)).toBe('Replayed 2 call(s): 1 same, 0 different, 1 failed.');
  });

  it('keeps progress that arrives before the command answered', () => {
    const state = run([
      {type: 'replayRequested'},
      progress('r1', 1),
      {type: 'replayAnswered', result: {ok: true, value: {replayId: 'r1', total: 3}}},
      progress('r1', 2),
    ]);
    expect(state.replay.status === 'running' && state.replay.calls.map(c => c.index)).toEqual([
      1, 2,
    ]);
  });

  it('shows why a replay could not start', () => {
    const state = run([
      {type: 'replayRequested'},
      {type: 'replayAnswered', result: {ok: false, error: 'A replay is running.'}},
    ]);
    expect(state.replay).toEqual({status: 'error', error: 'A replay is running.'});
    expect(isReplaying(state.replay)).toBe(false);
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
