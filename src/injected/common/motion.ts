/**
 * Whether recent page activity can move an element's box, for the stillness rule of actions (a
 * timer may step an animation between frames). Counted: mutations of the element, its ancestors
 * and anything before it in the document (those can shift it), style sheets, window resizes, and
 * a log that overflowed within the window (what was lost is not known). Not counted: the <title>
 * and other head elements, and changes after the element (a status line under a button).
 */
import {MAX_SHADOW_DEPTH, contains, documentParts, isElement, shadowHost} from './composedTree.js';
import type {MutationState} from './mutationState.js';

/** How far up from a changed node a <style> or <link> holding it is looked for. */
const SHEET_DEPTH = 8;

function inStylesheet(node: Node): boolean {
  for (let n: Node | null = node, depth = 0; n && depth < SHEET_DEPTH; n = n.parentNode, depth++) {
    if (isElement(n) && (n.localName === 'style' || n.localName === 'link')) {
      return true;
    }
  }
  return false;
}

/** Whether a change of `node` can shift `element`: it holds it, is it, or comes before it. */
function canShift(node: Node | null, element: Element): boolean {
  if (!node?.isConnected) {
    return false;
  }
  if (node.nodeType === Node.DOCUMENT_NODE) {
    return true;
  }
  const {head} = documentParts();
  if (head && (node === head || head.contains(node))) {
    return inStylesheet(node);
  }
  if (contains(node, element) || contains(element, node)) {
    return true;
  }
  // Compare within one tree: the element, or the host of the shadow tree it is in.
  let mine: Element | null = element;
  for (
    let depth = 0;
    mine && mine.getRootNode() !== node.getRootNode() && depth < MAX_SHADOW_DEPTH;
    depth++
  ) {
    mine = shadowHost(mine.getRootNode());
  }
  if (!mine) {
    return true;
  }
  return (node.compareDocumentPosition(mine) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
}

/** The newest time (performance.now) of activity in the log since `since` that can shift it. */
export function lastShift(motion: MutationState, element: Element, since: number): number {
  const log = motion.log;
  let last = -Infinity;
  if (log.lost >= since) {
    last = log.lost;
  }
  for (const entry of log.entries) {
    if (entry.t < since || entry.t <= last) {
      continue;
    }
    if (entry.kind === 'resize' || entry.kind === 'sheet' || canShift(entry.node, element)) {
      last = entry.t;
    }
  }
  return last;
}
