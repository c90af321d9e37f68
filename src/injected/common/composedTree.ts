/**
 * The composed tree, as hit testing sees it: a slotted node's parent is its slot, a shadow root's
 * is its host. Every walk up it is bounded.
 */

/** Bound on the steps of a walk up the composed tree. */
export const MAX_DEPTH = 512;
/** Bound on the shadow roots crossed on the way up from a node. */
export const MAX_SHADOW_DEPTH = 64;

export function isElement(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE;
}

export function isText(node: Node): node is Text {
  return node.nodeType === Node.TEXT_NODE;
}

export function isShadowRoot(node: Node): node is ShadowRoot {
  return node.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in node;
}

/** The host of a shadow root; null for any other node (a document, a detached subtree's top). */
export function shadowHost(root: Node): Element | null {
  return isShadowRoot(root) ? root.host : null;
}

/** The element itself, or a text node's parent element. */
export function elementOf(node: Node): Element | null {
  return isElement(node) ? node : node.parentElement;
}

/** The slot a node is assigned to (only elements and text nodes can be). */
export function assignedSlotOf(node: Node): HTMLSlotElement | null {
  return isElement(node) || isText(node) ? node.assignedSlot : null;
}

/** The parent in the composed tree: a slotted node's slot, a shadow root's host. */
export function parentOf(node: Node): Node | null {
  return assignedSlotOf(node) ?? parentOrHost(node);
}

/** The parent element, or the host for the top of a shadow tree (slots not followed). */
export function parentOrHost(node: Node): Element | null {
  if (node.parentElement) {
    return node.parentElement;
  }
  const parent = node.parentNode;
  return parent ? shadowHost(parent) : null;
}

/** Whether `node` is `ancestor` or below it in the composed tree. */
export function contains(ancestor: Node, node: Node | null): boolean {
  for (let n = node, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
    if (n === ancestor) {
      return true;
    }
  }
  return false;
}

/** Whether `host` is the host of a shadow root on the way up from `target` (open or closed). */
export function hostOf(host: Node, target: Node): boolean {
  for (let n: Node = target, depth = 0; depth < MAX_SHADOW_DEPTH; depth++) {
    const root = shadowHost(n.getRootNode());
    if (!root) {
      return false;
    }
    if (root === host) {
      return true;
    }
    n = root;
  }
  return false;
}

/**
 * The document's root element and head: the DOM types say they are always there, but a document
 * can lack them (one made without, one whose root or head a script removed).
 */
export function documentParts(): {root: HTMLElement | null; head: HTMLHeadElement | null} {
  return {root: document.documentElement, head: document.head};
}
