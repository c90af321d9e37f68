/**
 * Bounds on work the browser does for the engine (building an accessibility tree, answering a
 * read), as opposed to waits on the page's own behaviour. A loaded machine makes that work many
 * times slower; a fixed bound would then fail a call the browser was about to finish. So each
 * bound is its quiet-machine value times the measured slowness (runnable processes per core, and
 * the page's emulated CPU slowdown), and all of one call's bounds share one deadline shorter than
 * the lock wait the call makes other calls on the page do.
 */
import os from 'node:os';
import {MAX_EVALUATION_TIMEOUT_MS} from './evaluation.js';
import type {PageState} from './pages/PageState.js';
import {slowdownFeature} from './timeouts.js';

/** What slowness was measured, for the notes and errors that mention it. */
export interface Slowness {
  /** How many times slower than a quiet machine (at least 1). */
  factor: number;
  /** One-minute load average and cores, as measured. */
  load: number;
  cores: number;
}

export function measureSlowness(state: PageState): Slowness {
  const cores = Math.max(1, os.availableParallelism());
  const load = os.loadavg()[0] ?? 0;
  const machine = Math.max(1, load / cores);
  const cpu = Math.max(1, slowdownFeature.get(state).cpu);
  return {factor: machine * cpu, load, cores};
}

/** "the machine is busy (load 24.1 on 2 cores)", or '' on a quiet one. */
export function describeSlowness(slowness: Slowness): string {
  return slowness.factor >= 2
    ? `the machine is busy (load ${slowness.load.toFixed(1)} on ${slowness.cores} cores)`
    : '';
}

/** One call's bounds on browser work: each scaled, all within one deadline. */
export class WorkBudget {
  readonly slowness: Slowness;
  readonly #deadline: number;

  constructor(state: PageState, totalMs = MAX_EVALUATION_TIMEOUT_MS) {
    this.slowness = measureSlowness(state);
    this.#deadline = Date.now() + totalMs;
  }

  /** The bound for one piece of work that takes up to `quietMs` on a quiet machine. */
  bound(quietMs: number): number {
    const left = this.#deadline - Date.now();
    return Math.max(1, Math.round(Math.min(quietMs * this.slowness.factor, left)));
  }
}
