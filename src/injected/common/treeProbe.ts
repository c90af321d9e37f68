/**
 * The tree probe the snapshot installs in each document's isolated world (the page's own scripts
 * cannot see or tamper with it). One MutationObserver (document and open shadow roots) and
 * capturing listeners (probeEvents.ts) feed two things:
 *
 * - a reading, `document:counter:fingerprint`: DOM mutations and events that can change what the
 *   tree shows, plus a fingerprint of state that changes without either (form values set by
 *   script, the focused element, the viewport, style sheet rules). Equal readings mean the tree is
 *   still the same (the snapshot cache).
 * - a change log since the last tree was taken (the incremental tree): which nodes changed and
 *   how, or why the change cannot be scoped (probeRecords.ts; changeScope.ts reads it).
 */
import {fnvHash} from './fnvHash.js';
import {isElement} from './composedTree.js';
import {listenForProbe} from './probeEvents.js';
import {noteRecords} from './probeRecords.js';
import {
  deepActive,
  eachField,
  fieldFlags,
  fieldState,
  idOf,
  isLiveRoot,
  markDirty,
  probeHolder,
  type ProbeRoot,
  type TreeProbe,
} from './probeState.js';

/** The probe's version: a probe of another version (another engine's) is replaced. */
const PROBE_VERSION = 5;

const OBSERVED: MutationObserverInit = {
  subtree: true,
  childList: true,
  attributes: true,
  characterData: true,
  attributeOldValue: true,
};

/** Watches the shadow roots under `start` and notes custom elements and aria-owns. */
function scan(probe: TreeProbe, start: Node): void {
  const walker = document.createTreeWalker(start, NodeFilter.SHOW_ELEMENT);
  for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
    if (!isElement(node)) {
      continue;
    }
    if (node.shadowRoot && !probe.roots.has(node.shadowRoot)) {
      watch(probe, node.shadowRoot);
    }
    const tag = node.localName;
    if (tag.includes('-')) {
      probe.custom = true;
      // A custom element not defined yet changes when it is upgraded, without a mutation.
      if (!node.matches(':defined')) {
        probe.undefinedElements.add(node);
      }
    }
    if (node.hasAttribute('aria-owns')) {
      probe.owns = true;
    }
  }
}

function watch(probe: TreeProbe, root: ProbeRoot): void {
  probe.roots.add(root);
  probe.observer.observe(root, OBSERVED);
  scan(probe, root);
}

function install(): TreeProbe {
  const observer = new MutationObserver(records => {
    probe.n += records.length;
    noteRecords(probe, records);
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (isElement(node)) {
          scan(probe, node);
        }
      }
    }
  });
  const probe: TreeProbe = {
    v: PROBE_VERSION,
    n: 0,
    roots: new Set(),
    ids: new WeakMap(),
    next: 1,
    undefinedElements: new Set(),
    doc: Math.random().toString(36).slice(2),
    epoch: 0,
    dirty: new Map(),
    removed: [],
    removedMany: false,
    removedIds: undefined,
    full: '',
    custom: false,
    owns: false,
    dynamic: false,
    fieldStates: new WeakMap(),
    focus: null,
    href: location.href,
    viewport: '',
    sheetsKey: '',
    observer,
    // Live collections: Chromium keeps their contents until the DOM changes, so reading the form
    // state of a quiet page does not walk the document.
    fields: [
      document.getElementsByTagName('input'),
      document.getElementsByTagName('textarea'),
      document.getElementsByTagName('select'),
    ],
    off: () => undefined,
  };
  watch(probe, document);
  probe.off = listenForProbe(probe);
  eachField(probe, field => {
    probe.fieldStates.set(field, fieldState(probe, field));
  });
  probe.focus = deepActive();
  return probe;
}

/** The document's probe, installed the first time (replacing one of another version). */
export function treeProbe(): TreeProbe {
  const holder = probeHolder();
  const old = holder.probe;
  if (old?.v === PROBE_VERSION) {
    return old;
  }
  if (old) {
    old.observer.disconnect();
    old.off();
  }
  const probe = install();
  holder.probe = probe;
  return probe;
}

/** Notes the mutations the observer has not delivered yet. */
export function flushProbe(probe: TreeProbe): void {
  const records = probe.observer.takeRecords();
  probe.n += records.length;
  noteRecords(probe, records);
}

/** Style rules of the live roots (a sheet that cannot be read counts a quarter). */
function countRules(probe: TreeProbe): number {
  let rules = 0;
  for (const root of probe.roots) {
    if (!isLiveRoot(root)) {
      continue;
    }
    for (const sheet of [...root.styleSheets, ...root.adoptedStyleSheets]) {
      try {
        rules += sheet.cssRules.length + (sheet.disabled ? 0.5 : 0);
      } catch {
        rules += 0.25;
      }
    }
  }
  return rules;
}

/** Custom elements still not defined; one upgraded (or gone) since counts as a change. */
function countUndefined(probe: TreeProbe): number {
  let count = 0;
  for (const element of probe.undefinedElements) {
    if (!element.isConnected || element.matches(':defined')) {
      probe.undefinedElements.delete(element);
      probe.n++;
      markDirty(probe, element, 'tree');
    } else {
      count++;
    }
  }
  return count;
}

/** The reading: equal readings mean the tree is still the same. */
export function readProbe(probe: TreeProbe): string {
  flushProbe(probe);
  const hash = fnvHash();
  hash.mix(idOf(probe, deepActive()));
  hash.mix(`${innerWidth}x${innerHeight}`);
  eachField(probe, field => {
    hash.mix(field.value);
    hash.mix(fieldFlags(field));
    if ('selectedOptions' in field) {
      for (const option of field.selectedOptions) {
        hash.mix(idOf(probe, option));
      }
    }
  });
  const rules = countRules(probe);
  const undefinedElements = countUndefined(probe);
  hash.mix(`${rules}/${undefinedElements}`);
  return `${probe.doc}:${probe.n}:${hash.value()}`;
}
