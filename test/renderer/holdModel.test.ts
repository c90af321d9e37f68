/**
 * The Hold panel's pure parts and the store's view of the hold queue: log rows held while queued
 * and running again once released; the shown call, the keys (not while typing), the outline and
 * the countdown.
 */
import {describe, expect, it} from 'vitest';
import {
  keyAction,
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

function holdState(queue: HeldCall[]): HoldState {
  return {rules: ['tool:click'], timeoutMs: 300_000, queue};
}

describe('hold in the store', () => {
  it('shows queued calls as held in the log, and running again once released', () => {
    const store = new InspectorStore();
    store.applyBatch(
      batchOf(
        [
          startedEvent('a', 'click'),
          startedEvent('b', 'click'),
          {type: 'holdChanged', state: holdState([held('a'), held('b')])},
        ],
        1,
      ),
    );
    expect(store.log.byCallId('a')?.status).toBe('held');
    expect(store.log.byCallId('b')?.status).toBe('held');
    expect(store.getSnapshot().hold?.queue).toHaveLength(2);
    store.applyBatch(batchOf([{type: 'holdChanged', state: holdState([held('b')])}], 4));
    expect(store.log.byCallId('a')?.status).toBe('running');
    expect(store.log.byCallId('b')?.status).toBe('held');
    store.applyHold(holdState([]));
    expect(store.log.byCallId('b')?.status).toBe('running');
    expect(store.getSnapshot().hold?.queue).toEqual([]);
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
});
