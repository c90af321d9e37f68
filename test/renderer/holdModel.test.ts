/**
 * The Hold panel's pure parts and the store's view of the hold queue: log rows held while queued
 * and running again once released; the shown call, the keys (not while typing), the outline,
 * the countdown, and what the rules line says when hold is off with calls still held.
 *
 * Tests: src/renderer/src/features/hold/holdModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  heldWhileOff,
  keyAction,
  rulesSummary,
  secondsLeft,
  shownCall,
  targetOutline,
} from '../../src/renderer/src/features/hold/holdModel.js';
import {InspectorStore} from '../../src/renderer/src/store/InspectorStore.js';
import type {HeldCall, HoldState} from '../../src/shared/hold.js';
import {AGENT, batchOf, startedEvent} from './fixtures.js';

function held(callId: string, extra: Partial<HeldCall> = {}): HeldCall {
  return {
    callId,
    tool: 'click',
    args: {uid: '1_2'},
    client: AGENT,
    pageId: 3,
    rule: 'tool:click',
    reason: 'the tool is click',
    heldAt: 1_000,
    deadline: 301_000,
    ...extra,
  };
}

function holdState(queue: HeldCall[], seq = 0): HoldState {
  return {rules: ['tool:click'], timeoutMs: 300_000, queue, openOnHeld: false, seq};
}

describe('hold in the store', () => {
  it('shows queued calls as held in the log, and running again once released', () => {
    const store = new InspectorStore();
    store.applyBatch(
      batchOf(
        [
          startedEvent('a', 'click'),
          startedEvent('b', 'click'),
          {type: 'callHeld', call: held('a')},
          {type: 'callHeld', call: held('b')},
        ],
        1,
      ),
    );
    expect(store.log.byCallId('a')?.status).toBe('held');
    expect(store.log.byCallId('b')?.status).toBe('held');
    expect(store.getSnapshot().hold?.queue.map(call => call.callId)).toEqual(['a', 'b']);
    store.applyBatch(
      batchOf([{type: 'callHoldEnded', callId: 'a', decision: 'allowed', heldMs: 5}], 5),
    );
    expect(store.log.byCallId('a')?.status).toBe('running');
    expect(store.log.byCallId('b')?.status).toBe('held');
    store.applyBatch(
      batchOf(
        [
          {
            type: 'callHoldTarget',
            callId: 'b',
            target: {param: 'uid', uid: '1_2', rect: {x: 1, y: 2, width: 3, height: 4}},
          },
          {type: 'holdRulesChanged', rules: ['all'], timeoutMs: 60_000},
          {type: 'holdOpenOnHeldChanged', openOnHeld: true},
        ],
        6,
      ),
    );
    expect(store.getSnapshot().hold).toMatchObject({
      rules: ['all'],
      timeoutMs: 60_000,
      queue: [{callId: 'b', target: {rect: {width: 3}}}],
      openOnHeld: true,
      seq: 8,
    });
    store.expectHold();
    store.applyHold(holdState([], 9));
    expect(store.log.byCallId('b')?.status).toBe('running');
    expect(store.getSnapshot().hold?.queue).toEqual([]);
  });

  it('applies on top of the fetched state only the hold events it does not include', () => {
    const store = new InspectorStore();
    store.applyBatch(batchOf([startedEvent('a', 'click'), startedEvent('b', 'click')], 1));
    store.expectHold();
    // Events that arrive before the answer wait for it.
    store.applyBatch(
      batchOf(
        [
          {type: 'callHeld', call: held('a')},
          {type: 'callHeld', call: held('b')},
          {type: 'callHoldEnded', callId: 'a', decision: 'denied', heldMs: 1},
        ],
        3,
      ),
    );
    expect(store.getSnapshot().hold).toBeUndefined();
    // The answer was made at seq 6: after all three, and after c was held (seq 6, not yet here).
    store.applyHold(holdState([held('b'), held('c')], 6));
    expect(store.getSnapshot().hold?.queue.map(call => call.callId)).toEqual(['b', 'c']);
    expect(store.log.byCallId('a')?.status).toBe('running');
    expect(store.log.byCallId('b')?.status).toBe('held');
    // The stream catches up: what the state includes changes nothing, what is newer applies.
    store.applyBatch(
      batchOf(
        [
          {type: 'callHeld', call: held('c')},
          {type: 'callHoldEnded', callId: 'b', decision: 'allowed', heldMs: 1},
        ],
        6,
      ),
    );
    expect(store.getSnapshot().hold?.queue.map(call => call.callId)).toEqual(['c']);
    expect(store.log.byCallId('b')?.status).toBe('running');
  });
});

describe('holdModel', () => {
  it('shows the picked call while it is held, else the oldest', () => {
    const queue = [held('a'), held('b')];
    expect(shownCall(queue, 'b')?.callId).toBe('b');
    expect(shownCall(queue, 'gone')?.callId).toBe('a');
    expect(shownCall([], undefined)).toBeUndefined();
  });

  it('maps one key each, but not typed into fields or with modifiers', () => {
    const press = (key: string, tagName = 'BODY', ctrlKey = false) =>
      keyAction({key, ctrlKey, metaKey: false, altKey: false, target: {tagName}});
    expect(['a', 'E', 'd', 's', 'r'].map(key => press(key))).toEqual([
      'allow',
      'edit',
      'deny',
      'step',
      'allowAll',
    ]);
    expect(press('a', 'INPUT')).toBeUndefined();
    expect(press('a', 'TEXTAREA')).toBeUndefined();
    expect(press('a', 'BODY', true)).toBeUndefined();
    expect(press('x')).toBeUndefined();
  });

  it('places the target over a frame of its own page only', () => {
    const call = held('a', {
      target: {param: 'uid', uid: '1_2', rect: {x: 100, y: 50, width: 200, height: 25}},
    });
    const frame = {
      pageId: 3,
      mimeType: 'image/jpeg',
      data: '',
      viewport: {width: 1000, height: 500},
    };
    const outline = targetOutline(call, frame);
    expect(outline?.left).toBeCloseTo(0.1);
    expect(outline?.top).toBeCloseTo(0.1);
    expect(outline?.width).toBeCloseTo(0.2);
    expect(outline?.height).toBeCloseTo(0.05);
    expect(targetOutline(call, {...frame, pageId: 4})).toBeUndefined();
    expect(targetOutline(held('b'), frame)).toBeUndefined();
  });

  it('counts down within the timeout whatever the clocks say', () => {
    expect(secondsLeft(held('a'), 1_000)).toBe(300);
    expect(secondsLeft(held('a'), -5_000)).toBe(300);
    expect(secondsLeft(held('a'), 291_500)).toBe(10);
    expect(secondsLeft(held('a'), 400_000)).toBe(0);
  });

  it('never says calls run at once while some still wait: hold turned off with calls held', () => {
    expect(rulesSummary(holdState([]))).toBe(
      '· on: tool:click (a held call is denied after 300 s)',
    );
    const off = {...holdState([]), rules: []};
    expect(rulesSummary(off)).toBe('· off: agent calls run at once');
    expect(heldWhileOff(off, 1_000)).toBeUndefined();
    const offWithHeld = {...holdState([held('a'), held('b', {deadline: 401_000})]), rules: []};
    expect(rulesSummary(offWithHeld)).toBe('· off for new calls; some are still held');
    expect(heldWhileOff(offWithHeld, 1_000)).toBe(
      'Hold is off: new agent calls run at once. 2 calls are still held; the first is denied in 5 min unless you decide.',
    );
    const one = {...holdState([held('a')]), rules: []};
    expect(heldWhileOff(one, 259_000)).toBe(
      'Hold is off: new agent calls run at once. 1 call is still held and is denied in 42 s unless you decide.',
    );
    // With rules on, held calls are the usual case: nothing to say.
    expect(heldWhileOff(holdState([held('a')]), 1_000)).toBeUndefined();
  });
});
