/**
 * From the tree probe's change log to the roots of the subtrees to read again (treeChanges.ts):
 * relations (labels, ids named elsewhere, siblings style rules reach), the block that holds a
 * line of text, deduplication and the size bounds; or why the change cannot be scoped.
 */
import {assignedSlotOf, documentParts, isElement, isShadowRoot, isText} from './composedTree.js';
import {IDREF_ATTRIBUTES} from './probeRecords.js';
import {isLiveRoot, markDirty, parentNodeOrHost, type TreeProbe} from './probeState.js';
import type {StyleDependence} from './styleRules.js';

/** How a root is read again: its subtree, its own node and child list, or its node. */
type PlaceKind = 'self' | 'children' | 'tree';

/** The roots to read again (each with its anchor or null), one kind letter each; or why not. */
export interface ScopedChange {
  full: string;
  roots: (Node | null)[];
  kinds: string;
  frames: boolean;
}

const IDREF_SELECTOR = IDREF_ATTRIBUTES.map(name => `[${name}]`).join(',');
const LABELABLE = 'button,input,meter,output,progress,select,textarea';
const FRAME_SELECTOR = 'iframe,frame,object,embed';
const FRAME = /^(iframe|frame|object|embed)$/;
/** Replaced elements and form controls are atomic even when display says inline. */
const ATOMIC =
  /^(img|iframe|video|audio|canvas|embed|object|input|button|select|textarea|svg|math|meter|progress)$/;
/** Elements whose accessibility children are not simply their DOM children. */
const OWN_STRUCTURE =
  /^(select|details|datalist|optgroup|fieldset|video|audio|picture|object|textarea|input|meter|progress|ol|ul|menu|map|ruby)$/;
/**
 * Table cells, rows or sections outside their table get anonymous table boxes that reach their
 * siblings: not scoped.
 */
const TABLE_PART = /^(td|th|tr|tbody|thead|tfoot|caption|col|colgroup)$/;
const TABLE_HOLDER = /^(table|tbody|thead|tfoot|tr|colgroup)$/;
const PLACE_RANK: Record<PlaceKind, number> = {self: 1, children: 2, tree: 3};
/** Bound on the steps of a walk up. */
const MAX_DEPTH = 512;
/** Most ids collected from changed subtrees before the change counts as too large. */
const ID_LIMIT = 2000;
/** Controls inside one label marked. */
const LABEL_CONTROL_LIMIT = 50;
/** Most subtree roots a scoped change may have. */
const ROOT_LIMIT = 150;
/** Elements below the roots a scoped change may cover (or this share of the document). */
const ELEMENT_LIMIT = 600;
const ELEMENT_SHARE = 0.1;

export function unscoped(full: string): ScopedChange {
  return {full, roots: [], kinds: '', frames: false};
}

/** Siblings may match rules through + ~ :nth-child: an attribute change reaches them. */
function markSiblings(probe: TreeProbe): void {
  for (const [node, kind] of [...probe.dirty]) {
    if (kind === 'attr' && node.parentNode) {
      for (const sibling of node.parentNode.children) {
        if (probe.dirty.get(sibling) !== 'attr') {
          markDirty(probe, sibling, 'tree');
        }
      }
    }
  }
}

/** Labels around a changed node name their control, and every control inside them. */
function markLabelControls(probe: TreeProbe, label: Element): void {
  // One that stopped being the first labelable descendant (a field inserted before it) loses
  // the label's name.
  const control = label instanceof HTMLLabelElement ? label.control : null;
  if (control) {
    markDirty(probe, control, 'self');
  }
  let count = 0;
  for (const inner of label.querySelectorAll(LABELABLE)) {
    if (++count > LABEL_CONTROL_LIMIT) {
      break;
    }
    markDirty(probe, inner, 'self');
  }
}

function referrersOf(probe: TreeProbe): Element[] {
  const referrers: Element[] = [];
  for (const root of probe.roots) {
    if (isLiveRoot(root)) {
      referrers.push(...root.querySelectorAll(IDREF_SELECTOR));
    }
  }
  return referrers;
}

/** Relations: labels around a changed node, elements that name a changed one by id. */
function markRelations(probe: TreeProbe): string {
  const referrers = referrersOf(probe);
  const ids = new Set(probe.removedIds ?? []);
  const collect = (element: Element): void => {
    if (element.id) {
      ids.add(element.id);
    }
  };
  if (referrers.length > 0) {
    if (probe.removedMany) {
      return 'many removed elements';
    }
    for (const element of probe.removed) {
      collect(element);
      element.querySelectorAll('[id]').forEach(collect);
    }
  }
  for (const [node, kind] of [...probe.dirty]) {
    if (!node.isConnected) {
      continue;
    }
    if (referrers.length > 0 && kind !== 'self' && isElement(node)) {
      for (const inner of node.querySelectorAll('[id]')) {
        collect(inner);
        if (ids.size > ID_LIMIT) {
          return 'many ids';
        }
      }
    }
    for (
      let up: Node | null = node, depth = 0;
      up && depth < MAX_DEPTH;
      up = parentNodeOrHost(up), depth++
    ) {
      if (!isElement(up)) {
        continue;
      }
      if (referrers.length > 0) {
        collect(up);
      }
      if (up.localName === 'label') {
        markLabelControls(probe, up);
      }
    }
  }
  if (ids.size > 0) {
    for (const element of referrers) {
      const names = IDREF_ATTRIBUTES.some(name =>
        (element.getAttribute(name) ?? '').split(/\s+/).some(token => ids.has(token)),
      );
      if (names) {
        markDirty(probe, element, 'tree');
      }
    }
  }
  return '';
}

/** The parent in the flat tree: a slotted node's slot, a shadow root's host. */
function flatParent(node: Node): Node | null {
  return assignedSlotOf(node) ?? parentNodeOrHost(node);
}

/** Whether an element flows in the line of its parent's text (not a block, not atomic). */
function flows(element: Element): boolean {
  if (ATOMIC.test(element.localName)) {
    return false;
  }
  const display = getComputedStyle(element).display;
  return display === 'inline' || display === 'contents' || display.startsWith('ruby');
}

/**
 * Text that can run into a neighbour: spaces collapse across inline boxes, not across atomic
 * ones (a button, an image, an iframe) or blocks, whose whitespace-only neighbours the child
 * lists show. Counted as the tree shows them: whitespace between rows or list items is not a
 * child there (a 2,000-row tbody has 4,001 child nodes), so only elements and text count.
 */
function inlineChildren(element: Element): boolean {
  let counted = 0;
  let seen = 0;
  for (const child of element.childNodes) {
    if (++seen > 20000) {
      return true;
    }
    if (isText(child)) {
      if (/\S/.test(child.data)) {
        return true;
      }
    } else if (isElement(child)) {
      if (++counted > 3000 || flows(child)) {
        return true;
      }
    }
  }
  return false;
}

function misplacedParts(node: Node | null): boolean {
  if (
    !node ||
    !isElement(node) ||
    TABLE_HOLDER.test(node.localName) ||
    node.children.length > 3000
  ) {
    return false;
  }
  for (const child of node.children) {
    if (TABLE_PART.test(child.localName)) {
      return true;
    }
  }
  return false;
}

/** The block that holds the line a node is in (text flows with the text around it). */
function lineOf(node: Node, html: Element | null): Element | null {
  let up = flatParent(node);
  for (
    let depth = 0;
    up && isElement(up) && up !== html && depth < MAX_DEPTH && flows(up);
    depth++
  ) {
    up = flatParent(up);
  }
  return up && isElement(up) ? up : html;
}

/**
 * Where each change is read. Text flows with the text around it in its line (spaces collapse
 * across elements), so a text change, or an element that may have left or joined a line, is
 * read with the whole block that holds the line. '' and the places, or why it cannot be scoped.
 */
function placeChanges(probe: TreeProbe): Map<Node, PlaceKind> | string {
  const {root: html, head} = documentParts();
  const where = new Map<Node, PlaceKind>();
  const put = (node: Node | null, kind: PlaceKind): void => {
    if (!node) {
      return;
    }
    const had = where.get(node);
    if (!had || PLACE_RANK[kind] > PLACE_RANK[had]) {
      where.set(node, kind);
    }
  };
  for (const [node, kind] of probe.dirty) {
    if (!node.isConnected) {
      continue;
    }
    if (head?.contains(node)) {
      put(html, 'children');
      continue;
    }
    if (kind !== 'self' && misplacedParts(kind === 'children' ? node : flatParent(node))) {
      return 'table parts outside a table';
    }
    if (kind === 'text') {
      put(lineOf(node, html), 'tree');
    } else if (kind === 'attr') {
      put(node, 'tree');
      const parent = flatParent(node);
      if (parent && isElement(parent) && (flows(parent) || inlineChildren(parent))) {
        put(lineOf(node, html), 'tree');
      }
    } else if (kind === 'children') {
      if (!isElement(node)) {
        continue;
      }
      if (node.shadowRoot || OWN_STRUCTURE.test(node.localName)) {
        put(node, 'tree');
      } else if (flows(node)) {
        put(lineOf(node, html), 'tree');
      } else if (inlineChildren(node)) {
        put(node, 'tree');
      } else {
        put(node, 'children');
      }
    } else if (kind === 'self' && isElement(node) && OWN_STRUCTURE.test(node.localName)) {
      // Focus on a <select> marks the option its popup shows as active.
      put(node, 'tree');
    } else {
      put(node, kind);
    }
  }
  return where;
}

/** A node of a child list or a node read alone: a small child of it leads to its ancestors. */
function anchorOf(node: Node): Node | null {
  if (!isElement(node)) {
    return null;
  }
  let count = 0;
  for (let child = node.firstChild; child && count < 20; child = child.nextSibling, count++) {
    if (isText(child) ? /\S/.test(child.data) : isElement(child) && child.childElementCount <= 20) {
      return child;
    }
  }
  return node.firstChild;
}

/** Whether an element holds a frame (also inside the open shadow roots below it). */
function holdsFrame(probe: TreeProbe, element: Element): boolean {
  if (FRAME.test(element.localName) || element.querySelector(FRAME_SELECTOR)) {
    return true;
  }
  for (const root of probe.roots) {
    if (isShadowRoot(root) && element.contains(root.host) && root.querySelector(FRAME_SELECTOR)) {
      return true;
    }
  }
  return false;
}

/** Deduplicated (a node under a subtree root is read with it) and bounded. */
function rootsOf(probe: TreeProbe, where: Map<Node, PlaceKind>): ScopedChange {
  const html = documentParts().root;
  const roots: (Node | null)[] = [];
  let kinds = '';
  let elements = 0;
  let frames = false;
  for (const [node, kind] of where) {
    if (kind === 'tree' && (node === html || node === document.body)) {
      return unscoped('the whole document');
    }
    let covered = false;
    for (
      let up = parentNodeOrHost(node), depth = 0;
      up && depth < MAX_DEPTH;
      up = parentNodeOrHost(up), depth++
    ) {
      if (where.get(up) === 'tree') {
        covered = true;
        break;
      }
    }
    if (covered) {
      continue;
    }
    roots.push(node, kind === 'tree' ? null : anchorOf(node));
    kinds += kind === 'tree' ? 't' : kind === 'children' ? 'c' : 's';
    if (kind === 'tree' && isElement(node)) {
      elements += 1 + node.getElementsByTagName('*').length;
      if (holdsFrame(probe, node)) {
        frames = true;
      }
    }
  }
  const total = document.getElementsByTagName('*').length;
  if (kinds.length > ROOT_LIMIT || elements > Math.max(ELEMENT_LIMIT, total * ELEMENT_SHARE)) {
    return unscoped('a large change');
  }
  return {full: '', roots, kinds, frames};
}

/** The roots of what the log holds, or why it cannot be scoped. */
export function scopeChanges(probe: TreeProbe, css: StyleDependence): ScopedChange {
  if (css.structural) {
    markSiblings(probe);
  }
  const related = markRelations(probe);
  if (related) {
    return unscoped(related);
  }
  if (probe.full) {
    return unscoped(probe.full);
  }
  const where = placeChanges(probe);
  return typeof where === 'string' ? unscoped(where) : rootsOf(probe, where);
}
