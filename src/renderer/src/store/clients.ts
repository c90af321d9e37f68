/**
 * The client sessions as the Connection panel shows them, mirrored from the engine: the open ones
 * (each live or not: an open stream or a request in flight, or one a few seconds ago) with their
 * calls and last activity, and the ones that ended (closed by the client, expired idle, evicted
 * over the cap), newest first. Pure functions over the slice; the store applies them per event.
 */
import type {ClosedClient, ConnectedClient, InspectorEvent} from '../../../shared/protocol.js';

/** Ended sessions kept for the panel (the engine keeps as many). */
export const CLOSED_CLIENTS_KEPT = 50;

export interface ClientsSlice {
  clients: readonly ConnectedClient[];
  closed: readonly ClosedClient[];
}

export type ClientEvent = Extract<
  InspectorEvent,
  {
    type:
      | 'clientConnected'
      | 'clientDisconnected'
      | 'clientSessionExpired'
      | 'clientActivity'
      | 'toolCallStarted';
  }
>;

function ended(
  slice: ClientsSlice,
  clientId: string,
  end: Pick<ClosedClient, 'closedAt' | 'reason'>,
): ClientsSlice {
  const client = slice.clients.find(candidate => candidate.id === clientId);
  if (!client) {
    return slice;
  }
  const {live: _live, isolated: _isolated, ...rest} = client;
  return {
    clients: slice.clients.filter(candidate => candidate.id !== clientId),
    closed: [{...rest, ...end}, ...slice.closed].slice(0, CLOSED_CLIENTS_KEPT),
  };
}

function touched(
  slice: ClientsSlice,
  clientId: string,
  change: Partial<ConnectedClient>,
): ClientsSlice {
  const index = slice.clients.findIndex(candidate => candidate.id === clientId);
  const client = slice.clients[index];
  if (!client) {
    return slice;
  }
  const clients = slice.clients.slice();
  clients[index] = {...client, ...change};
  return {...slice, clients};
}

/** One client event (server time `time`) applied to the slice; the same slice if nothing changed. */
export function applyClientEvent(
  slice: ClientsSlice,
  event: ClientEvent,
  time: number,
  calls: (clientId: string) => number,
): ClientsSlice {
  switch (event.type) {
    case 'clientConnected':
      if (slice.clients.some(client => client.id === event.client.id)) {
        return slice;
      }
      return {
        ...slice,
        clients: [
          ...slice.clients,
          {
            ...event.client,
            connectedAt: time,
            calls: calls(event.client.id),
            live: true,
            lastActivityAt: time,
          },
        ],
      };
    case 'clientActivity':
      return touched(slice, event.clientId, {
        live: event.live,
        lastActivityAt: event.lastActivityAt,
      });
    case 'toolCallStarted':
      return touched(slice, event.client.id, {
        lastActivityAt: time,
        calls: calls(event.client.id),
      });
    case 'clientSessionExpired':
      return ended(slice, event.client.id, {closedAt: time, reason: event.reason});
    case 'clientDisconnected':
      return ended(slice, event.clientId, {
        closedAt: event.at ?? time,
        reason: event.reason ?? 'closed',
      });
  }
}

/** The clients the panel counts as connected: live ones. */
export function liveClients(clients: readonly ConnectedClient[]): ConnectedClient[] {
  return clients.filter(client => client.live !== false);
}

/** Open sessions that are not live (a finished run whose session has not expired yet). */
export function idleClients(clients: readonly ConnectedClient[]): ConnectedClient[] {
  return clients.filter(client => client.live === false);
}
