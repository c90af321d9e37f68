/**
 * Plugs replay and export (RecordingActions) into the Recordings panel's slots: on each
 * recording, and on a call of an opened one ("Replay up to here"). A file opened from elsewhere has
 * no id on the server, so it gets no actions: replay and export read the server's copy.
 */
import {RecordingActions} from './RecordingActions.js';
import {registerRecordingActions} from './RecordingActionsSlot.js';

registerRecordingActions({
  recording: ({recording}) =>
    recording.id === undefined ? null : <RecordingActions recordingId={recording.id} compact />,
  call: ({recording, call}) =>
    recording.id === undefined || !call ? null : (
      <RecordingActions recordingId={recording.id} callIndex={call.ordinal + 1} />
    ),
});
