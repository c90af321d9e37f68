import {describe, expect, it, vi} from 'vitest';
import {createQuitGate, stopWithin} from '../../src/main/shutdown.js';

describe('bounded engine stop', () => {
  it('reports a clean stop', async () => {
    const log = vi.fn();
    expect(await stopWithin(() => Promise.resolve(), 1_000, log)).toBe('stopped');
    expect(log).not.toHaveBeenCalled();
  });

  it('gives up after the timeout when the browser hangs', async () => {
    vi.useFakeTimers();
    try {
      const log = vi.fn();
      let outcome: string | undefined;
      void stopWithin(() => new Promise(() => undefined), 5_000, log).then(
        value => (outcome = value),
      );
      await vi.advanceTimersByTimeAsync(4_999);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBe('timed-out');
      expect(log).toHaveBeenCalledWith(expect.stringContaining('quitting anyway'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs a failed stop and still lets the app quit', async () => {
    const log = vi.fn();
    expect(await stopWithin(() => Promise.reject(new Error('boom')), 1_000, log)).toBe('failed');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('boom'));
  });
});

describe('quit gate', () => {
  it('holds the first quit until the engine stopped, then quits once', async () => {
    let finish: () => void = () => undefined;
    const stop = vi.fn(() => new Promise<void>(resolve => (finish = resolve)));
    const quit = vi.fn();
    const gate = createQuitGate(stop, quit);
    const first = {preventDefault: vi.fn()};
    gate(first);
    const second = {preventDefault: vi.fn()};
    gate(second);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(second.preventDefault).toHaveBeenCalled();
    expect(stop).toHaveBeenCalledTimes(1);
    expect(quit).not.toHaveBeenCalled();
    finish();
    await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
    const final = {preventDefault: vi.fn()};
    gate(final);
    expect(final.preventDefault).not.toHaveBeenCalled();
  });

  it('quits even when stopping failed', async () => {
    const quit = vi.fn();
    createQuitGate(() => Promise.reject(new Error('x')), quit)({preventDefault: () => undefined});
    await vi.waitFor(() => expect(quit).toHaveBeenCalled());
  });
});
