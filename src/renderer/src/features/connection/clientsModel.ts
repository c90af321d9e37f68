/**
 * The Connection panel's clients, pure: the live ones (an open stream or a request in flight, or
 * one a few seconds ago), and, apart, the ones that are not: open sessions whose client went quiet
 * (a finished run; its MCP session expires later) and sessions that ended, with when and why.
 * Also the panel's WebMCP line, which must agree with what the WebMCP tab shows.
 */
import type {
  BrowserStatus,
  ClientEndReason,
  ClosedClient,
  ConnectedClient,
} from '../../../../shared/protocol.js';
import {idleClients, liveClients} from '../../store/clients.js';

export interface NotConnectedRow {
  client: ConnectedClient | ClosedClient;
  /** When it stopped: its last activity (quiet) or its end (ended). */
  at: number | undefined;
  why: string;
  /** Still an open MCP session (it may come back, or expire). */
  open: boolean;
}

export interface ClientLists {
  live: ConnectedClient[];
  notConnected: NotConnectedRow[];
}

const END_REASONS: Record<ClientEndReason, string> = {
  closed: 'closed by the client',
  idle: 'expired: no request for the idle timeout',
  limit: 'closed to make room (client session limit)',
};

export function clientLists(
  clients: readonly ConnectedClient[],
  closed: readonly ClosedClient[],
): ClientLists {
  const quiet: NotConnectedRow[] = idleClients(clients).map(client => ({
    client,
    at: client.lastActivityAt,
    why: 'no open stream or request: its session stays open until it expires',
    open: true,
  }));
  const ended: NotConnectedRow[] = closed.map(client => ({
    client,
    at: client.closedAt,
    why: END_REASONS[client.reason],
    open: false,
  }));
  const byTime = (a: NotConnectedRow, b: NotConnectedRow): number => (b.at ?? 0) - (a.at ?? 0);
  return {live: liveClients(clients), notConnected: [...quiet, ...ended].sort(byTime)};
}

/**
 * The WebMCP line: what the browser reported, else what the WebMCP tab shows (tools listed from
 * open pages mean it works), else why it is not known yet.
 */
export function webmcpLine(browser: BrowserStatus, listedTools: number): string {
  const tools =
    listedTools > 0 ? ` (${listedTools} tool${listedTools === 1 ? '' : 's'} on open pages)` : '';
  if (browser.webmcp?.available === true) {
    return `Available${tools}`;
  }
  if (browser.webmcp?.available === false) {
    return `Not available${browser.webmcp.reason ? `: ${browser.webmcp.reason}` : ''}`;
  }
  if (listedTools > 0) {
    return `Available${tools}`;
  }
  return browser.state === 'running'
    ? 'Not checked yet: it is checked on the first secure page (https or localhost)'
    : 'Unknown until the browser runs';
}
