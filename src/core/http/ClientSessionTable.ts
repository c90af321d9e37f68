/**
 * The open MCP HTTP sessions, reaped so they cannot pile up: a session with no request or open
 * stream for the idle timeout is closed (a client killed with SIGKILL never says goodbye), and when
 * the cap is reached a new session closes the longest-idle one. A session with a request or a
 * stream in flight is never reaped.
 */
import type {ServerResponse} from 'node:http';
import type {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {ClientSession} from '../mcp/ClientSession.js';
import type {SessionStreams} from './SessionStreams.js';

export interface ClientSessionLimits {
  idleTimeoutMs: number;
  max: number;
  resumeWindowMs: number;
}

export type ReapReason = 'idle' | 'limit';

export interface TrackedClientSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly clientSession: ClientSession;
  /** Its SSE streams' stored events, for resuming them. */
  readonly streams: SessionStreams;
  /** The protocol version agreed at initialize. */
  readonly protocolVersion: string;
  lastActive: number;
  inFlight: number;
}

/** No request or stream open, and no call running (one whose stream dropped may be resumed). */
function isIdle(entry: TrackedClientSession): boolean {
  return entry.inFlight === 0 && entry.clientSession.runningCalls === 0;
}

export class ClientSessionTable {
  readonly #entries = new Map<string, TrackedClientSession>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: ClientSessionLimits,
    private readonly onReap: (
      clientSession: ClientSession,
      reason: ReapReason,
      idleMs: number,
    ) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  clientSessions(): ClientSession[] {
    return [...this.#entries.values()].map(entry => entry.clientSession);
  }

  get(id: string): TrackedClientSession | undefined {
    return this.#entries.get(id);
  }

  add(
    id: string,
    session: Pick<
      TrackedClientSession,
      'transport' | 'clientSession' | 'streams' | 'protocolVersion'
    >,
  ): TrackedClientSession {
    const entry: TrackedClientSession = {
      ...session,
      lastActive: this.now(),
      inFlight: 0,
    };
    this.#entries.set(id, entry);
    this.#schedule();
    return entry;
  }

  delete(id: string): void {
    this.#entries.get(id)?.streams.dispose();
    this.#entries.delete(id);
  }

  /**
   * One request (or the client's own stream, `stream`) on a session: it counts as active until
   * its response closes.
   */
  track(
    entry: TrackedClientSession,
    response: ServerResponse,
    kind: 'request' | 'stream' = 'request',
  ): void {
    entry.inFlight++;
    entry.lastActive = this.now();
    const ended = entry.clientSession.beginActivity(kind);
    response.once('close', () => {
      entry.inFlight--;
      entry.lastActive = this.now();
      ended();
    });
  }

  /**
   * Makes room for one more session: at the cap, the longest-idle session without a request in
   * flight is closed. False when every session is busy.
   */
  async makeRoom(): Promise<boolean> {
    if (this.#entries.size < this.limits.max) {
      return true;
    }
    let oldest: [string, TrackedClientSession] | undefined;
    for (const item of this.#entries) {
      if (isIdle(item[1]) && (!oldest || item[1].lastActive < oldest[1].lastActive)) {
        oldest = item;
      }
    }
    if (!oldest) {
      return false;
    }
    await this.#reap(oldest[0], oldest[1], 'limit');
    return true;
  }

  async #reap(id: string, entry: TrackedClientSession, reason: ReapReason): Promise<void> {
    this.#entries.delete(id);
    entry.streams.dispose();
    this.onReap(entry.clientSession, reason, this.now() - entry.lastActive);
    await entry.clientSession.close();
  }

  #schedule(): void {
    if (this.#timer) {
      return;
    }
    // Checked a few times per timeout, at most once a minute.
    const every = Math.min(60_000, Math.max(100, Math.floor(this.limits.idleTimeoutMs / 4)));
    this.#timer = setInterval(() => void this.#sweep(), every);
    this.#timer.unref();
  }

  async #sweep(): Promise<void> {
    const now = this.now();
    for (const [id, entry] of [...this.#entries]) {
      if (isIdle(entry) && now - entry.lastActive >= this.limits.idleTimeoutMs) {
        await this.#reap(id, entry, 'idle');
      }
    }
    if (this.#entries.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async closeAll(): Promise<void> {
    if (this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) {
      entry.streams.dispose();
      await entry.clientSession.close();
    }
  }
}
