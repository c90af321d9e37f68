/**
 * What clips an element: the part of its box inside every scrolling or clipping ancestor and the
 * viewport (a list with overflow: auto hides the rows scrolled out of it, though they are inside
 * the viewport). A position:fixed element escapes its ancestors' clips.
 */
import {MAX_DEPTH, isElement, parentOf} from './composedTree.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return {x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y)};
}

/** The part of `rect` (the element's box) that its clipping ancestors and the viewport show. */
export function clipped(element: Element, rect: Box, view: Size): Box {
  let visible = intersect(rect, {x: 0, y: 0, width: view.width, height: view.height});
  const scrolling = document.scrollingElement;
  for (let n: Node | null = element, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
    if (!isElement(n)) {
      continue;
    }
    const style = getComputedStyle(n);
    if (n !== element && n !== scrolling && n !== document.body && n !== document.documentElement) {
      const clipX = style.overflowX !== 'visible';
      const clipY = style.overflowY !== 'visible';
      if (clipX || clipY) {
        const box = n.getBoundingClientRect();
        visible = intersect(visible, {
          x: clipX ? box.x + n.clientLeft : -Infinity,
          y: clipY ? box.y + n.clientTop : -Infinity,
          width: clipX ? n.clientWidth : Infinity,
          height: clipY ? n.clientHeight : Infinity,
        });
      }
    }
    if (style.position === 'fixed') {
      break;
    }
  }
  return visible;
}
