/**
 * The snapshot's tree probe in one document (installed by treeProbe.ts): what its reading counts
 * and the change log since the engine last took the tree (changeScope.ts reads it). Kept in a
 * global slot of the isolated world, so every evaluation there finds it again.
 */
import {isElement, isShadowRoot, shadowHost} from './composedTree.js';
import {defineGlobalSlot, readGlobalSlot} from './globalSlot.js';

const PROBE_KEY = 'mcp-browser-inspector.treeProbe';
/** Dirty nodes kept before a change counts as too large to scope. */
const DIRTY_LIMIT = 600;
/** Bound on the steps of a walk up from the focused element. */
const FOCUS_DEPTH = 512;

/** How a dirty node is read again: itself, its child list, an attribute, its subtree, its text. */
export type DirtyKind = 'self' | 'children' | 'attr' | 'tree' | 'text';
/** The document and the open shadow roots the probe observes. */
export type ProbeRoot = Document | ShadowRoot;
export type FormField = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A node marked again keeps the strongest kind. */
const RANK: Record<DirtyKind, number> = {self: 1, children: 2, attr: 3, tree: 4, text: 5};

export interface TreeProbe {
  /** The probe's version (treeProbe.ts replaces a probe of another). */
  v: number;
  /** DOM mutations and events seen: a part of the reading. */
  n: number;
  roots: Set<ProbeRoot>;
  /** Ids of elements the reading names (the focused one, selected options). */
  ids: WeakMap<Element, number>;
  next: number;
  /** Custom elements not defined yet: an upgrade changes them without a mutation. */
  undefinedElements: Set<Element>;
  /** This document's probe, apart from any earlier one. */
  doc: string;
  /** Takes of the change log so far. */
  epoch: number;
  dirty: Map<Node, DirtyKind>;
  removed: Element[];
  removedMany: boolean;
  removedIds: Set<string> | undefined;
  /** Why the change since the last take cannot be scoped, or ''. */
  full: string;
  custom: boolean;
  owns: boolean;
  /** Events after which only style rules would show the state (hover, presses, keys). */
  dynamic: boolean;
  fieldStates: WeakMap<FormField, string>;
  focus: Element | null;
  href: string;
  viewport: string;
  sheetsKey: string;
  observer: MutationObserver;
  /** The document's fields as live collections (a quiet page's are not looked up again). */
  fields: HTMLCollectionOf<FormField>[];
  /** Removes the probe's listeners. */
  off: () => void;
}

interface ProbeHolder {
  probe: TreeProbe | undefined;
}

function isProbeHolder(value: unknown): value is ProbeHolder {
  return typeof value === 'object' && value !== null && 'probe' in value;
}

/** The document's slot for its probe, made on first use. */
export function probeHolder(): ProbeHolder {
  const found = readGlobalSlot(PROBE_KEY);
  if (isProbeHolder(found)) {
    return found;
  }
  const holder: ProbeHolder = {probe: undefined};
  defineGlobalSlot(PROBE_KEY, holder);
  return holder;
}

/** The document's probe, if one was installed (of any version). */
export function findTreeProbe(): TreeProbe | undefined {
  const found = readGlobalSlot(PROBE_KEY);
  return isProbeHolder(found) ? found.probe : undefined;
}

/** Nothing can be scoped since the last take: the log forgets its nodes. */
export function fullBecause(probe: TreeProbe, reason: string): void {
  if (!probe.full) {
    probe.full = reason;
    probe.dirty.clear();
    probe.removed.length = 0;
  }
}

/** Logs a changed node (a shadow root stands for its host); anything else is the document. */
export function markDirty(probe: TreeProbe, node: Node | null, kind: DirtyKind): void {
  if (!node || probe.full) {
    return;
  }
  const target = node.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? shadowHost(node) : node;
  if (!target || (target.nodeType !== Node.ELEMENT_NODE && target.nodeType !== Node.TEXT_NODE)) {
    fullBecause(probe, 'document');
    return;
  }
  const had = probe.dirty.get(target);
  if (!had || RANK[kind] > RANK[had]) {
    probe.dirty.set(target, kind);
  }
  if (probe.dirty.size > DIRTY_LIMIT) {
    fullBecause(probe, 'many changes');
  }
}

/** The parent node, or the host for the top of a shadow tree (slots not followed). */
export function parentNodeOrHost(node: Node): Node | null {
  const parent = node.parentNode;
  return parent?.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? shadowHost(parent) : parent;
}

/**
 * A focused element inside aria-hidden is exposed, and with it what Chromium exposes around it:
 * focus that enters or leaves such a subtree is read with the whole subtree.
 */
export function markFocus(probe: TreeProbe, element: Element): void {
  let hidden: Element | null = null;
  for (
    let node: Node | null = element, depth = 0;
    node && depth < FOCUS_DEPTH;
    depth++, node = parentNodeOrHost(node)
  ) {
    if (isElement(node) && node.getAttribute('aria-hidden') === 'true') {
      hidden = node;
    }
  }
  if (hidden) {
    markDirty(probe, hidden, 'tree');
  } else {
    markDirty(probe, element, 'self');
  }
}

/** The focused element, also inside open shadow roots. */
export function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  return active;
}

/** A number for an element, the same for as long as the document lives (0 for none). */
export function idOf(probe: TreeProbe, element: Element | null): number {
  if (!element) {
    return 0;
  }
  let id = probe.ids.get(element);
  if (!id) {
    id = probe.next++;
    probe.ids.set(element, id);
  }
  return id;
}

/** Checked, indeterminate, disabled, as letters. */
export function fieldFlags(field: FormField): string {
  const checked = 'checked' in field && field.checked;
  const indeterminate = 'indeterminate' in field && field.indeterminate;
  return (checked ? 'c' : '') + (indeterminate ? 'i' : '') + (field.disabled ? 'd' : '');
}

/** A field's value, flags and selected options, to compare with an earlier one. */
export function fieldState(probe: TreeProbe, field: FormField): string {
  let text = field.value + '|' + fieldFlags(field);
  if ('selectedOptions' in field) {
    for (const option of field.selectedOptions) {
      text += '|' + String(idOf(probe, option));
    }
  }
  return text;
}

function isFormField(element: Element): element is FormField {
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement
  );
}

/** Whether a root is the document or a shadow root whose host is still in it. */
export function isLiveRoot(root: ProbeRoot): boolean {
  return !isShadowRoot(root) || root.host.isConnected;
}

/** Every field of the document and of its observed shadow roots. */
export function eachField(probe: TreeProbe, visit: (field: FormField) => void): void {
  for (const collection of probe.fields) {
    for (const field of collection) {
      visit(field);
    }
  }
  for (const root of probe.roots) {
    if (!isShadowRoot(root) || !root.host.isConnected) {
      continue;
    }
    for (const element of root.querySelectorAll('input,textarea,select')) {
      if (isFormField(element)) {
        visit(element);
      }
    }
  }
}
