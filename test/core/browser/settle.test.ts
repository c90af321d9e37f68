/**
 * Settling after an action: what the action started is awaited (navigation, fetches, DOM changes),
 * and nothing is awaited when nothing happens.
 */
import {describe, expect, it} from 'vitest';
import {call, pageIdFrom, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  routes: server => {
    let release: (() => void) | undefined;
    server.route('/api/items', (_request, response) => {
      // Answers only when the test says so, so the render provably waits for the request.
      release = () =>
        response.writeHead(200, {'Content-Type': 'application/json'}).end('["apple","pear"]');
      setTimeout(() => release?.(), 300);
    });
    server.html(
      '/fetch-render.html',
      `<!doctype html><title>Fetch</title><button onclick="load()">Load</button><ul id="list"></ul>
     <script>async function load() {
       const items = await (await fetch('/api/items')).json();
       for (const item of items) { const li = document.createElement('li'); li.textContent = item; document.getElementById('list').append(li); }
     }</script>`,
    );
    server.route('/api/stream', (_request, response) => {
      // Headers and a first chunk, then nothing: a body that never finishes loading.
      response.writeHead(200, {'Content-Type': 'text/plain'});
      response.write('partial');
    });
  },
});

describe('actAndSettle', () => {
  it('waits for a fetch the click started and for the render that follows', async () => {
    const {text} = await call(fx.client, 'new_page', {url: fx.server.url('/fetch-render.html')});
    const id = pageIdFrom(text, 'fetch-render');
    const snapshot = await call(fx.client, 'take_snapshot', {pageId: id});
    const uid = /^ *(\d+) button "Load"/m.exec(snapshot.text)?.[1];
    const clicked = await call(fx.client, 'click', {pageId: id, uid, includeSnapshot: true});
    expect(clicked.text).toContain('Successfully clicked on the element');
    expect(clicked.text).toContain('"apple"');
    expect(clicked.text).toContain('"pear"');
  });

  it('evaluate_script that starts a fetch returns after the render too', async () => {
    const {text} = await call(fx.client, 'new_page', {
      url: fx.server.url('/fetch-render.html?evaluate'),
    });
    const id = pageIdFrom(text, 'fetch-render.html?evaluate');
    await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { load(); return "started"; }',
    });
    const count = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => document.querySelectorAll("li").length',
      waitForStableDom: false,
    });
    expect(count.text).toContain('\n2\n');
  });

  it('does not wait out its cap for a body the page never reads', async () => {
    const {text} = await call(fx.client, 'new_page', {url: fx.server.url('/index.html?stream')});
    const id = pageIdFrom(text, 'index.html?stream');
    const result = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { fetch("/api/stream"); return "sent"; }',
    });
    expect(result.text).toContain('"sent"');
    const ended = fx.engine.engine.hub
      .range(1, 1_000_000)
      .filter(envelope => envelope.event.type === 'toolCallEnded' && envelope.event.pageId === id)
      .at(-1);
    // The cap for a pending request is 3 s; the headers arrive at once, so the wait ends long before.
    expect(ended?.event.type === 'toolCallEnded' ? ended.event.durationMs : Infinity).toBeLessThan(
      2_500,
    );
  });
});
