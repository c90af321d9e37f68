/**
 * The stillness rule of actions (after recent DOM activity a box must also hold still for a while,
 * which catches animations a timer steps) triggers only for activity that can move the element:
 * its ancestors, itself, what comes before it, style sheets; not the title, nor a text or an
 * attribute after it. Checked on the in-page functions the actionability check runs, in Chromium.
 *
 * Tests: src/core/browser/input/actionability.ts, src/injected/common/motion.ts,
 *   src/core/browser/settle/counters.ts
 */
import {describe, expect, it} from 'vitest';
import {scriptSource} from '../../../scripts/build-injected.mjs';
import {callExpression} from '../../../src/core/browser/injectedCall.js';
import {INSTALL_MUTATION_STATE} from '../../../src/core/browser/injectedSources.generated.js';
import {useEngineWithFixtures} from '../../helpers/engine.js';
import {evaluate} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({
  routes: server => {
    server.html(
      '/stillness.html',
      `<!doctype html><title>Still</title>
      <p id="before">Before</p>
      <div id="ancestor"><section><button id="target">Go <b id="inner">now</b></button></section></div>
      <p id="after">After</p><span id="far" data-x="1">Far</span>`,
    );
  },
});

/**
 * For each change: whether the rule counts it as able to move #target (lastShift of
 * src/injected/common/motion.ts, the helper the actionability check judges by, bundled alone).
 */
const probe = (lastShift: string): string => `async () => {
  const lastShift = ${lastShift};
  const motion = ${callExpression(INSTALL_MUTATION_STATE)};
  const target = document.getElementById('target');
  const byId = id => document.getElementById(id);
  const changes = {
    title: () => { document.title = 'Clicked'; },
    textAfter: () => { byId('after').textContent = 'After 2'; },
    attributeAfter: () => { byId('far').setAttribute('data-x', '2'); },
    childAfter: () => { byId('after').append(document.createElement('i')); },
    meta: () => { document.head.append(document.createElement('meta')); },
    attributeOfAncestor: () => { byId('ancestor').style.paddingTop = '3px'; },
    textBefore: () => { byId('before').firstChild.data = 'Before 2'; },
    childBefore: () => { byId('before').after(document.createElement('hr')); },
    insideTarget: () => { byId('inner').textContent = 'later'; },
    styleSheet: () => { const style = document.createElement('style'); style.textContent = 'p{margin:0}'; document.head.append(style); },
  };
  const counted = {};
  for (const [name, change] of Object.entries(changes)) {
    const since = performance.now();
    change();
    // The observer reports after the task: give it one.
    await new Promise(resolve => setTimeout(resolve, 0));
    counted[name] = lastShift(motion, target, since) >= since;
  }
  return counted;
}`;

describe('the stillness rule of actions', () => {
  it('counts only activity that can move the element', async () => {
    const id = await fx.openPage('/stillness.html');
    const lastShift = await scriptSource('src/injected/common/motion.ts', 'lastShift');
    expect(await evaluate(fx.client, id, probe(lastShift))).toEqual({
      title: false,
      textAfter: false,
      attributeAfter: false,
      childAfter: false,
      meta: false,
      attributeOfAncestor: true,
      textBefore: true,
      childBefore: true,
      insideTarget: true,
      styleSheet: true,
    });
  });
});
