/**
 * What the WebSocket and the IPC connection share: the InspectorConnection interface served by one
 * ProtocolClient, and the connection status with its listeners (a new listener hears the current
 * status at once). A transport sends messages, feeds what it receives to `client.receive`, sets
 * the status, and says when commands cannot go.
 */
import type {ConnectionStatus, InspectorConnection} from '../../../shared/connection.js';
import type {EventBatch, InspectorCommand, LiveFrame} from '../../../shared/protocol.js';
import type {CommandResult} from '../../../shared/replies.js';
import type {ShowMessage} from '../../../shared/wire.js';
import {ProtocolClient, type ProtocolChecks, type SendMessage} from './ProtocolClient.js';

export abstract class ProtocolConnection implements InspectorConnection {
  protected readonly client: ProtocolClient;
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();
  #status: ConnectionStatus;

  constructor(
    status: ConnectionStatus,
    send: SendMessage,
    checks: ProtocolChecks | Promise<ProtocolChecks>,
    checksFailed: string,
  ) {
    this.#status = status;
    this.client = new ProtocolClient(send, checks, (error: unknown) => {
      console.error(checksFailed, error);
      this.close();
    });
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /** Why commands cannot be sent now; undefined while they can. */
  protected abstract unavailable(): string | undefined;

  abstract close(): void;

  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
    return this.client.subscribe(fromSeq, onBatch);
  }

  command<C extends InspectorCommand>(command: C): Promise<CommandResult<C['type']>> {
    const unavailable = this.unavailable();
    return unavailable === undefined
      ? this.client.command(command)
      : Promise.resolve({ok: false, error: unavailable});
  }

  onFrame(listener: (frame: LiveFrame) => void): () => void {
    return this.client.onFrame(listener);
  }

  onShow(listener: (panel: ShowMessage['panel']) => void): () => void {
    return this.client.onShow(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    listener(this.#status);
    return () => this.#statusListeners.delete(listener);
  }

  protected setStatus(status: ConnectionStatus): void {
    this.#status = status;
    for (const listener of [...this.#statusListeners]) {
      listener(status);
    }
  }

  /** Forgets every status listener (the connection is closed for good). */
  protected forgetListeners(): void {
    this.#statusListeners.clear();
  }
}
