/**
 * InspectorConnection over the desktop preload bridge (`window.inspectorBridge`). IPC does not
 * drop while the window lives, so the status is open from the start and closed only by close();
 * there is nothing to reconnect, so a subscription simply runs until it is stopped.
 */
import type {
  ConnectionStatus,
  InspectorBridge,
  InspectorConnection,
} from '../../../shared/connection.js';
import type {
  CommandReply,
  EventBatch,
  InspectorCommand,
  LiveFrame,
} from '../../../shared/protocol.js';

const CLOSED_REPLY: CommandReply = {ok: false, error: 'The inspector connection is closed.'};

export class IpcConnection implements InspectorConnection {
  readonly #stops = new Set<() => void>();
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();
  #status: ConnectionStatus = {state: 'open'};

  constructor(private readonly bridge: InspectorBridge) {}

  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
    return this.#track(() => this.bridge.subscribe(fromSeq, onBatch));
  }

  async command(command: InspectorCommand): Promise<CommandReply> {
    if (this.#status.state === 'closed') {
      return CLOSED_REPLY;
    }
    try {
      return await this.bridge.command(command);
    } catch (error) {
      return {ok: false, error: error instanceof Error ? error.message : String(error)};
    }
  }

  onFrame(listener: (frame: LiveFrame) => void): () => void {
    return this.#track(() => this.bridge.onFrame(listener));
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
    for (const stop of [...this.#stops]) {
      stop();
    }
    this.#stops.clear();
    this.#status = {state: 'closed'};
    for (const listener of [...this.#statusListeners]) {
      listener(this.#status);
    }
    this.#statusListeners.clear();
  }

  /** Starts something on the bridge unless closed, and stops it on close() or when asked. */
  #track(start: () => () => void): () => void {
    if (this.#status.state === 'closed') {
      return () => undefined;
    }
    const stopOnBridge = start();
    let stopped = false;
    const stop = (): void => {
      if (stopped) {
        return;
      }
      stopped = true;
      this.#stops.delete(stop);
      stopOnBridge();
    };
    this.#stops.add(stop);
    return stop;
  }
}
