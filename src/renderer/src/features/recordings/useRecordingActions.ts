/**
 * The hook behind RecordingActions: sends replayRecording / exportRecording for one recording
 * and, while a replay runs, listens to the event stream for its progress. The Recordings panel (or
 * a call's detail pane, with the call's index) renders the component; this holds no panel state.
 */
import {useEffect, useReducer} from 'react';
import {useInspector, useRequest} from '../../app/InspectorContext.js';
import {
  INITIAL_RECORDING_ACTIONS,
  isReplaying,
  reduceRecordingActions,
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
  const {connection, store} = useInspector();
  const request = useRequest();
  const [state, dispatch] = useReducer(reduceRecordingActions, INITIAL_RECORDING_ACTIONS);
  const listening = isReplaying(state.replay);

  // A stream of its own while a replay runs, from the store's position: it sees every event of
  // the replay, whether or not the log keeps them.
  useEffect(() => {
    if (!listening) {
      return;
    }
    return connection.subscribe(store.getSnapshot().lastSeq + 1, batch => {
      for (const {event} of batch.events) {
        if (event.type === 'replayProgress' || event.type === 'replayFinished') {
          dispatch({type: 'replayEvent', event});
        }
      }
    });
  }, [connection, store, listening]);

  return {
    state,
    connected: store.getSnapshot().connection.state === 'open',
    replay: untilCall => {
      if (isReplaying(state.replay)) {
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
