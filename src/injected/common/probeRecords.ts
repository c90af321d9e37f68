/**
 * The tree probe's change log from DOM mutation records: which nodes changed and how, or why the
 * change cannot be scoped (a style sheet, a frame, aria-owns, a dialog's open attribute).
 */
import {isElement} from './composedTree.js';
import {fullBecause, markDirty, type TreeProbe} from './probeState.js';

/** Attributes that name other elements by id: what they point at shows in the pointing element. */
export const IDREF_ATTRIBUTES = [
  'aria-labelledby',
  'aria-labeledby',
  'aria-describedby',
  'aria-activedescendant',
  'aria-controls',
  'aria-details',
  'aria-errormessage',
  'aria-flowto',
  'for',
  'list',
  'headers',
  'popovertarget',
  'commandfor',
  'interestfor',
  'form',
  'anchor',
];

const IDREF = new Set(IDREF_ATTRIBUTES);
/** Removed elements kept (their ids may be named elsewhere) before the log gives up on them. */
const REMOVED_LIMIT = 200;
/** Elements whose attributes can change another document or the style sheets. */
const FRAMES = new Set(['iframe', 'frame', 'object', 'embed', 'base', 'link', 'style', 'meta']);
const LISTS = new Set(['ol', 'ul', 'menu']);

function isSheet(node: Node): boolean {
  return isElement(node) && (node.localName === 'style' || node.localName === 'link');
}

function holdsSheet(node: Node): boolean {
  return isElement(node) && (isSheet(node) || !!node.querySelector('style,link'));
}

function byId(from: Node, id: string): Element | null {
  const root = from.getRootNode();
  return root instanceof Document || root instanceof DocumentFragment
    ? root.getElementById(id)
    : null;
}

/** A child list changed; false once nothing can be scoped. */
function noteChildList(probe: TreeProbe, record: MutationRecord): boolean {
  const target = record.target;
  if (target.nodeType === Node.DOCUMENT_NODE) {
    fullBecause(probe, 'document');
    return false;
  }
  if (isSheet(target)) {
    fullBecause(probe, 'style sheet');
    return false;
  }
  for (const node of record.removedNodes) {
    if (holdsSheet(node)) {
      fullBecause(probe, 'style sheet');
      return false;
    }
    if (isElement(node)) {
      if (probe.removed.length < REMOVED_LIMIT) {
        probe.removed.push(node);
      } else {
        probe.removedMany = true;
      }
    }
  }
  for (const node of record.addedNodes) {
    if (holdsSheet(node)) {
      fullBecause(probe, 'style sheet');
      return false;
    }
    if (node.nodeType === Node.ELEMENT_NODE || node.nodeType === Node.TEXT_NODE) {
      markDirty(probe, node, 'tree');
    }
  }
  const list = isElement(target) && LISTS.has(target.localName);
  markDirty(probe, target, list ? 'tree' : 'children');
  return true;
}

/** An attribute changed; false once nothing can be scoped. */
function noteAttribute(probe: TreeProbe, record: MutationRecord, target: Element): boolean {
  const name = record.attributeName ?? '';
  if (FRAMES.has(target.localName)) {
    fullBecause(probe, 'frame or style element');
    return false;
  }
  if (name === 'aria-owns') {
    fullBecause(probe, 'aria-owns');
    return false;
  }
  if (name === 'open' && target.localName === 'dialog') {
    fullBecause(probe, 'dialog');
    return false;
  }
  if (name === 'id') {
    if (record.oldValue) {
      probe.removedIds = (probe.removedIds ?? new Set()).add(record.oldValue);
    }
  } else if (IDREF.has(name)) {
    const tokens = ((record.oldValue ?? '') + ' ' + (target.getAttribute(name) ?? '')).split(/\s+/);
    for (const token of tokens) {
      if (token) {
        markDirty(probe, byId(target, token), 'tree');
      }
    }
  }
  if (name === 'slot' || (name === 'value' && target.localName === 'li')) {
    markDirty(probe, target.parentNode, 'tree');
  }
  markDirty(probe, target, 'attr');
  return true;
}

/** Logs what the records changed, until nothing can be scoped. */
export function noteRecords(probe: TreeProbe, records: readonly MutationRecord[]): void {
  for (const record of records) {
    if (probe.full) {
      return;
    }
    const target = record.target;
    if (record.type === 'childList') {
      if (!noteChildList(probe, record)) {
        return;
      }
    } else if (record.type === 'characterData') {
      const parent = target.parentNode;
      if (parent && isSheet(parent)) {
        fullBecause(probe, 'style sheet');
        return;
      }
      markDirty(probe, target, 'text');
    } else if (isElement(target) && !noteAttribute(probe, record, target)) {
      return;
    }
  }
}
