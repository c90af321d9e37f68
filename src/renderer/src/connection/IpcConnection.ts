/**
 * InspectorConnection over the desktop preload bridge (`window.inspectorBridge`), a port for the
 * same messages as the WebSocket's, checked the same way (ProtocolClient). IPC does not drop while
 * the window lives, so the status is open from the start and closed only by close(); there is
 * nothing to reconnect.
 */
import type {InspectorBridge} from '../../../shared/connection.js';
import type {ProtocolChecks} from './ProtocolClient.js';
import {ProtocolConnection} from './ProtocolConnection.js';

const CLOSED_MESSAGE = 'The inspector connection is closed.';

/** The checks, fetched on first use (main.tsx passes the copy it is already fetching). */
const loadChecks = (): Promise<ProtocolChecks> =>
  import('./protocolChecks.js').then(module => module.protocolChecks);

export class IpcConnection extends ProtocolConnection {
  readonly #stopMessages: () => void;

  constructor(
    bridge: InspectorBridge,
    checks: ProtocolChecks | Promise<ProtocolChecks> = loadChecks(),
  ) {
    super(
      {state: 'open'},
      message => {
        if (this.status.state === 'closed') {
          return false;
        }
        bridge.send(message);
        return true;
      },
      checks,
      'The inspector could not load its message checks; reload the window.',
    );
    this.#stopMessages = bridge.onMessage(message => this.client.receive(message));
  }

  protected unavailable(): string | undefined {
    return this.status.state === 'closed' ? CLOSED_MESSAGE : undefined;
  }

  close(): void {
    if (this.status.state === 'closed') {
      return;
    }
    // Still open while the client lets go, so main hears the unsubscribes.
    this.client.close(CLOSED_MESSAGE);
    this.#stopMessages();
    this.setStatus({state: 'closed'});
    this.forgetListeners();
  }
}
