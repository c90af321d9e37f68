/**
 * In-page side of a call's DOM changes (src/core/browser/domChanges.ts), run in our isolated world
 * of the top document: a MutationObserver armed for one call (its token) and taken once, which
 * counts the nodes changed and keeps the first texts that appeared. Everything is bounded: the
 * nodes remembered, the added nodes kept, the texts and how much of each is read.
 */

/** Bounds of the watch, set by the engine. */
export interface WatchLimits {
  /** Nodes remembered by identity (more are counted, not told apart). */
  nodes: number;
  /** Added nodes kept to look at for their text. */
  added: number;
}

export interface TextLimits {
  /** Texts kept. */
  texts: number;
  /** Characters of each. */
  chars: number;
}

/** One call's watch, on the isolated world's global object under the engine's key. */
interface CallWatch {
  token: string;
  nodes: Set<Node>;
  more: number;
  added: Node[];
  handle: (records: MutationRecord[]) => void;
  observer: MutationObserver;
}

/** Elements whose text is not shown. */
const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
/** Text nodes looked at under one added element. */
const TEXT_NODE_STEPS = 200;

function isCallWatch(value: unknown): value is CallWatch {
  return typeof value === 'object' && value !== null && 'observer' in value && 'token' in value;
}

/** The watch kept under `key`, if any. */
function findWatch(key: string): CallWatch | undefined {
  const found: unknown = Reflect.get(globalThis, key);
  return isCallWatch(found) ? found : undefined;
}

/** Notes a changed node: remembered up to the bound, counted past it. */
function noteNode(watch: CallWatch, node: Node, limits: WatchLimits): void {
  if (watch.nodes.has(node)) {
    return;
  }
  if (watch.nodes.size < limits.nodes) {
    watch.nodes.add(node);
  } else {
    watch.more++;
  }
}

function noteRecords(watch: CallWatch, records: MutationRecord[], limits: WatchLimits): void {
  for (const record of records) {
    if (record.type === 'childList') {
      for (const node of record.addedNodes) {
        noteNode(watch, node, limits);
        if (watch.added.length < limits.added) {
          watch.added.push(node);
        }
      }
      for (const node of record.removedNodes) {
        noteNode(watch, node, limits);
      }
    } else {
      noteNode(watch, record.target, limits);
      if (record.type === 'characterData' && watch.added.length < limits.added) {
        watch.added.push(record.target);
      }
    }
  }
}

/** Starts watching the document for the call `token` (stopping an earlier call's watch). */
export function armDomChanges(key: string, token: string, limits: WatchLimits): boolean {
  findWatch(key)?.observer.disconnect();
  const handle = (records: MutationRecord[]): void => {
    noteRecords(watch, records, limits);
  };
  const observer = new MutationObserver(handle);
  const watch: CallWatch = {token, nodes: new Set(), more: 0, added: [], handle, observer};
  observer.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  Reflect.set(globalThis, key, watch);
  return true;
}

function isText(node: Node): node is Text {
  return node.nodeType === Node.TEXT_NODE;
}

function isElement(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE;
}

/** A node inside an element whose text is not shown. */
function inSkipped(node: Node): boolean {
  return node.parentElement !== null && SKIPPED_TAGS.has(node.parentElement.tagName);
}

/** The shown text of a node, roughly: its own data, or its first text nodes' data. */
function shownText(node: Node, chars: number): string {
  if (isText(node)) {
    return inSkipped(node) ? '' : node.data.slice(0, chars * 2);
  }
  if (!isElement(node) || SKIPPED_TAGS.has(node.tagName)) {
    return '';
  }
  let text = '';
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (
    let step = 0, part = walker.nextNode();
    part && step < TEXT_NODE_STEPS && text.length < chars * 2;
    step++, part = walker.nextNode()
  ) {
    if (isText(part) && !inSkipped(part)) {
      text += ' ' + part.data.slice(0, chars * 2);
    }
  }
  return text;
}

/**
 * Stops the call's watch and tells what changed: the nodes changed and the first texts that
 * appeared (still in the document). Null when the watch is not this call's.
 */
export function takeDomChanges(
  key: string,
  token: string,
  limits: TextLimits,
): {nodes: number; texts: string[]} | null {
  const watch = findWatch(key);
  if (watch?.token !== token) {
    return null;
  }
  Reflect.deleteProperty(globalThis, key);
  watch.handle(watch.observer.takeRecords());
  watch.observer.disconnect();
  const texts: string[] = [];
  for (const node of watch.added) {
    if (texts.length >= limits.texts) {
      break;
    }
    if (!node.isConnected) {
      continue;
    }
    const text = shownText(node, limits.chars).replace(/\s+/g, ' ').trim().slice(0, limits.chars);
    if (text && !texts.includes(text)) {
      texts.push(text);
    }
  }
  return {nodes: watch.nodes.size + watch.more, texts};
}
