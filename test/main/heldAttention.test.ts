/**
 * The desktop's attention for held calls, without Electron: the window flashes and one system
 * notification names the call while the window is in the background; a click brings the Hold tab;
 * both stop when the window is focused or the queue empties; a focused window is left alone.
 */
import {describe, expect, it, vi} from 'vitest';
import {
  heldNotificationText,
  watchHeldCalls,
  type NotificationText,
} from '../../src/main/heldAttention.js';
import type {HeldCall} from '../../src/shared/hold.js';
import type {InspectorEvent} from '../../src/shared/protocol.js';

const NOW = 1_000_000;

function held(callId: string, overrides: Partial<HeldCall> = {}): HeldCall {
  return {
    callId,
    tool: 'click',
    args: {uid: '1_2'},
    client: {id: 'c1', name: 'Claude Code', version: '1.0', transport: 'http'},
    rule: 'not-read-only',
    reason: 'click is not read-only',
    heldAt: NOW,
    deadline: NOW + 300_000,
    ...overrides,
  };
}

function setup(focused: boolean) {
  let emit: (event: InspectorEvent) => void = () => undefined;
  const window = {isFocused: vi.fn(() => focused), flashFrame: vi.fn()};
  const shown: {text: NotificationText; click: () => void; close: ReturnType<typeof vi.fn>}[] = [];
  const showHold = vi.fn();
  const unsubscribe = vi.fn();
  const attention = watchHeldCalls({
    onEvent: listener => {
      emit = listener;
      return unsubscribe;
    },
    window: () => window,
    notify: (text, click) => {
      const entry = {text, click, close: vi.fn()};
      shown.push(entry);
      return entry;
    },
    showHold,
    now: () => NOW,
  });
  const hold = (call: HeldCall): void => emit({type: 'callHeld', call});
  const end = (callId: string): void =>
    emit({type: 'callHoldEnded', callId, decision: 'allowed', heldMs: 5});
  return {attention, window, shown, showHold, unsubscribe, hold, end};
}

describe('held calls get attention from the desktop', () => {
  it('flashes the background window and notifies; a click shows the Hold tab and calms it', () => {
    const {window, shown, showHold, hold} = setup(false);
    hold(held('a'));
    expect(window.flashFrame).toHaveBeenCalledWith(true);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.text).toEqual({
      title: 'click is held for your decision',
      body: 'From Claude Code: click is not read-only. Denied in 5 min unless you decide.',
    });
    shown[0]?.click();
    expect(showHold).toHaveBeenCalledTimes(1);
    expect(window.flashFrame).toHaveBeenLastCalledWith(false);
  });

  it('replaces its one notification as more calls are held, and stops once none is', () => {
    const {window, shown, hold, end} = setup(false);
    hold(held('a'));
    hold(held('b', {tool: 'fill'}));
    expect(shown).toHaveLength(2);
    expect(shown[0]?.close).toHaveBeenCalled();
    expect(shown[1]?.text.title).toBe('2 calls are held for your decision');
    // Flashing started once, not once per call.
    expect(window.flashFrame.mock.calls.filter(([flag]) => flag)).toHaveLength(1);
    end('a');
    expect(shown[1]?.close).not.toHaveBeenCalled();
    end('b');
    expect(shown[1]?.close).toHaveBeenCalled();
    expect(window.flashFrame).toHaveBeenLastCalledWith(false);
  });

  it('stops when the window gets the focus', () => {
    const {attention, window, shown, hold} = setup(false);
    hold(held('a'));
    attention.windowFocused();
    expect(shown[0]?.close).toHaveBeenCalled();
    expect(window.flashFrame).toHaveBeenLastCalledWith(false);
  });

  it('leaves a focused window alone: the person is already looking at it', () => {
    const {window, shown, hold} = setup(true);
    hold(held('a'));
    expect(window.flashFrame).not.toHaveBeenCalled();
    expect(shown).toHaveLength(0);
  });

  it('stops listening on dispose', () => {
    const {attention, unsubscribe} = setup(false);
    attention.dispose();
    expect(unsubscribe).toHaveBeenCalled();
  });
});

describe('the notification text', () => {
  it('says seconds when the deadline is near, and keeps client text to one bounded line', () => {
    const text = heldNotificationText(
      [
        held('a', {
          deadline: NOW + 42_300,
          client: {id: 'x', name: `evil\nname ${'x'.repeat(200)}`, version: '', transport: 'http'},
        }),
      ],
      NOW,
    );
    expect(text?.body).toMatch(/^From evil name x+…: click is not read-only\. Denied in 43 s/);
    expect(text?.body).not.toContain('\n');
    expect(text?.body.length).toBeLessThan(200);
    expect(heldNotificationText([], NOW)).toBeUndefined();
  });
});
