/**
 * The Servers panel's panel model: every MCP Browser Inspector running for this user on this
 * machine (from the runtime folder, via the listServers command), this one first. Client names
 * are the clients' own text: shown inert by the component.
 */
import type {RunningServer} from '../../../../shared/runningServers.js';

export interface ServerRow {
  pid: number;
  /** "This inspector's server" or what kind of server it is. */
  title: string;
  kind: string;
  startedAt: number;
  cwd: string;
  clients: string;
  inspectorUrl: string;
  mcpUrl: string;
  /** Opens the server's inspector (its token in the fragment). */
  openUrl: string;
  self: boolean;
}

function kindOf(server: RunningServer): string {
  if (server.kind === 'desktop') {
    return 'Desktop app';
  }
  return server.stdio ? 'Started by an agent (stdio)' : 'Headless';
}

export function clientsText(server: Pick<RunningServer, 'clients' | 'moreClients'>): string {
  if (server.clients.length === 0) {
    return 'No client connected';
  }
  const named = server.clients.map(
    client => `${client.name} (${client.transport}${client.live ? ', live' : ''})`,
  );
  return `${named.join(', ')}${server.moreClients > 0 ? `, and ${server.moreClients} more` : ''}`;
}

/** This inspector's own server first, then the others oldest first (as the folder lists them). */
export function serverRows(servers: readonly RunningServer[]): ServerRow[] {
  const ordered = [...servers.filter(server => server.self), ...servers.filter(s => !s.self)];
  return ordered.map(server => ({
    pid: server.pid,
    title: server.self ? 'This inspector' : kindOf(server),
    kind: kindOf(server),
    startedAt: server.startedAt,
    cwd: server.cwd,
    clients: clientsText(server),
    inspectorUrl: server.inspectorUrl,
    mcpUrl: server.mcpUrl,
    openUrl: server.openUrl,
    self: server.self,
  }));
}

/** The line over the table: how many, and what the list is made from. */
export function serversSummary(count: number): string {
  if (count === 0) {
    return 'No server is running for you on this machine.';
  }
  return `${count} MCP Browser Inspector server${count === 1 ? '' : 's'} running for you on this machine (also: mcp-browser-inspector list).`;
}
