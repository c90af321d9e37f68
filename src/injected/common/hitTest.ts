/**
 * Hit testing the way the browser dispatches a pointer event. A hit is judged by the path the
 * event takes (its composed path): a node slotted into the target reaches it, and so does a hit on
 * the host of a shadow tree that holds the target (elementFromPoint retargets a hit on a host's
 * slotted text to the host). As Playwright's expectHitTarget, elementsFromPoint is used: it
 * reports slotted text by its slot, where elementFromPoint reports the host.
 */
import {
  MAX_DEPTH,
  MAX_SHADOW_DEPTH,
  contains,
  hostOf,
  isElement,
  parentOf,
  parentOrHost,
  shadowHost,
} from './composedTree.js';

/** What a pointer event at a point reaches, and the elements under it (innermost first). */
export interface Hit {
  hit: Element | null;
  under: Element[];
}

function isDocumentOrShadowRoot(node: Node): node is Document | ShadowRoot {
  return 'elementsFromPoint' in node && typeof node.elementsFromPoint === 'function';
}

/** The elements at (x, y) of one document or shadow root, innermost first. */
function elementsAt(root: Document | ShadowRoot, x: number, y: number): Element[] {
  const elements = root.elementsFromPoint(x, y);
  const single = root.elementFromPoint(x, y);
  const first = elements[0];
  // elementsFromPoint can miss an innermost display:contents element (crbug.com/1342092).
  if (
    single &&
    first &&
    parentOrHost(single) === first &&
    getComputedStyle(single).display === 'contents'
  ) {
    elements.unshift(single);
  }
  return elements;
}

/**
 * What a pointer event at (x, y) of this document reaches, down through the shadow roots on the
 * way to the target (an open or closed root is reachable from inside it), and the elements under
 * the point in the innermost root it reached.
 */
export function hitTest(target: Node, x: number, y: number): Hit {
  const roots: Node[] = [];
  for (let n: Node = target, depth = 0; depth < MAX_SHADOW_DEPTH; depth++) {
    const root = n.getRootNode();
    roots.push(root);
    const host = shadowHost(root);
    if (!host) {
      break;
    }
    n = host;
  }
  let hit: Element | null = null;
  let under: Element[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    const root = roots[i];
    if (!root || !isDocumentOrShadowRoot(root)) {
      break;
    }
    const elements = elementsAt(root, x, y);
    const first = elements[0];
    if (!first) {
      break;
    }
    hit = first;
    under = elements;
    const inner = roots[i - 1];
    if (inner && hit !== shadowHost(inner)) {
      break;
    }
  }
  return {hit, under};
}

export function elementAt(target: Node, x: number, y: number): Element | null {
  return hitTest(target, x, y).hit;
}

/**
 * Why a press on `hit` reaches the target, or '' when it does not: the target itself or inside
 * it, slotted into it, or the host of a shadow tree holding it ('in'); its own <label>, which
 * passes a click on to its control, as for a styled checkbox hidden under it ('label'); for a
 * target that lets pointer events through, what is under it ('through'); its own container when
 * the target cannot be hit there at all (an input hidden in a slider's thumb: 'container').
 * `under` lists the elements at the point; absent, the container rule is not applied.
 */
function reachedBy(
  target: Element,
  hit: Node | null,
  under: readonly Element[] | undefined,
): string {
  if (!hit) {
    return '';
  }
  if (contains(target, hit) || hostOf(hit, target)) {
    return 'in';
  }
  for (let n: Node | null = hit, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
    if (n instanceof HTMLLabelElement && n.control === target) {
      return 'label';
    }
  }
  if (!contains(hit, target)) {
    return '';
  }
  if (getComputedStyle(target).pointerEvents === 'none') {
    return 'through';
  }
  // An ancestor that draws over a target that could be hit there (an overlay of its own, a
  // ::before veil) covers it; one over a target that no hit finds at all is what a user presses.
  return under && !under.includes(target) ? 'container' : '';
}

/** Whether a press on `hit` reaches the target (see reachedBy). */
export function reaches(
  target: Element,
  hit: Node | null,
  under: readonly Element[] | undefined,
): boolean {
  return reachedBy(target, hit, under) !== '';
}

/** A short description of an element: tag, id, two classes, its label or text. */
export function preview(node: Node | null): string {
  if (!node || !isElement(node)) {
    return 'the page';
  }
  let text = node.localName;
  if (node.id) {
    text += '#' + node.id;
  }
  for (const name of [...node.classList].slice(0, 2)) {
    text += '.' + name;
  }
  const aria = node.getAttribute('aria-label');
  // An empty aria-label says nothing: the text then.
  const label = (aria === null || aria === '' ? node.textContent : aria)
    .replace(/\s+/g, ' ')
    .trim();
  return label ? text + ' "' + label.slice(0, 40) + '"' : text;
}

/** Whether the hit is (in) a position:fixed/sticky bar: scrolling may uncover the target. */
export function pinned(hit: Node | null, target: Element): boolean {
  for (
    let n = hit, depth = 0;
    n && depth < MAX_DEPTH && !contains(n, target);
    n = parentOf(n), depth++
  ) {
    const position = isElement(n) ? getComputedStyle(n).position : '';
    if (position === 'fixed' || position === 'sticky') {
      return true;
    }
  }
  return false;
}
