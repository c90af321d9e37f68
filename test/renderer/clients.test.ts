/**
 * The clients slice (store/clients.ts) and the Connection panel's lists (clientsModel.ts).
 *
 * Tests: src/renderer/src/store/clients.ts, src/renderer/src/features/connection/clientsModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  applyClientEvent,
  CLOSED_CLIENTS_KEPT,
  type ClientsSlice,
} from '../../src/renderer/src/store/clients.js';
import {clientLists, webmcpLine} from '../../src/renderer/src/features/connection/clientsModel.js';
import type {ClientRef, InspectorEvent} from '../../src/shared/protocol.js';
import type {ClientEvent} from '../../src/renderer/src/store/clients.js';

const ref = (id: string): ClientRef => ({id, name: `agent ${id}`, version: '1', transport: 'http'});
const none = (): number => 0;

function apply(slice: ClientsSlice, events: [ClientEvent, number][]): ClientsSlice {
  return events.reduce(
    (current, [event, time]) => applyClientEvent(current, event, time, none),
    slice,
  );
}

const EMPTY: ClientsSlice = {clients: [], closed: []};

describe('clients slice', () => {
  it('a client is live when it connects, quiet when the server says so, back when it calls', () => {
    const connected = apply(EMPTY, [[{type: 'clientConnected', client: ref('a')}, 100]]);
    expect(connected.clients).toMatchObject([{id: 'a', live: true, lastActivityAt: 100}]);
    const quiet = apply(connected, [
      [{type: 'clientActivity', clientId: 'a', live: false, lastActivityAt: 150}, 5_150],
    ]);
    expect(clientLists(quiet.clients, quiet.closed).live).toEqual([]);
    expect(clientLists(quiet.clients, quiet.closed).notConnected).toMatchObject([
      {open: true, at: 150, why: expect.stringContaining('until it expires') as unknown},
    ]);
    const call: InspectorEvent = {
      type: 'toolCallStarted',
      callId: 'c',
      tool: 'list_pages',
      args: {},
      client: ref('a'),
    };
    const back = apply(quiet, [
      [call, 9_000],
      [{type: 'clientActivity', clientId: 'a', live: true, lastActivityAt: 9_000}, 9_000],
    ]);
    expect(clientLists(back.clients, back.closed).live).toMatchObject([
      {id: 'a', lastActivityAt: 9_000},
    ]);
  });

  it('ended sessions move to the closed list with when and why, newest first, bounded', () => {
    const two = apply(EMPTY, [
      [{type: 'clientConnected', client: ref('a')}, 1],
      [{type: 'clientConnected', client: ref('b')}, 2],
    ]);
    const ended = apply(two, [
      [{type: 'clientSessionExpired', client: ref('a'), reason: 'idle', idleMs: 60_000}, 70],
      // The disconnect that follows an expiry changes nothing.
      [{type: 'clientDisconnected', clientId: 'a', reason: 'idle', at: 70}, 70],
      [{type: 'clientDisconnected', clientId: 'b', reason: 'closed', at: 80}, 81],
    ]);
    expect(ended.clients).toEqual([]);
    expect(ended.closed.map(client => [client.id, client.reason, client.closedAt])).toEqual([
      ['b', 'closed', 80],
      ['a', 'idle', 70],
    ]);
    const rows = clientLists(ended.clients, ended.closed).notConnected;
    expect(rows.map(row => row.why)).toEqual([
      'closed by the client',
      'expired: no request for the idle timeout',
    ]);
    let many = EMPTY;
    for (let index = 0; index < CLOSED_CLIENTS_KEPT + 5; index++) {
      many = apply(many, [
        [{type: 'clientConnected', client: ref(`c${index}`)}, index],
        [{type: 'clientDisconnected', clientId: `c${index}`}, index],
      ]);
    }
    expect(many.closed).toHaveLength(CLOSED_CLIENTS_KEPT);
    expect(many.closed[0]?.id).toBe(`c${CLOSED_CLIENTS_KEPT + 4}`);
  });
});

describe('the WebMCP line', () => {
  const running = {state: 'running' as const, mode: 'launch' as const};

  it('agrees with the WebMCP tab: tools listed means available', () => {
    expect(webmcpLine({...running, webmcp: {available: true}}, 3)).toBe(
      'Available (3 tools on open pages)',
    );
    expect(webmcpLine(running, 1)).toBe('Available (1 tool on open pages)');
    expect(webmcpLine(running, 0)).toContain('Not checked yet');
    expect(webmcpLine({state: 'idle', mode: 'launch'}, 0)).toBe('Unknown until the browser runs');
    expect(webmcpLine({...running, webmcp: {available: false, reason: 'too old'}}, 0)).toBe(
      'Not available: too old',
    );
  });
});
