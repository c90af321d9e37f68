/**
 * In-page probes of drag (src/core/browser/input/drag.ts): whether the pointer arrived on the
 * source before the press, and how long the target's document has been still during the pause
 * over it.
 */
import {elementOf} from './common/composedTree.js';
import {mutationState} from './common/mutationState.js';

/** Called on a node: whether the pointer is over its element (or one of its descendants). */
export function isHovered(this: Node): boolean {
  const element = elementOf(this);
  return element ? element.matches(':hover') : false;
}

/**
 * Milliseconds since the last DOM change of the document it runs in (the mutation record is made
 * on first use, so the first call, before the press, starts the count).
 */
export function quietFor(): number {
  return performance.now() - mutationState().t;
}
