/**
 * A queued page call that names no page acts on the page selected when it runs, not when it was
 * queued: real MCP clients over HTTP, a real Chromium, and a page call held open by the test.
 */
import type {ServerResponse} from 'node:http';
import {afterEach, describe, expect, it} from 'vitest';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

/** Requests to /hold wait here until the test answers them. */
const held: ServerResponse[] = [];

const fx = useEngineWithFixtures({
  flags: ['--no-pageIdRouting'],
  clientName: 'long-caller',
  routes: server =>
    server.route('/hold', (_request, response) => {
      held.push(response);
    }),
});

function answerHeld(): void {
  for (const response of held.splice(0)) {
    response.writeHead(200, {'Content-Type': 'text/plain'}).end('go');
  }
}

afterEach(answerHeld);

describe('page resolution under the lock', () => {
  it('a queued call without pageId runs on the page selected while it waited', async () => {
    const selector = await fx.engine.connect('selector');
    const queuedClient = await fx.engine.connect('queued-caller');
    const pageA = await fx.openPage('/index.html?page=a');
    const pageB = await fx.openPage('/index.html?page=b');
    expect((await call(fx.client, 'select_page', {pageId: pageA})).isError).toBe(false);
    const ended: EventEnvelope[] = [];
    const unsubscribe = fx.engine.engine.hub.onEvent(envelope => {
      if (envelope.event.type === 'toolCallEnded') {
        ended.push(envelope);
      }
    });
    try {
      const long = call(fx.client, 'evaluate_script', {
        function: "async () => { await fetch('/hold'); return location.search; }",
      });
      await waitFor(() => held.length === 1, 10_000, 'the long call to hold page A');

      const lockA = fx.engine.engine.browser.pages.byId(pageA).lock;
      const queued = call(queuedClient, 'evaluate_script', {function: '() => location.search'});
      await waitFor(() => lockA.waiting === 1, 10_000, 'the queued call to wait for page A');

      const selected = await call(selector, 'select_page', {pageId: pageB});
      expect(selected.isError, selected.text).toBe(false);
      answerHeld();

      const longResult = await long;
      expect(longResult.isError, longResult.text).toBe(false);
      expect(longResult.text).toContain('"?page=a"');
      const queuedResult = await queued;
      expect(queuedResult.isError, queuedResult.text).toBe(false);
      expect(queuedResult.text).toContain('"?page=b"');
      expect(queuedResult.text).not.toContain('"?page=a"');

      const queuedEnd = ended
        .map(envelope => envelope.event)
        .find(event => event.type === 'toolCallEnded' && event.result.text.includes('?page=b'));
      expect(queuedEnd).toMatchObject({pageId: pageB, status: 'ok'});
    } finally {
      unsubscribe();
    }
  });
});
