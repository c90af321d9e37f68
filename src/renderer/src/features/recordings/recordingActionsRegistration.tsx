/**
 * Plugs replay and export (RecordingActions) into the Sessions panel's slots: on each recorded
 * session, and on a call of an opened one ("Replay up to here"). A file opened from elsewhere has
 * no id on the server, so it gets no actions: replay and export read the server's copy.
 */
import {RecordingActions} from './RecordingActions.js';
import {registerRecordingActions} from './RecordingActionsSlot.js';

registerRecordingActions({
  session: ({session}) =>
    session.id === undefined ? null : <RecordingActions sessionId={session.id} compact />,
  call: ({session, call}) =>
    session.id === undefined || !call ? null : (
      <RecordingActions sessionId={session.id} callIndex={call.ordinal + 1} />
    ),
});
