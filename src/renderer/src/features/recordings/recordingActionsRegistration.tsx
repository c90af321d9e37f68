/**
 * Plugs replay and export (SessionActions) into the Sessions panel's slots: on each recorded
 * session, and on a call of an opened one ("Replay up to here"). A file opened from elsewhere has
 * no id on the server, so it gets no actions: replay and export read the server's copy.
 */
import {SessionActions} from './SessionActions.js';
import {registerSessionActions} from './SessionActionsSlot.js';

registerSessionActions({
  session: ({session}) =>
    session.id === undefined ? null : <SessionActions sessionId={session.id} compact />,
  call: ({session, call}) =>
    session.id === undefined || !call ? null : (
      <SessionActions sessionId={session.id} callIndex={call.ordinal + 1} />
    ),
});
