/**
 * MCP progress for a tool call whose request carried a `progressToken`: a heartbeat at least every
 * HEARTBEAT_MS while the call runs (waiting for a lock, held for approval, tracing, loading…), so a
 * client that resets its timeout on progress keeps waiting, and a short status line a handler can
 * set for what it is doing. Without a token nothing is sent, and nothing is scheduled.
 */
import type {ServerNotification} from '@modelcontextprotocol/sdk/types.js';

/** Well under the 5 s the MCP clients that reset their timeouts on progress expect. */
export const HEARTBEAT_MS = 4_000;

export type ProgressToken = string | number;

export type SendNotification = (notification: ServerNotification) => Promise<void>;

export class CallProgress {
  #count = 0;
  #status: string;
  #timer: NodeJS.Timeout | undefined;
  #lastSentAt = 0;
  readonly #startedAt = Date.now();

  constructor(
    private readonly token: ProgressToken | undefined,
    private readonly send: SendNotification | undefined,
    tool: string,
  ) {
    this.#status = `${tool} is running`;
  }

  /** Whether the client asked for progress at all. */
  get wanted(): boolean {
    return this.token !== undefined && this.send !== undefined;
  }

  /** Starts the heartbeat; returns the function that stops it. */
  start(intervalMs = HEARTBEAT_MS): () => void {
    if (!this.wanted || this.#timer) {
      return () => this.stop();
    }
    this.#timer = setInterval(() => {
      if (Date.now() - this.#lastSentAt >= intervalMs - 50) {
        this.#emit();
      }
    }, intervalMs);
    this.#timer.unref();
    return () => this.stop();
  }

  /** Sets what the call is doing now and tells the client at once. */
  report(status: string): void {
    this.#status = status;
    if (this.wanted && this.#timer) {
      this.#emit();
    }
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #emit(): void {
    const token = this.token;
    if (token === undefined || !this.send) {
      return;
    }
    this.#count++;
    this.#lastSentAt = Date.now();
    const seconds = Math.round((this.#lastSentAt - this.#startedAt) / 1000);
    void this.send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: this.#count,
        message: `${this.#status} (${seconds} s)`,
      },
    }).catch(() => undefined);
  }
}
