/**
 * In-page probes of drag (src/core/browser/input/drag.ts): whether the pointer arrived on the
 * source before the press, and how long the target's document has been still during the pause
 * over it.
 */
import {elementOf, isElement} from './common/composedTree.js';
import {mutationState, type MotionEntry} from './common/mutationState.js';

/** Called on a node: whether the pointer is over its element (or one of its descendants). */
export function isHovered(this: Node): boolean {
  const element = elementOf(this);
  return element ? element.matches(':hover') : false;
}

/**
 * Milliseconds since the last DOM change of the document it runs in (the mutation record is made
 * on first use, so the first call, before the press, starts the count). Not counted: attribute
 * writes that changed nothing (a dragover handler adding a class it has), and the style of a
 * ghost following the pointer (fixed, not hit by it), which the pause's own small moves change.
 * When the log lost changes since the last one it kept, any change counts.
 */
export function quietFor(): number {
  const state = mutationState();
  const now = performance.now();
  const {entries, lost} = state.log;
  let last = lost;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (!entry || entry.t <= last) {
      break;
    }
    if (entry.changed && !followsPointer(entry)) {
      last = entry.t;
      break;
    }
  }
  // No change counted since the record began: the document has been quiet since then.
  return now - Math.max(last, state.since);
}

/** An attribute change of an element drawn over the page that the pointer passes through. */
function followsPointer(entry: MotionEntry): boolean {
  const {node} = entry;
  if (entry.kind !== 'attributes' || !node?.isConnected || !isElement(node)) {
    return false;
  }
  const style = getComputedStyle(node);
  return style.position === 'fixed' && style.pointerEvents === 'none';
}
