/**
 * The Hold panel says who decided a held call: the inspector, or the client that was asked too
 * (its own prompt), for the calls decided while the panel watched.
 *
 * Tests: src/renderer/src/store/HoldTracker.ts, src/renderer/src/store/CallLog.ts
 */
import {describe, expect, it} from 'vitest';
import {CallLog} from '../../src/renderer/src/store/CallLog.js';
import {HoldTracker} from '../../src/renderer/src/store/HoldTracker.js';
import type {HeldCall} from '../../src/shared/hold.js';

function held(callId: string): HeldCall {
  return {
    callId,
    tool: 'navigate_page',
    args: {url: 'https://example.org'},
    client: {id: 'c1', name: 'gemini-cli', version: '1', transport: 'http'},
    rule: 'tool:navigate_page',
    reason: 'navigate_page is held',
    heldAt: 1,
    deadline: 100,
    askedInClient: true,
  };
}

describe('decided calls', () => {
  it('keeps where each held call was decided, newest first', () => {
    const tracker = new HoldTracker(new CallLog());
    tracker.applyState({
      rules: ['tool:navigate_page'],
      timeoutMs: 100,
      queue: [],
      openOnHeld: false,
      seq: 0,
    });
    tracker.applyEvent(1, {type: 'callHeld', call: held('a')}, 10);
    tracker.applyEvent(2, {type: 'callHeld', call: held('b')}, 11);
    tracker.applyEvent(
      3,
      {type: 'callHoldEnded', callId: 'a', decision: 'allowed', heldMs: 5, decidedIn: 'client'},
      20,
    );
    const state = tracker.applyEvent(
      4,
      {
        type: 'callHoldEnded',
        callId: 'b',
        decision: 'denied',
        heldMs: 6,
        decidedIn: 'inspector',
        reason: 'no',
      },
      21,
    );
    expect(state?.queue).toEqual([]);
    expect(
      state?.decided.map(call => [call.callId, call.decision, call.decidedIn, call.at]),
    ).toEqual([
      ['b', 'denied', 'inspector', 21],
      ['a', 'allowed', 'client', 20],
    ]);
    // An end the UI already had (an older event) adds nothing.
    expect(
      tracker.applyEvent(4, {type: 'callHoldEnded', callId: 'b', decision: 'denied', heldMs: 6}, 22)
        ?.decided,
    ).toHaveLength(2);
  });
});
