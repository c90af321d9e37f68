/**
 * Wires a connection to the store: status changes, a fresh getState on every (re)connect (the
 * server may have restarted), and one event subscription that resumes where it left off.
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import type {InspectorStore} from '../store/InspectorStore.js';

export function bindStore(connection: InspectorConnection, store: InspectorStore): () => void {
  const stopStatus = connection.onStatus(status => {
    store.setConnection(status);
    if (status.state === 'open') {
      // The connection checked the reply against the state schema; a misfit is an error here.
      void connection.command({type: 'getState'}).then(reply => {
        if (reply.ok) {
          store.applyState(reply.value);
        }
      });
      // Held calls are not part of the state: their queue comes with its own command, and the
      // stream's hold events apply on top of its answer.
      store.expectHold();
      void connection.command({type: 'holdGetState'}).then(reply => {
        if (reply.ok) {
          store.applyHold(reply.value);
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
