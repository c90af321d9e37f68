/**
 * The hook behind RecordingActions: sends replayRecording / exportRecording for one recording and
 * shows the replay's progress as the store keeps it from the event stream. The Recordings panel
 * (or the Log's call detail, through the recordedCall slot) renders the component.
 */
import {useMemo, useReducer} from 'react';
import {useRequest, useSnapshot} from '../../context/InspectorContext.js';
import {
  INITIAL_RECORDING_ACTIONS,
  isReplaying,
  reduceRecordingActions,
  replayState,
  requestedReplayId,
  type RecordingActionsState,
} from './recordingActionsModel.js';

export interface RecordingActionsModel {
  state: RecordingActionsState;
  connected: boolean;
  replay: (untilCall?: number) => void;
  exportTest: () => void;
  closePreview: () => void;
}

export function useRecordingActions(recordingId: string): RecordingActionsModel {
  const request = useRequest();
  const [requests, dispatch] = useReducer(reduceRecordingActions, INITIAL_RECORDING_ACTIONS);
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  // The store keeps every replay's progress from the event stream (events that arrived before the
  // answer named the replay too): this view only picks its own.
  const replays = useSnapshot(snapshot => snapshot.replays);
  const replayId = requestedReplayId(requests.replay);
  const progress = useMemo(
    () => (replayId === undefined ? undefined : replays.find(item => item.replayId === replayId)),
    [replays, replayId],
  );
  const replay = replayState(requests.replay, progress);

  return {
    state: {replay, preview: requests.preview},
    connected,
    replay: untilCall => {
      if (isReplaying(replay)) {
        return;
      }
      dispatch({type: 'replayRequested', ...(untilCall === undefined ? {} : {untilCall})});
      void request({
        type: 'replayRecording',
        recordingId,
        ...(untilCall === undefined ? {} : {untilCall}),
      }).then(result => dispatch({type: 'replayAnswered', result}));
    },
    exportTest: () => {
      dispatch({type: 'exportRequested'});
      void request({type: 'exportRecording', recordingId, format: 'playwright'}).then(result =>
        dispatch({type: 'exportAnswered', result}),
      );
    },
    closePreview: () => dispatch({type: 'previewClosed'}),
  };
}
