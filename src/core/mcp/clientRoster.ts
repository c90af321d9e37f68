/**
 * The client sessions as the Connection panel shows them. A client is live while it has an open
 * stream or a request in flight (the stdio peer: while its stream is open), or, if it never
 * opened a stream of its own, made a request in the last few seconds; one whose own stream ended
 * with nothing in flight (a finished CLI run, an SDK client's close() without DELETE) stops being
 * live at once, while its MCP session may live on until it expires. Sessions that ended are kept in a
 * short list with when and why: closed by the client, expired idle, or evicted over the cap.
 */
import type {ClosedClient, ConnectedClient} from '../../shared/protocol.js';
import type {PageRegistry} from '../browser/pages/PageRegistry.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import {
  webmcpToolAudience,
  type WebMcpToolAudience,
  type ToolCatalog,
} from '../tools/base/ToolCatalog.js';
import {ClientSession, type ClientSessionDeps} from './ClientSession.js';

/** A client without a stream of its own still counts as live this long after its last request. */
export const LIVE_GRACE_MS = 5_000;
/** Sessions that ended, newest first, kept for the panel. */
const CLOSED_KEPT = 50;

interface Entry {
  clientSession: ClientSession;
  live: boolean;
}

export type EndReason = 'idle' | 'limit';

export interface ClientRosterDeps {
  hub: InspectorHub;
  pages: PageRegistry;
  /** What every client session is made with (the roster adds its own hooks). */
  sessions: Omit<ClientSessionDeps, 'onConnected' | 'onClosed' | 'onActivity' | 'pagesFor'>;
  /** --isolateClients: sessions get a browser context of their own. */
  isolateClients: boolean;
  now?: () => number;
}

export class ClientRoster {
  readonly #entries = new Map<string, Entry>();
  readonly #closed: ClosedClient[] = [];
  /** Why the server is closing a session (set just before it closes it). */
  readonly #ending = new Map<string, EndReason>();
  #timer: NodeJS.Timeout | undefined;
  #isolateClients: boolean;
  readonly hub: InspectorHub;
  readonly now: () => number;

  constructor(private readonly deps: ClientRosterDeps) {
    this.hub = deps.hub;
    this.now = deps.now ?? Date.now;
    this.#isolateClients = deps.isolateClients;
  }

  /** A client session (HTTP or the stdio peer) over the shared engine, tracked here. */
  create(kind: 'http' | 'stdio'): ClientSession {
    return new ClientSession(
      {
        ...this.deps.sessions,
        pagesFor: client => this.deps.pages.clientPages({client, isolated: this.#isolateClients}),
        onConnected: clientSession => this.connected(clientSession),
        onClosed: clientSession => this.closed(clientSession),
        onActivity: clientSession => this.activity(clientSession),
      },
      kind,
    );
  }

  get isolateClients(): boolean {
    return this.#isolateClients;
  }

  /** Client sessions started from now on get (or no longer get) a browser context of their own. */
  setIsolateClients(enabled: boolean): {enabled: boolean} {
    if (this.#isolateClients !== enabled) {
      this.#isolateClients = enabled;
      this.hub.publish({type: 'isolateClientsChanged', enabled});
    }
    return {enabled};
  }

  /**
   * Tool changes reach the clients they concern: a switch every client, WebMCP tools only their
   * audience's clients; `onShared` for what the inspector shows (the WebMCP tools of non-isolated
   * clients).
   */
  followToolChanges(catalog: ToolCatalog, onShared: () => void): void {
    catalog.on('changed', () => {
      this.notifyToolsChanged('all');
      onShared();
    });
    catalog.on('webmcpToolSetChanged', audience => {
      this.notifyToolsChanged(audience);
      if (audience === undefined) {
        onShared();
      }
    });
  }

  /** tools/list changed for every client, or for those of one WebMCP tool audience. */
  notifyToolsChanged(audience: WebMcpToolAudience | 'all'): void {
    for (const {clientSession} of this.#entries.values()) {
      if (audience === 'all' || webmcpToolAudience(clientSession.pages) === audience) {
        clientSession.notifyToolsChanged();
      }
    }
  }

  sessions(): ClientSession[] {
    return [...this.#entries.values()].map(entry => entry.clientSession);
  }

  /** Every open session (live or not), as the inspector state lists them. */
  clients(): ConnectedClient[] {
    return [...this.#entries.values()].map(({clientSession, live}) => ({
      ...clientSession.client,
      connectedAt: clientSession.connectedAt,
      calls: clientSession.calls,
      live,
      lastActivityAt: clientSession.lastActivityAt,
      isolated: clientSession.pages.isolated,
    }));
  }

  closedClients(): ClosedClient[] {
    return [...this.#closed];
  }

  connected(clientSession: ClientSession): void {
    this.#entries.set(clientSession.id, {clientSession, live: true});
    this.hub.publish({type: 'clientConnected', client: clientSession.client});
    this.activity(clientSession);
  }

  /** A request or stream of the client started or ended: it may have become live or idle. */
  activity(clientSession: ClientSession): void {
    const entry = this.#entries.get(clientSession.id);
    if (entry) {
      this.#update(entry);
      this.#schedule();
    }
  }

  /** The server is about to close the session (expired idle, or evicted over the cap). */
  ending(clientSession: ClientSession, reason: EndReason, idleMs: number): void {
    this.#ending.set(clientSession.id, reason);
    this.hub.publish({
      type: 'clientSessionExpired',
      client: clientSession.client,
      reason,
      idleMs,
    });
  }

  closed(clientSession: ClientSession): void {
    const reason = this.#ending.get(clientSession.id) ?? 'closed';
    this.#ending.delete(clientSession.id);
    if (!this.#entries.delete(clientSession.id)) {
      return;
    }
    const at = this.now();
    this.#closed.unshift({
      ...clientSession.client,
      connectedAt: clientSession.connectedAt,
      calls: clientSession.calls,
      lastActivityAt: clientSession.lastActivityAt,
      closedAt: at,
      reason,
    });
    this.#closed.splice(CLOSED_KEPT);
    this.hub.publish({type: 'clientDisconnected', clientId: clientSession.id, reason, at});
  }

  #update(entry: Entry): void {
    const {clientSession} = entry;
    // A client whose stream ended with nothing in flight has left: no grace.
    const live =
      clientSession.busy ||
      (!clientSession.left && this.now() - clientSession.lastActivityAt < LIVE_GRACE_MS);
    if (live !== entry.live) {
      entry.live = live;
      this.hub.publish({
        type: 'clientActivity',
        clientId: clientSession.id,
        live,
        lastActivityAt: clientSession.lastActivityAt,
      });
    }
  }

  /** Checks every second while some live client has nothing in flight (it may go idle). */
  #schedule(): void {
    if (this.#timer) {
      return;
    }
    this.#timer = setInterval(() => {
      let waiting = false;
      for (const entry of this.#entries.values()) {
        this.#update(entry);
        waiting ||= entry.live && !entry.clientSession.busy;
      }
      if (!waiting) {
        this.stop();
      }
    }, 1_000);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
