/**
 * Wires a connection to the store: status changes, a fresh getState on every (re)connect (the
 * server may have restarted), and one event subscription that resumes where it left off.
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import {inspectorStateSchema} from '../../../shared/protocol.js';
import type {InspectorStore} from '../store/InspectorStore.js';

export function bindStore(connection: InspectorConnection, store: InspectorStore): () => void {
  const stopStatus = connection.onStatus(status => {
    store.setConnection(status);
    if (status.state === 'open') {
      void connection.command({type: 'getState'}).then(reply => {
        if (!reply.ok) {
          return;
        }
        const state = inspectorStateSchema.safeParse(reply.value);
        if (state.success) {
          store.applyState(state.data);
        } else {
          console.warn('The server sent a state this UI does not understand.', state.error.issues);
        }
      });
    }
  });
  const stopEvents = connection.subscribe(0, batch => store.applyBatch(batch));
  return () => {
    stopStatus();
    stopEvents();
  };
}
