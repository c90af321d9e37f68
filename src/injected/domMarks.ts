/**
 * In-page side of the DOM marks the snapshot adds to the accessibility tree
 * (src/core/browser/snapshot/pageProbe.ts reads them): elements with `aria-current`, `aria-sort`
 * or `aria-valuetext`, which the AX properties do not carry (or, for the last, not always);
 * controls that aria-hidden removes from the AX tree although a sighted user sees and can click
 * them; and the grids' row and column indices and counts (common/gridMarks.ts). Searched in the
 * document and the open shadow roots the tree probe observes.
 */
import {findGridMarks, type MarkList} from './common/gridMarks.js';
import {findTreeProbe, isLiveRoot, type ProbeRoot} from './common/probeState.js';

const CONTROLS =
  'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[role=option],[tabindex]:not([tabindex="-1"])';
const ARIA_MARKS =
  '[aria-current]:not([aria-current="false"]),[aria-sort]:not([aria-sort="none"]),[aria-valuetext]';
/** Ancestors looked at for one that clips the control away. */
const CLIP_DEPTH = 40;
/** Longest name given for a hidden control. */
const NAME_LENGTH = 200;

function inputRole(type: string): string {
  if (type === 'checkbox' || type === 'radio') {
    return type;
  }
  if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') {
    return 'button';
  }
  return type === 'range' ? 'slider' : 'textbox';
}

/** The control's role, roughly as Chromium would give it. */
function roleOf(element: Element): string {
  const explicit = (element.getAttribute('role') ?? '').split(' ')[0];
  if (explicit) {
    return explicit;
  }
  const tag = element.localName;
  if (tag === 'a') {
    return 'link';
  }
  if (tag === 'select') {
    return 'combobox';
  }
  if (tag === 'textarea') {
    return 'textbox';
  }
  if (tag === 'summary') {
    return 'DisclosureTriangle';
  }
  if (tag === 'input') {
    return inputRole(element instanceof HTMLInputElement ? element.type : '');
  }
  return tag === 'button' ? 'button' : 'generic';
}

function innerTextOf(element: Element): string {
  return element instanceof HTMLElement ? element.innerText : '';
}

/** The text of the control's first label. */
function labelText(element: Element): string {
  const labels = 'labels' in element ? element.labels : null;
  const first = labels instanceof NodeList ? labels[0] : undefined;
  return first instanceof HTMLElement ? first.innerText : '';
}

/** A form control's value, when it is text. */
function textValue(element: Element): string {
  const value = 'value' in element ? element.value : undefined;
  return typeof value === 'string' ? value : '';
}

/** The control's name, roughly: the first of label, text, value, title, placeholder, alt. */
function nameOf(element: Element): string {
  const sources: (() => string | null)[] = [
    () => element.getAttribute('aria-label'),
    () => labelText(element),
    () => innerTextOf(element),
    () => textValue(element),
    () => element.getAttribute('title'),
    () => element.getAttribute('placeholder'),
    () => element.getAttribute('alt'),
  ];
  for (const source of sources) {
    const text = source();
    if (text) {
      return text.replace(/\s+/g, ' ').trim().slice(0, NAME_LENGTH);
    }
  }
  return '';
}

/** Outside the box of an ancestor that clips its overflow (an off-screen carousel slide). */
function clipped(element: Element, box: DOMRect): boolean {
  let node = element.parentElement;
  for (let depth = 0; node && depth < CLIP_DEPTH; depth++, node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') {
      continue;
    }
    const outer = node.getBoundingClientRect();
    if (
      box.right <= outer.left ||
      box.left >= outer.right ||
      box.bottom <= outer.top ||
      box.top >= outer.bottom
    ) {
      return true;
    }
  }
  return false;
}

/** Whether a sighted user sees the control: enabled, with a box, visible, not clipped away. */
function shown(element: Element): boolean {
  if (element.matches(':disabled')) {
    return false;
  }
  const box = element.getBoundingClientRect();
  if (
    box.width === 0 ||
    box.height === 0 ||
    !element.checkVisibility({visibilityProperty: true, opacityProperty: true})
  ) {
    return false;
  }
  return !clipped(element, box);
}

/** Visible controls inside aria-hidden, with their role and name as JSON. */
function markHiddenControls(root: ProbeRoot, seen: Set<Element>, out: MarkList): void {
  for (const hidden of root.querySelectorAll('[aria-hidden="true"]')) {
    const inside = hidden.querySelectorAll(CONTROLS);
    const candidates = hidden.matches(CONTROLS) ? [hidden, ...inside] : inside;
    for (const element of candidates) {
      if (seen.has(element) || !shown(element)) {
        continue;
      }
      seen.add(element);
      out.push(element, JSON.stringify({role: roleOf(element), name: nameOf(element)}));
    }
  }
}

/**
 * The marked elements, as a flat list of element, info pairs, or null. The info is '' for
 * aria-current / aria-sort / aria-valuetext; for a control that aria-hidden removes from the AX
 * tree although a sighted user sees and can click it, its role and name as JSON; for a grid's
 * rows, cells and the grid itself, their indices and counts as JSON.
 */
export function findDomMarks(): MarkList | null {
  const probe = findTreeProbe();
  const roots: ProbeRoot[] = probe ? [...probe.roots] : [document];
  const out: MarkList = [];
  const seen = new Set<Element>();
  for (const root of roots) {
    if (!isLiveRoot(root)) {
      continue;
    }
    for (const element of root.querySelectorAll(ARIA_MARKS)) {
      out.push(element, '');
    }
    markHiddenControls(root, seen, out);
  }
  findGridMarks(roots, out);
  return out.length ? out : null;
}
