/**
 * The Servers panel's rows: this inspector's server first, kinds named, clients in one line.
 *
 * Tests: src/renderer/src/features/servers/serversModel.ts
 */
import {describe, expect, it} from 'vitest';
import {serverRows, serversSummary} from '../../src/renderer/src/features/servers/serversModel.js';
import type {RunningServer} from '../../src/shared/runningServers.js';

function server(pid: number, extra: Partial<RunningServer> = {}): RunningServer {
  return {
    mcpUrl: `http://127.0.0.1:${pid}/mcp`,
    inspectorUrl: `http://127.0.0.1:${pid}/`,
    openUrl: `http://127.0.0.1:${pid}/#token=t`,
    pid,
    version: '0.1.0',
    kind: 'headless',
    stdio: false,
    startedAt: pid,
    cwd: '/p',
    clients: [],
    moreClients: 0,
    self: false,
    ...extra,
  };
}

describe('serverRows', () => {
  it('puts this inspector first and names each kind and its clients', () => {
    const rows = serverRows([
      server(1, {kind: 'desktop', clients: [{name: 'cursor', transport: 'http', live: true}]}),
      server(2, {stdio: true, clients: [{name: 'claude-code', transport: 'stdio', live: false}]}),
      server(3, {
        self: true,
        moreClients: 2,
        clients: [{name: 'a', transport: 'http', live: false}],
      }),
    ]);
    expect(rows.map(row => [row.pid, row.title, row.clients])).toEqual([
      [3, 'This inspector', 'a (http), and 2 more'],
      [1, 'Desktop app', 'cursor (http, live)'],
      [2, 'Started by an agent (stdio)', 'claude-code (stdio)'],
    ]);
    expect(rows[0]?.kind).toBe('Headless');
  });

  it('says how many run, or that none does', () => {
    expect(serversSummary(0)).toBe('No server is running for you on this machine.');
    expect(serversSummary(2)).toContain('2 MCP Browser Inspector servers running for you');
  });
});
