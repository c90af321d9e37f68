/**
 * The Connection panel's data: only live clients count as connected (an open stream or a request
 * in flight); a client whose stream closed with nothing in flight (the SDK client's close(), no
 * DELETE) stops being live as it closes, within 2 s, while its session stays open; sessions that end move to the closed list with when and
 * why. And the browser status the inspector ends on carries WebMCP's availability. Real MCP
 * clients over HTTP, a real Chromium.
 */
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {describe, expect, it} from 'vitest';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {LIVE_GRACE_MS} from '../../../src/core/mcp/clientRoster.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {boundUnder} from '../../helpers/loadFactor.js';

const fx = useEngineWithFixtures({clientName: 'watcher'});

describe('live clients', () => {
  it('the browser status the inspector ends on says whether WebMCP is available', async () => {
    const statuses: EventEnvelope[] = [];
    const unsubscribe = fx.engine.engine.hub.onEvent(envelope => {
      if (envelope.event.type === 'browserStatus') {
        statuses.push(envelope);
      }
    });
    try {
      // The first call starts the browser: the availability is found while the start is announced.
      expect((await call(fx.client, 'list_pages')).isError).toBe(false);
      const last = statuses.at(-1)?.event;
      expect(last).toMatchObject({
        type: 'browserStatus',
        status: {state: 'running', webmcp: {available: true}},
      });
      expect(fx.engine.engine.state().browser.webmcp).toEqual({available: true});
    } finally {
      unsubscribe();
    }
  });
  it('5 clients connect and leave: only live ones count, the rest say when and why', async () => {
    const engine = fx.engine.engine;
    const clients = await Promise.all(
      ['one', 'two', 'three', 'four', 'five'].map(name => fx.engine.connect(`roster-${name}`)),
    );
    for (const client of clients) {
      expect((await call(client, 'list_pages')).isError).toBe(false);
    }
    const live = (): string[] =>
      engine
        .state()
        .clients.filter(client => client.live === true && client.name.startsWith('roster-'))
        .map(client => client.name)
        .sort();
    expect(live()).toEqual([
      'roster-five',
      'roster-four',
      'roster-one',
      'roster-three',
      'roster-two',
    ]);

    // Two end their sessions; two just go away (their streams close, their sessions stay).
    const [one, two, three, four] = clients;
    for (const client of [one, two]) {
      const transport = client?.transport;
      if (transport instanceof StreamableHTTPClientTransport) {
        await transport.terminateSession();
      }
    }
    // close() (the SDK's, no DELETE) ends their streams; the server is told when each one closed.
    const from = engine.hub.nextSeq;
    const closing = Date.now();
    await three?.close();
    await four?.close();
    await waitFor(
      () => live().length === 1,
      LIVE_GRACE_MS + 10_000,
      'the clients that left to stop being live',
    );
    expect(live()).toEqual(['roster-five']);
    // Not after a grace: the event that says so comes as their streams end (within 2 s even on a
    // loaded machine), each naming when its stream ended.
    const ids = new Set(
      engine
        .state()
        .clients.filter(client => client.name === 'roster-three' || client.name === 'roster-four')
        .map(client => client.id),
    );
    const notLive = engine.hub
      .range(from, 10_000)
      .flatMap(({time, event}) =>
        event.type === 'clientActivity' && !event.live && ids.has(event.clientId)
          ? [{time, endedAt: event.lastActivityAt}]
          : [],
      );
    expect(notLive).toHaveLength(2);
    for (const {time, endedAt} of notLive) {
      expect(endedAt).toBeGreaterThanOrEqual(closing);
      expect(time - endedAt).toBeLessThan(boundUnder(2_000, LIVE_GRACE_MS));
    }

    const state = engine.state();
    const quiet = state.clients
      .filter(client => client.live === false)
      .map(client => client.name)
      .sort();
    expect(quiet).toEqual(['roster-four', 'roster-three']);
    for (const client of state.clients.filter(candidate => candidate.live === false)) {
      expect(client.lastActivityAt).toBeGreaterThan(0);
    }
    const closed = (state.closedClients ?? []).filter(client => client.name.startsWith('roster-'));
    expect(closed.map(client => [client.name, client.reason]).sort()).toEqual([
      ['roster-one', 'closed'],
      ['roster-two', 'closed'],
    ]);
    expect(closed.every(client => client.closedAt >= client.connectedAt)).toBe(true);
    // The watcher (an open stream) is live although it made no call for a while.
    expect(state.clients.find(client => client.name === 'watcher')?.live).toBe(true);
  });
});
