/**
 * A snapshot of a page that did not change is answered from the last one (same text, same uids,
 * no tree walk); any change an agent could see makes the next snapshot fresh. The changes here
 * are made over raw CDP, as the page's own scripts would, so no tool call marks the page changed.
 *
 * Tests: src/core/browser/snapshot/snapshot.ts, src/core/browser/pages/PageState.ts
 */
import {describe, expect, it} from 'vitest';
import type {PageState} from '../../../src/core/browser/pages/PageState.js';
import {takeSnapshot} from '../../../src/core/browser/snapshot/snapshot.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {lineOf, snapshotOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({
  routes: server => {
    // Two quiet documents that differ only in their text.
    server.html('/quiet-one.html', '<!doctype html><title>Quiet</title><p>First document</p>');
    server.html('/quiet-two.html', '<!doctype html><title>Quiet</title><p>Second document</p>');
  },
});

async function openChanges(): Promise<{id: number; state: PageState}> {
  const id = await fx.openPage('/aria/changes.html');
  return {id, state: fx.engine.engine.browser.pages.byId(id)};
}

/** Runs a script in the page without a tool call. */
async function pageRuns(state: PageState, expression: string): Promise<void> {
  const reply = await state.cdp.send('Runtime.evaluate', {expression, awaitPromise: true});
  expect(reply.exceptionDetails).toBeUndefined();
}

describe('snapshot cache', () => {
  it('answers an unchanged page from the last snapshot with the same uids', async () => {
    const {id, state} = await openChanges();
    const first = await snapshotOf(fx.client, id);
    const again = await takeSnapshot(state, {verbose: false});
    expect(again.cached).toBe(true);
    expect(`## Latest page snapshot\n${again.text}`).toBe(first);
    const viaTool = await snapshotOf(fx.client, id);
    expect(viaTool).toBe(first);
    // Verbose is its own snapshot.
    expect((await takeSnapshot(state, {verbose: true})).cached).toBe(false);
  });

  const changes: [what: string, script: string, expectLine: string][] = [
    ['text', 'document.getElementById("text").textContent = "Second text"', '"Second text"'],
    ['a value set by script', 'document.getElementById("field").value = "two"', 'value="two"'],
    [
      'a checked property',
      'document.getElementById("box").checked = true',
      'checkbox "Box" checked',
    ],
    ['a select', 'document.getElementById("pick").selectedIndex = 1', 'value="Blue"'],
    ['focus', 'document.getElementById("toggle").focus()', 'button "Toggle target" focused'],
    [
      'a style sheet rule',
      'document.styleSheets[0].insertRule("#toggle { display: none }", 0)',
      '!Toggle target',
    ],
    ['a class', 'document.getElementById("toggle").className = "hidden"', '!Toggle target'],
    ['details opened', 'document.getElementById("more").open = true', '"More text"'],
    [
      'an open shadow root',
      'document.getElementById("host").shadowRoot.querySelector("button").textContent = "Shadow changed"',
      'button "Shadow changed"',
    ],
    [
      'a custom element upgraded into a closed shadow root',
      'customElements.define("x-later", class extends HTMLElement { constructor() { super(); this.attachShadow({mode: "closed"}).innerHTML = "<button>Upgraded</button>"; } })',
      'button "Upgraded"',
    ],
    [
      'a same-site iframe',
      'document.getElementById("frame").contentDocument.querySelector("button").textContent = "Frame changed"',
      'button "Frame changed"',
    ],
  ];
  for (const [what, script, expected] of changes) {
    it(`takes a fresh snapshot after ${what} changed`, async () => {
      const {id, state} = await openChanges();
      await snapshotOf(fx.client, id);
      expect((await takeSnapshot(state, {verbose: false})).cached).toBe(true);
      await pageRuns(state, script);
      const fresh = await snapshotOf(fx.client, id);
      if (expected.startsWith('!')) {
        expect(fresh).not.toContain(expected.slice(1));
      } else {
        expect(lineOf(fresh, expected)).toBeTruthy();
      }
    });
  }

  it('takes a fresh snapshot after the mouse moved over a :hover menu', async () => {
    const {id, state} = await openChanges();
    const before = await snapshotOf(fx.client, id);
    expect(before).not.toContain('Hover link');
    const box = await state.cdp.send('Runtime.evaluate', {
      expression:
        'JSON.stringify(document.getElementById("hoverzone").getBoundingClientRect().toJSON())',
      returnByValue: true,
    });
    const rect = JSON.parse(String(box.result.value)) as {x: number; y: number};
    await state.cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseMoved',
      x: rect.x + 10,
      y: rect.y + 10,
    });
    expect(await snapshotOf(fx.client, id)).toContain('link "Hover link"');
  });

  it('any tool call that may change the page makes the next snapshot fresh', async () => {
    const {id, state} = await openChanges();
    await snapshotOf(fx.client, id);
    const pressed = await call(fx.client, 'press_key', {pageId: id, key: 'Shift'});
    expect(pressed.isError, pressed.text).toBe(false);
    expect((await takeSnapshot(state, {verbose: false})).cached).toBe(false);
  });

  it('a new document is never answered from the last one, even if its navigation went unseen', async () => {
    const id = await fx.openPage('/quiet-one.html');
    const state = fx.engine.engine.browser.pages.byId(id);
    expect(await snapshotOf(fx.client, id)).toContain('First document');
    const seenLoader = state.loaderIds.get(state.mainFrameId);
    await state.cdp.send('Page.navigate', {url: fx.server.url('/quiet-two.html')});
    await waitFor(async () => {
      const reply = await state.cdp.send('Runtime.evaluate', {
        expression: 'document.readyState === "complete" && document.body.textContent',
        returnByValue: true,
      });
      return reply.result.value === 'Second document';
    });
    // As if the engine had missed the navigation event: only the document itself can tell.
    if (seenLoader !== undefined) {
      state.loaderIds.set(state.mainFrameId, seenLoader);
    }
    const again = await takeSnapshot(state, {verbose: false});
    expect(again.cached).toBe(false);
    expect(again.text).toContain('Second document');
  });
});
