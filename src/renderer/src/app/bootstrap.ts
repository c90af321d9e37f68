/**
 * Wires a connection to the store: status changes, a fresh getState on every (re)connect (the
 * server may have restarted), and one event subscription that resumes where it left off.
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import type {InspectorState} from '../../../shared/protocol.js';
import type {InspectorStore} from '../store/InspectorStore.js';

/** Checks a getState reply (connection/protocolChecks.ts, loaded after the first paint). */
export type StateCheck = (value: unknown) => InspectorState | undefined;

export function bindStore(
  connection: InspectorConnection,
  store: InspectorStore,
  checkState: Promise<StateCheck>,
): () => void {
  const stopStatus = connection.onStatus(status => {
    store.setConnection(status);
    if (status.state === 'open') {
      void Promise.all([connection.command({type: 'getState'}), checkState]).then(
        ([reply, check]) => {
          const state = reply.ok ? check(reply.value) : undefined;
          if (state) {
            store.applyState(state);
          }
        },
      );
    }
  });
  const stopEvents = connection.subscribe(0, batch => store.applyBatch(batch));
  return () => {
    stopStatus();
    stopEvents();
  };
}
