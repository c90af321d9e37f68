/**
 * Settling after an action: what the action started is awaited (navigation, fetches, DOM changes),
 * and nothing is awaited when nothing happens.
 *
 * Tests: src/core/browser/settle/settle.ts, src/core/browser/settle/watch.ts,
 *   src/core/browser/settle/openedTabs.ts
 */
import {describe, expect, it} from 'vitest';
import {callExpression} from '../../../src/core/browser/injectedCall.js';
import {WAIT_FOLLOW_UPS} from '../../../src/core/browser/injectedSources.generated.js';
import {topCounter} from '../../../src/core/browser/settle/counters.js';
import {settleNavigationTimeout, slowdownFeature} from '../../../src/core/browser/timeouts.js';
import {call, pageIdFrom, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {act, childrenOf, snapshotOf, uidOf} from '../../helpers/snapshotText.js';
import {boundUnder} from '../../helpers/loadFactor.js';

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
    server.route('/api/frame-data', (_request, response) => {
      // A short fetch: the frame renders its answer only after it.
      setTimeout(
        () => response.writeHead(200, {'Content-Type': 'text/plain'}).end('frame data'),
        300,
      );
    });
    // The top page is on 127.0.0.1 and the widget on localhost: a cross-site (out-of-process) frame.
    server.html(
      '/frame-top.html',
      `<!doctype html><title>Frame top</title><h1>Top</h1><iframe id="widget" title="Widget" width="400" height="200"></iframe>
     <script>document.getElementById('widget').src = 'http://localhost:' + location.port + '/frame-widget.html';</script>`,
    );
    server.html(
      '/frame-widget.html',
      `<!doctype html><title>Widget</title>
     <button id="fetch" onclick="load(this)">Fetch</button>
     <button id="steps" onclick="steps(this)">Steps</button>
     <a href="/frame-next.html">Next widget</a>
     <script>
       async function load(button) {
         const text = await (await fetch('/api/frame-data')).text();
         button.textContent = 'Fetched ' + text;
       }
       function steps(button) {
         // Renders over several tasks, each soon after the last.
         button.textContent = 'Step 1';
         setTimeout(() => { button.textContent = 'Step 2'; }, 20);
         setTimeout(() => { button.textContent = 'Steps done'; }, 40);
       }
     </script>`,
    );
    server.route('/frame-next.html', (_request, response) => {
      // A document that takes a moment to arrive: the click must wait for it to load.
      setTimeout(
        () =>
          response
            .writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
            .end(
              '<!doctype html><title>Next widget</title><h2>Next widget</h2><button>Next button</button>',
            ),
        300,
      );
    });
    // A timer set by the click handler and cleared through a clearTimeout the page kept from
    // before settling wrapped it (as React's scheduler keeps its own): the wrap never sees the clear.
    server.html(
      '/kept-clear.html',
      `<!doctype html><title>Kept clear</title><button id="start" style="width:200px;height:60px">Start</button>
     <script>const keptClear = clearTimeout;
       document.getElementById('start').addEventListener('click', () => {
         const id = setTimeout(() => { document.title = 'fired'; }, 100);
         keptClear(id);
       });</script>`,
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
    // A slow network (as emulate's Slow 3G sets) stretches the 3 s cap for a pending request
    // to 30 s, so "long before the cap" holds however busy the machine is.
    const slowdown = slowdownFeature.get(fx.engine.engine.browser.pages.byId(id));
    slowdown.network = 10;
    const capMs = settleNavigationTimeout(slowdown);
    try {
      const result = await call(fx.client, 'evaluate_script', {
        pageId: id,
        function: '() => { fetch("/api/stream"); return "sent"; }',
      });
      expect(result.text).toContain('"sent"');
    } finally {
      slowdown.network = 1;
    }
    const ended = fx.engine.engine.hub
      .range(1, 1_000_000)
      .filter(envelope => envelope.event.type === 'toolCallEnded' && envelope.event.pageId === id)
      .at(-1);
    // The headers arrive at once, so the wait ends long before the cap.
    expect(capMs).toBe(30_000);
    expect(ended?.event.type === 'toolCallEnded' ? ended.event.durationMs : Infinity).toBeLessThan(
      boundUnder(capMs / 2, capMs),
    );
  });

  describe('inside a cross-site frame', () => {
    /** Opens the page and returns the lines of the widget frame's document, once it is there. */
    async function openWidget(tag: string): Promise<{id: number; widget: string}> {
      const {text} = await call(fx.client, 'new_page', {
        url: fx.server.url(`/frame-top.html?${tag}`),
      });
      const id = pageIdFrom(text, `frame-top.html?${tag}`);
      const widget = await waitFor(
        async () => {
          const lines = childrenOf(await snapshotOf(fx.client, id), 'Iframe "Widget"').join('\n');
          return lines.includes('button "Steps"') ? lines : undefined;
        },
        10_000,
        'the widget frame',
      );
      return {id, widget};
    }

    const inWidget = (snapshot: string): string =>
      childrenOf(snapshot, 'Iframe "Widget"').join('\n');

    it('a click that fetches and then renders in the frame returns with the render', async () => {
      const {id, widget} = await openWidget('fetch');
      const clicked = await act(fx.client, 'click', {
        pageId: id,
        uid: uidOf(widget, 'button "Fetch"'),
        includeSnapshot: true,
      });
      expect(inWidget(clicked)).toContain('button "Fetched frame data"');
    });

    it('a click that renders in the frame over several tasks returns with the last one', async () => {
      const {id, widget} = await openWidget('steps');
      const clicked = await act(fx.client, 'click', {
        pageId: id,
        uid: uidOf(widget, 'button "Steps"'),
        includeSnapshot: true,
      });
      expect(inWidget(clicked)).toContain('button "Steps done"');
    });

    it('a link that navigates the frame returns with the new document loaded', async () => {
      const {id, widget} = await openWidget('link');
      const clicked = await act(fx.client, 'click', {
        pageId: id,
        uid: uidOf(widget, 'link "Next widget"'),
        includeSnapshot: true,
      });
      expect(inWidget(clicked)).toContain('button "Next button"');
    });
  });

  it('does not wait for a followed timer the page cleared where the wrap could not see it', async () => {
    const {text} = await call(fx.client, 'new_page', {url: fx.server.url('/kept-clear.html')});
    const state = fx.engine.engine.browser.pages.byId(pageIdFrom(text, 'kept-clear'));
    const counter = topCounter(state);
    await counter.read();
    // A trusted click, as an action presses: its handler's timer is followed.
    for (const type of ['mousePressed', 'mouseReleased'] as const) {
      await state.cdp.send('Input.dispatchMouseEvent', {
        type,
        x: 40,
        y: 30,
        button: 'left',
        clickCount: 1,
      });
    }
    expect((await counter.probe()).late).toBe(true);
    const capMs = 20_000;
    const waited = await state.cdp.send('Runtime.evaluate', {
      expression: callExpression(WAIT_FOLLOW_UPS, capMs),
      awaitPromise: true,
      returnByValue: true,
    });
    // Before: the cleared timer stayed followed and the wait ran to its cap.
    expect(waited.result.value).toBeLessThan(capMs);
    const title = await state.cdp.send('Runtime.evaluate', {expression: 'document.title'});
    expect(title.result.value).toBe('Kept clear');
  });
});
