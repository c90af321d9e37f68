/**
 * In-page side of drag (src/core/browser/input/drag.ts): where the dragged element sits among its
 * neighbours, read before the drag and after it, so the answer says where it ended up instead of
 * a bare success.
 */
import {elementOf, isElement} from './common/composedTree.js';

/** How far up the dragged item and its labelled container are looked for. */
const CLIMB_DEPTH = 8;
/** How many unlabelled or hidden siblings are passed over to find a neighbour. */
const SIBLING_LIMIT = 64;
/** Labels are cut to this many characters. */
const LABEL_MAX = 40;

/** The place's shape; src/core/browser/input/dragScript.ts checks it (placeSchema). */
export type Place =
  | {attached: false}
  | {
      attached: true;
      name: string;
      previous: string;
      next: string;
      container: string;
      target: string;
      inTarget: boolean;
      beforeTarget: boolean;
      afterTarget: boolean;
    };

function label(node: Node | null): string {
  if (!node || !isElement(node)) {
    return '';
  }
  const aria = node.getAttribute('aria-label');
  // An empty aria-label says nothing: the text then.
  const text = aria === null || aria === '' ? node.textContent : aria;
  return text.replace(/\s+/g, ' ').trim().slice(0, LABEL_MAX);
}

function shown(element: Element): boolean {
  return element.checkVisibility() && label(element) !== '';
}

/** The nearest shown sibling with text in one direction. */
function sibling(
  from: Element,
  step: 'previousElementSibling' | 'nextElementSibling',
): Element | null {
  let n = from[step];
  for (let count = 0; n && count < SIBLING_LIMIT && !shown(n); count++) {
    n = n[step];
  }
  return n && shown(n) ? n : null;
}

/**
 * Called on the dragged node with the target as argument. The dragged item is the outermost
 * ancestor with the same text (a list item around its label); its neighbours are the nearest
 * shown siblings with text.
 */
export function dragPlace(this: Node, target: Node | undefined): Place {
  let item = elementOf(this);
  if (!item?.isConnected) {
    return {attached: false};
  }
  for (let depth = 0; depth < CLIMB_DEPTH; depth++) {
    const parent: Element | null = item.parentElement;
    if (
      !parent ||
      parent === document.body ||
      parent.childElementCount !== 1 ||
      label(parent) !== label(item)
    ) {
      break;
    }
    item = parent;
  }
  const previous = sibling(item, 'previousElementSibling');
  const next = sibling(item, 'nextElementSibling');
  const goal = target ? elementOf(target) : null;
  let container = item.parentElement;
  for (
    let depth = 0;
    container && depth < CLIMB_DEPTH && !container.getAttribute('aria-label') && container !== goal;
    depth++
  ) {
    container = container.parentElement;
  }
  return {
    attached: true,
    name: label(item),
    previous: label(previous),
    next: label(next),
    container: label(container),
    target: label(goal),
    inTarget: !!goal && goal !== item && goal.contains(item) && !item.contains(goal),
    beforeTarget: !!goal && !!next && (next === goal || next.contains(goal)),
    afterTarget: !!goal && !!previous && (previous === goal || previous.contains(goal)),
  };
}
