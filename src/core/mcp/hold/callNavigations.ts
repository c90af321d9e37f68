/**
 * The navigations one call makes, watched against the hold's URL rules while it runs: one guard
 * per page the call acts on (its locked page, a tab new_page opens), set up on first use and
 * released when the call ends. Without URL rules nothing is watched and nothing costs.
 */
import {
  guardNavigations,
  OPEN_GUARD,
  type NavigationGuard,
} from '../../browser/navigation/navigationGuard.js';
import type {PageState} from '../../browser/pages/PageState.js';
import type {CallHold} from './CallHold.js';

export class CallNavigations {
  readonly #guards = new Map<PageState, Promise<NavigationGuard>>();

  constructor(private readonly hold: CallHold | undefined) {}

  /** The guard of `page` for the rest of this call; rejects (fail closed) if none can be set. */
  watch(page: PageState): Promise<NavigationGuard> {
    const {hold} = this;
    if (!hold?.watchesNavigations) {
      return Promise.resolve(OPEN_GUARD);
    }
    let guard = this.#guards.get(page);
    if (!guard) {
      guard = guardNavigations(page, hold.navigationCheck(page));
      this.#guards.set(page, guard);
    }
    return guard;
  }

  /** Takes every guard down; the refusal of the first navigation one of them stopped. */
  async release(): Promise<string | undefined> {
    const guards = await Promise.allSettled(this.#guards.values());
    this.#guards.clear();
    let stopped: string | undefined;
    for (const settled of guards) {
      if (settled.status === 'fulfilled') {
        // Released first: a request the call set in motion may still be stopped meanwhile.
        await settled.value.release();
        stopped ??= settled.value.stopped;
      }
    }
    return stopped;
  }
}
