/**
 * The document's mutation record, made on first use and kept under a global slot: how many
 * mutations, when the last one was and when the record began (what "quiet since" can be judged
 * from), and a log of the latest changed nodes (one entry per node per batch), style sheets added
 * or removed and window resizes, with when the log last had to drop an entry (`lost`): actions
 * judge from it whether recent activity can move their element (actionability). Settling also
 * keeps here what an action set in motion (`follow`: the timers and animations it started).
 */
import {defineGlobalSlot, readGlobalSlot} from './globalSlot.js';

const COUNTER_KEY = 'mcp-browser-inspector.mutations';
/** How many recent changes the log keeps (what the stillness rule of actions reads). */
const MOTION_LOG_SIZE = 256;
/** How many of a change's first added or removed nodes are looked at for a style sheet. */
const SHEET_SCAN_LIMIT = 64;

/** One logged change: a mutation's type and target, or 'sheet' / 'resize' (no node). */
export interface MotionEntry {
  t: number;
  kind: string;
  node: Node | null;
  /**
   * False when each of the batch's records of the node wrote an attribute's value over itself
   * (a class added that was there): nothing changed.
   */
  changed: boolean;
}

/** What an action set in motion, followed until the probe after it (settle). */
export interface FollowUps {
  /** Followed timers: id → when due. */
  timers: Map<number, number>;
  /** The animations running at the arm. */
  before: WeakSet<Animation>;
  /** Called when a followed timer fired (a wait in progress checks again). */
  wake: (() => void) | undefined;
  /** Unwraps setTimeout and clearTimeout, while they are wrapped. */
  restore: (() => void) | undefined;
}

export interface MutationState {
  n: number;
  t: number;
  since: number;
  follow: FollowUps | undefined;
  log: {entries: MotionEntry[]; lost: number};
}

function isMutationState(value: unknown): value is MutationState {
  return typeof value === 'object' && value !== null && 'log' in value && 'n' in value;
}

/** The record, if this document has one. */
export function findMutationState(): MutationState | undefined {
  const found = readGlobalSlot(COUNTER_KEY);
  return isMutationState(found) ? found : undefined;
}

function isElement(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE;
}

/** A style sheet added or removed can move anything (the first nodes of a change are looked at). */
function hasSheet(nodes: NodeList): boolean {
  for (let i = 0; i < nodes.length && i < SHEET_SCAN_LIMIT; i++) {
    const node = nodes.item(i);
    if (node && isElement(node) && (node.localName === 'style' || node.localName === 'link')) {
      return true;
    }
  }
  return false;
}

/**
 * An attribute record whose old value is the value now: written over itself (a later record of
 * the batch that changed it again has an old value that differs, and counts).
 */
function rewroteItself(record: MutationRecord): boolean {
  return (
    record.type === 'attributes' &&
    record.attributeName !== null &&
    isElement(record.target) &&
    record.oldValue === record.target.getAttribute(record.attributeName)
  );
}

/** The record; installs it (observer and resize listener) in a document that has none. */
export function mutationState(): MutationState {
  const found = findMutationState();
  if (found) {
    return found;
  }
  const log: MutationState['log'] = {entries: [], lost: -Infinity};
  const note = (t: number, kind: string, node: Node | null, changed = true): MotionEntry => {
    if (log.entries.length >= MOTION_LOG_SIZE) {
      const dropped = log.entries.shift();
      if (dropped) {
        log.lost = dropped.t;
      }
    }
    const entry = {t, kind, node, changed};
    log.entries.push(entry);
    return entry;
  };
  const state: MutationState = {n: 0, t: 0, since: performance.now(), follow: undefined, log};
  new MutationObserver(records => {
    const t = performance.now();
    state.n += records.length;
    state.t = t;
    const seen = new Map<Node, MotionEntry>();
    for (const record of records) {
      if (
        record.type === 'childList' &&
        (hasSheet(record.addedNodes) || hasSheet(record.removedNodes))
      ) {
        note(t, 'sheet', null);
      }
      const changed = !rewroteItself(record);
      const known = seen.get(record.target);
      if (known) {
        known.changed ||= changed;
        continue;
      }
      // A batch larger than the log: what it changed is not kept, only that it is unknown.
      if (seen.size >= MOTION_LOG_SIZE) {
        log.lost = t;
        break;
      }
      seen.set(record.target, note(t, record.type, record.target, changed));
    }
  }).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeOldValue: true,
    characterData: true,
  });
  addEventListener(
    'resize',
    () => {
      note(performance.now(), 'resize', null);
    },
    true,
  );
  defineGlobalSlot(COUNTER_KEY, state);
  return state;
}
