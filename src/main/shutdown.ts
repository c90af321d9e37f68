/**
 * Quitting: stop the engine (which closes a browser the app launched and disconnects from one it
 * attached to) before the process exits, but never wait without bound — a browser that refuses to
 * close must not keep a window-less app alive.
 */
import {errorText} from '../shared/values.js';

export const ENGINE_STOP_TIMEOUT_MS = 8_000;

export type StopOutcome = 'stopped' | 'timed-out' | 'failed';

export async function stopWithin(
  stop: () => Promise<void>,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<StopOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<StopOutcome>(resolve => {
    timer = setTimeout(() => resolve('timed-out'), timeoutMs);
  });
  const stopped = stop().then(
    (): StopOutcome => 'stopped',
    (error: unknown): StopOutcome => {
      log(`Stopping the engine failed: ${errorText(error)}`);
      return 'failed';
    },
  );
  const outcome = await Promise.race([stopped, timeout]);
  clearTimeout(timer);
  if (outcome === 'timed-out') {
    log(`The engine did not stop within ${Math.round(timeoutMs / 1000)} s; quitting anyway.`);
  }
  return outcome;
}

/**
 * The before-quit gate: the first quit request is held until `stop` finished (or timed out), then
 * the quit is repeated and let through. Later requests while stopping are held too.
 */
export function createQuitGate(
  stop: () => Promise<unknown>,
  quit: () => void,
): (event: {preventDefault(): void}) => void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  return event => {
    if (state === 'stopped') {
      return;
    }
    event.preventDefault();
    if (state === 'stopping') {
      return;
    }
    state = 'stopping';
    void stop()
      .catch(() => undefined)
      .finally(() => {
        state = 'stopped';
        quit();
      });
  };
}
