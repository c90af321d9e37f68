/**
 * The pause of a drag over its target lasts until the page holds still. What the pause's own small
 * moves cause does not count: a dragover handler writing a class the target already has, and the
 * style of a ghost that follows the pointer (fixed, not hit by it). Everything else does. Checked
 * on the in-page probe the drag runs, in Chromium.
 *
 * Tests: src/injected/dragProbes.ts, src/injected/common/mutationState.ts
 */
import {describe, expect, it} from 'vitest';
import {callExpression} from '../../../src/core/browser/injectedCall.js';
import {QUIET_FOR} from '../../../src/core/browser/injectedSources.generated.js';
import {useEngineWithFixtures} from '../../helpers/engine.js';
import {evaluate} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({
  routes: server => {
    server.html(
      '/drag-quiet.html',
      `<!doctype html><title>Drag quiet</title>
      <ul id="list"><li id="one" class="item over">One</li><li id="two" class="item">Two</li></ul>
      <div id="ghost" style="position: fixed; pointer-events: none; top: 0; left: 0">One</div>
      <div id="banner" style="position: fixed; bottom: 0">Banner</div>`,
    );
  },
});

/** For each change: whether the probe counts it (the quiet time restarts at it). */
const probe = `async () => {
  const quietFor = () => ${callExpression(QUIET_FOR)};
  quietFor();
  const byId = id => document.getElementById(id);
  let x = 0;
  const changes = {
    classItHas: () => { byId('one').classList.add('over'); },
    sameAttributeValue: () => { byId('two').setAttribute('class', 'item'); },
    ghostFollowsPointer: () => { byId('ghost').style.transform = 'translate(' + (++x) + 'px, 4px)'; },
    newClass: () => { byId('two').classList.add('over'); },
    changedAndBackInOneBatch: () => { byId('one').classList.remove('over'); byId('one').classList.add('over'); },
    fixedButHit: () => { byId('banner').style.transform = 'translateY(' + (++x) + 'px)'; },
    reorder: () => { byId('list').prepend(byId('two')); },
    text: () => { byId('one').firstChild.data = 'One!'; },
  };
  const counted = {};
  for (const [name, change] of Object.entries(changes)) {
    // 100 ms apart: a change not counted leaves the quiet time starting at least that much before
    // it, far more than the reading itself can take on a busy machine.
    await new Promise(resolve => setTimeout(resolve, 100));
    const before = performance.now();
    change();
    await new Promise(resolve => setTimeout(resolve, 0));
    // The latest moment the quiet time can have started (read after it): counted when at or after
    // the change.
    const quiet = quietFor();
    counted[name] = performance.now() - quiet >= before;
  }
  return counted;
}`;

describe('the pause of a drag over its target', () => {
  it('waits out the page’s changes, not the ones its own moves cause', async () => {
    const id = await fx.openPage('/drag-quiet.html');
    expect(await evaluate(fx.client, id, probe)).toEqual({
      classItHas: false,
      sameAttributeValue: false,
      ghostFollowsPointer: false,
      newClass: true,
      changedAndBackInOneBatch: true,
      fixedButHit: true,
      reorder: true,
      text: true,
    });
  });
});
