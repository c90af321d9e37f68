/**
 * In-page side of get_css_styles (src/core/browser/css/collect.ts): the element whose styles are
 * read (a text node is styled through its parent) and DevTools' short label of it and of its
 * flat-tree ancestors.
 */

/** Called on the node the uid names: itself when an element, else its parent element (or null). */
export function styledElementOf(this: Node): Node | null {
  return this.nodeType === Node.ELEMENT_NODE ? this : this.parentElement;
}

/** DevTools' short element label: tag#id, tag.classes (no tag for a div), input[type="…"], tag. */
function elementLabel(element: Element): string {
  const tag = element.localName;
  const id = element.getAttribute('id');
  const classes = (element.getAttribute('class') ?? '').trim();
  const type = element.getAttribute('type');
  if (tag === 'input' && type && !id && !classes) {
    return tag + '[type="' + CSS.escape(type) + '"]';
  }
  if (id) {
    return tag + '#' + CSS.escape(id);
  }
  if (classes) {
    return (
      (tag === 'div' ? '' : tag) +
      '.' +
      classes
        .split(/\s+/)
        .map(name => CSS.escape(name))
        .join('.')
    );
  }
  return tag;
}

/** The element's parent in the flat tree: its slot, its parent element, or its shadow host. */
function flatTreeParent(element: Element): Element | null {
  return (
    element.assignedSlot ??
    element.parentElement ??
    (element.parentNode instanceof ShadowRoot ? element.parentNode.host : null)
  );
}

/** Called on an element: its label and its flat-tree ancestors' labels, nearest first. */
export function describeElement(this: Element): {selector: string; ancestors: string[]} {
  const ancestors: string[] = [];
  for (let node = flatTreeParent(this); node; node = flatTreeParent(node)) {
    ancestors.push(elementLabel(node));
  }
  return {selector: elementLabel(this), ancestors};
}
