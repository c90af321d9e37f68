/**
 * Wires a connection to the store: status changes, a fresh getState on every (re)connect (the
 * server may have restarted), one event subscription that resumes where it left off, panels that
 * could not load while the server was away loaded again, and the desktop shell's requests to show
 * a panel.
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import type {InspectorStore} from '../store/InspectorStore.js';
import type {UiStore} from '../store/UiStore.js';
import {retryFailedLoads} from '../ui/lazyComponent.js';

export function bindStore(
  connection: InspectorConnection,
  store: InspectorStore,
  ui: UiStore,
): () => void {
  const stopStatus = connection.onStatus(status => {
    store.setConnection(status);
    if (status.state === 'open') {
      retryFailedLoads();
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
  const stopShow = connection.onShow(panel => ui.openPanel(panel));
  return () => {
    stopStatus();
    stopEvents();
    stopShow();
  };
}
