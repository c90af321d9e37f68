/**
 * InspectorConnection over the desktop preload bridge (`window.inspectorBridge`), a port for the
 * same messages as the WebSocket's, checked the same way (ProtocolClient). IPC does not drop while
 * the window lives, so the status is open from the start and closed only by close(); there is
 * nothing to reconnect.
 */
import type {
  ConnectionStatus,
  InspectorBridge,
  InspectorConnection,
} from '../../../shared/connection.js';
import type {EventBatch, InspectorCommand, LiveFrame} from '../../../shared/protocol.js';
import type {CommandResult} from '../../../shared/replies.js';
import {ProtocolClient, type ProtocolChecks} from './ProtocolClient.js';

const CLOSED_MESSAGE = 'The inspector connection is closed.';

/** The checks, fetched on first use (main.tsx passes the copy it is already fetching). */
const loadChecks = (): Promise<ProtocolChecks> =>
  import('./protocolChecks.js').then(module => module.protocolChecks);

export class IpcConnection implements InspectorConnection {
  readonly #client: ProtocolClient;
  readonly #stopMessages: () => void;
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();
  #status: ConnectionStatus = {state: 'open'};

  constructor(
    bridge: InspectorBridge,
    checks: ProtocolChecks | Promise<ProtocolChecks> = loadChecks(),
  ) {
    this.#client = new ProtocolClient(
      message => {
        if (this.#status.state === 'closed') {
          return false;
        }
        bridge.send(message);
        return true;
      },
      checks,
      (error: unknown) => {
        console.error('The inspector could not load its message checks; reload the window.', error);
        this.close();
      },
    );
    this.#stopMessages = bridge.onMessage(message => this.#client.receive(message));
  }

  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
    return this.#client.subscribe(fromSeq, onBatch);
  }

  command<C extends InspectorCommand>(command: C): Promise<CommandResult<C['type']>> {
    if (this.#status.state === 'closed') {
      return Promise.resolve({ok: false, error: CLOSED_MESSAGE});
    }
    return this.#client.command(command);
  }

  onFrame(listener: (frame: LiveFrame) => void): () => void {
    return this.#client.onFrame(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    listener(this.#status);
    return () => this.#statusListeners.delete(listener);
  }

  close(): void {
    if (this.#status.state === 'closed') {
      return;
    }
    // Still open while the client lets go, so main hears the unsubscribes.
    this.#client.close(CLOSED_MESSAGE);
    this.#stopMessages();
    this.#status = {state: 'closed'};
    for (const listener of [...this.#statusListeners]) {
      listener(this.#status);
    }
    this.#statusListeners.clear();
  }
}
