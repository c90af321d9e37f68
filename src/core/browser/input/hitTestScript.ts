/**
 * In-page helpers the actionability functions share (pasted into each: every call is
 * self-contained): the composed tree, hit testing the way the browser dispatches a pointer event,
 * whether a hit reaches the target, what clips the target, and what can move its box.
 */

/**
 * The composed tree and hit testing. A hit is judged by the path the event takes (its composed
 * path): a node slotted into the target reaches it, and so does a hit on the host of a shadow
 * tree that holds the target (elementFromPoint retargets a hit on a host's slotted text to the
 * host). As Playwright's expectHitTarget, elementsFromPoint is used: it reports slotted text by
 * its slot, where elementFromPoint reports the host.
 */
export const HIT_TEST_HELPERS = `
  const MAX_DEPTH = 512;
  // The composed tree, as hit testing sees it: a slotted node's parent is its slot, a shadow
  // root's is its host.
  const parentOf = node => {
    if (node.assignedSlot) return node.assignedSlot;
    if (node.parentElement) return node.parentElement;
    const parent = node.parentNode;
    return parent && parent.nodeType === 11 && parent.host ? parent.host : null;
  };
  const parentOrHost = node => {
    if (node.parentElement) return node.parentElement;
    const parent = node.parentNode;
    return parent && parent.nodeType === 11 && parent.host ? parent.host : null;
  };
  const contains = (ancestor, node) => {
    for (let n = node, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
      if (n === ancestor) return true;
    }
    return false;
  };
  // Whether 'host' is the host of a shadow root on the way up from 'target' (open or closed).
  const hostOf = (host, target) => {
    for (let n = target, depth = 0; n && depth < 64; depth++) {
      const root = n.getRootNode();
      if (!root.host) return false;
      if (root.host === host) return true;
      n = root.host;
    }
    return false;
  };
  // The elements at (x, y) of one document or shadow root, innermost first.
  const elementsAt = (root, x, y) => {
    const elements = root.elementsFromPoint(x, y);
    const single = root.elementFromPoint(x, y);
    // elementsFromPoint can miss an innermost display:contents element (crbug.com/1342092).
    if (single && elements[0] && parentOrHost(single) === elements[0] && getComputedStyle(single).display === 'contents') elements.unshift(single);
    return elements;
  };
  // What a pointer event at (x, y) of this document reaches, down through the shadow roots on
  // the way to the target (an open or closed root is reachable from inside it), and the elements
  // under the point in the innermost root it reached.
  const hitTest = (target, x, y) => {
    const roots = [];
    for (let n = target, depth = 0; n && depth < 64; depth++) {
      const root = n.getRootNode();
      roots.push(root);
      if (!root.host) break;
      n = root.host;
    }
    let hit = null;
    let under = [];
    for (let i = roots.length - 1; i >= 0; i--) {
      const root = roots[i];
      if (typeof root.elementsFromPoint !== 'function') break;
      const elements = elementsAt(root, x, y);
      if (!elements[0]) break;
      hit = elements[0];
      under = elements;
      if (i > 0 && hit !== roots[i - 1].host) break;
    }
    return {hit, under};
  };
  const elementAt = (target, x, y) => hitTest(target, x, y).hit;
  // Why a press on 'hit' reaches the target, or '' when it does not: the target itself or inside
  // it, slotted into it, or the host of a shadow tree holding it ('in'); its own <label>, which
  // passes a click on to its control, as for a styled checkbox hidden under it ('label'); for a
  // target that lets pointer events through, what is under it ('through'); its own container when
  // the target cannot be hit there at all (an input hidden in a slider's thumb: 'container').
  // 'under' lists the elements at the point; absent, the container rule is not applied.
  const reachedBy = (target, hit, under) => {
    if (!hit) return '';
    if (contains(target, hit) || hostOf(hit, target)) return 'in';
    for (let n = hit, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
      if (n instanceof HTMLLabelElement && n.control === target) return 'label';
    }
    if (!contains(hit, target)) return '';
    if (getComputedStyle(target).pointerEvents === 'none') return 'through';
    // An ancestor that draws over a target that could be hit there (an overlay of its own, a
    // ::before veil) covers it; one over a target that no hit finds at all is what a user presses.
    return under && !under.includes(target) ? 'container' : '';
  };
  const reaches = (target, hit, under) => reachedBy(target, hit, under) !== '';
  const preview = element => {
    if (!element || element.nodeType !== 1) return 'the page';
    let text = element.localName;
    if (element.id) text += '#' + element.id;
    for (const name of [...element.classList].slice(0, 2)) text += '.' + name;
    const label = (element.getAttribute('aria-label') || element.textContent || '').replace(/\\s+/g, ' ').trim();
    return label ? text + ' "' + label.slice(0, 40) + '"' : text;
  };
  // Outside the viewport or under a position:fixed/sticky bar: scrolling may uncover it.
  const pinned = (hit, target) => {
    for (let n = hit, depth = 0; n && depth < MAX_DEPTH && !contains(n, target); n = parentOf(n), depth++) {
      const position = n.nodeType === 1 ? getComputedStyle(n).position : '';
      if (position === 'fixed' || position === 'sticky') return true;
    }
    return false;
  };
`;

/**
 * What clips the element: the part of its box inside every scrolling or clipping ancestor and the
 * viewport (a list with overflow: auto hides the rows scrolled out of it, though they are inside
 * the viewport). A position:fixed element escapes its ancestors' clips.
 */
export const CLIP_HELPERS = `
  const intersect = (a, b) => {
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    const right = Math.min(a.x + a.width, b.x + b.width);
    const bottom = Math.min(a.y + a.height, b.y + b.height);
    return {x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y)};
  };
  const clipped = (element, rect, view) => {
    let visible = intersect(rect, {x: 0, y: 0, width: view.width, height: view.height});
    const scrolling = document.scrollingElement;
    for (let n = element, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
      if (n.nodeType !== 1) continue;
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
      if (style.position === 'fixed') break;
    }
    return visible;
  };
`;

/**
 * Whether recent page activity can move the element's box, for the stillness rule (a timer may
 * step an animation between frames). Counted: mutations of the element, its ancestors and
 * anything before it in the document (those can shift it), style sheets, window resizes, and a
 * log that overflowed within the window (what was lost is not known). Not counted: the <title>
 * and other head elements, and changes after the element (a status line under a button).
 */
export const MOTION_HELPERS = `
  const stylesheet = node => {
    for (let n = node, depth = 0; n && depth < 8; n = n.parentNode, depth++) {
      if (n.nodeType === 1 && (n.localName === 'style' || n.localName === 'link')) return true;
    }
    return false;
  };
  // Whether a change of 'node' can shift 'element': it holds it, is it, or comes before it.
  const canShift = (node, element) => {
    if (!node || !node.isConnected) return false;
    if (node.nodeType === 9) return true;
    const head = document.head;
    if (head && (node === head || head.contains(node))) return stylesheet(node);
    if (contains(node, element) || contains(element, node)) return true;
    // Compare within one tree: the element, or the host of the shadow tree it is in.
    let mine = element;
    for (let depth = 0; mine && mine.getRootNode() !== node.getRootNode() && depth < 64; depth++) {
      mine = mine.getRootNode().host;
    }
    if (!mine) return true;
    return (node.compareDocumentPosition(mine) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  };
  // The newest time (performance.now) of activity in the log that can shift the element.
  const lastShift = (motion, element, since) => {
    const log = motion.log;
    if (!log) return motion.t;
    let last = -Infinity;
    if (log.lost >= since) last = log.lost;
    for (const entry of log.entries) {
      if (entry.t < since || entry.t <= last) continue;
      if (entry.kind === 'resize' || entry.kind === 'sheet' || canShift(entry.node, element)) last = entry.t;
    }
    return last;
  };
`;
