/**
 * Accessibility snapshot: the page's AX tree as one line per node with a `uid` the agent passes back
 * to act on the element. Built straight from `Accessibility.getFullAXTree` (one call per frame) and
 * pruned to the nodes an agent can use, as chrome-devtools-mcp's does; a node keeps its uid across
 * snapshots as long as its document lives.
 */
import type {Protocol} from 'puppeteer-core';
import {PageFeature, type PageState} from './PageState.js';

type AXNode = Protocol.Accessibility.AXNode;

interface UidTarget {
  backendNodeId: number;
  frameId: string;
  loaderId: string;
}

/** Per-page uid bookkeeping. */
export class SnapshotStore {
  snapshotCount = 0;
  /** `${loaderId}:${backendNodeId}` → uid, for stability across snapshots. */
  #uidByKey = new Map<string, string>();
  #targets = new Map<string, UidTarget>();
  #uidByNode = new Map<number, string>();
  /**
   * uids are short page-wide numbers that are never reused, so a uid from an old snapshot either
   * still means the same element or is not found — it never silently means another one.
   */
  #nextUid = 0;
  hasSnapshot = false;

  beginSnapshot(): number {
    this.snapshotCount++;
    return this.snapshotCount;
  }

  uidFor(
    target: UidTarget,
    seen: Map<string, string>,
    seenTargets: Map<string, UidTarget>,
  ): string {
    const key = `${target.loaderId}:${target.backendNodeId}`;
    let uid = this.#uidByKey.get(key);
    if (uid === undefined || seen.has(key)) {
      uid = String(this.#nextUid++);
    }
    seen.set(key, uid);
    seenTargets.set(uid, target);
    return uid;
  }

  freshUid(): string {
    return String(this.#nextUid++);
  }

  /** Keeps only the uids of the latest snapshot: ids of vanished nodes are forgotten. */
  commit(seen: Map<string, string>, targets: Map<string, UidTarget>): void {
    this.#uidByKey = seen;
    this.#targets = targets;
    this.#uidByNode = new Map([...targets].map(([uid, target]) => [target.backendNodeId, uid]));
    this.hasSnapshot = true;
  }

  target(uid: string): UidTarget | undefined {
    return this.#targets.get(normalizeUid(uid));
  }

  /** The uid the latest snapshot gave a node, if it showed the node. */
  uidOf(backendNodeId: number): string | undefined {
    return this.#uidByNode.get(backendNodeId);
  }
}

/** Accepts "12" and the labelled forms agents copy from other servers' snapshots ("uid=12"). */
export function normalizeUid(uid: string): string {
  return uid.trim().replace(/^uid=/, '');
}

export const snapshotFeature = new PageFeature('snapshot', () => new SnapshotStore());

const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'ColorWell',
  'combobox',
  'DisclosureTriangle',
  'listbox',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'radio',
  'scrollbar',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'tree',
  'treeitem',
]);
const LEAF_ROLES = new Set([
  'doc-cover',
  'graphics-symbol',
  'img',
  'image',
  'Meter',
  'meter',
  'scrollbar',
  'slider',
  'separator',
  'progressbar',
]);
const TEXT_ROLES = new Set(['LineBreak', 'text', 'InlineTextBox', 'StaticText']);

/** Boolean states printed as bare words when true. */
const BOOLEAN_PROPERTIES = new Set([
  'disabled',
  'focused',
  'modal',
  'multiline',
  'multiselectable',
  'readonly',
  'required',
  'selected',
  'busy',
  'invalid',
]);
/** Tri-state or valued properties printed as key="value". */
const VALUE_PROPERTIES = new Set([
  'checked',
  'pressed',
  'expanded',
  'level',
  'hasPopup',
  'valuemin',
  'valuemax',
  'valuetext',
  'autocomplete',
  'orientation',
  'url',
  'keyshortcuts',
  'roledescription',
]);

interface TreeNode {
  ax: AXNode;
  role: string;
  name: string;
  children: TreeNode[];
  frameId: string;
  loaderId: string;
  focusable: boolean;
  editable: boolean;
  hidden: boolean;
}

function axString(value: Protocol.Accessibility.AXValue | undefined): string {
  const raw: unknown = value?.value;
  if (typeof raw === 'string') {
    return raw;
  }
  if (typeof raw === 'number' || typeof raw === 'boolean') {
    return String(raw);
  }
  return '';
}

function buildTree(nodes: AXNode[], frameId: string, loaderId: string): TreeNode | undefined {
  const byId = new Map<string, TreeNode>();
  for (const ax of nodes) {
    let focusable = false;
    let editable = false;
    let hidden = false;
    for (const property of ax.properties ?? []) {
      if (property.name === 'focusable') {
        focusable = property.value.value === true;
      } else if (property.name === 'editable') {
        editable = property.value.value === 'richtext';
      } else if (property.name === 'hidden') {
        hidden = property.value.value === true;
      }
    }
    byId.set(ax.nodeId, {
      ax,
      role: axString(ax.role) || 'Unknown',
      name: axString(ax.name),
      children: [],
      frameId,
      loaderId,
      focusable,
      editable,
      hidden,
    });
  }
  let root: TreeNode | undefined;
  for (const node of byId.values()) {
    for (const childId of node.ax.childIds ?? []) {
      const child = byId.get(childId);
      if (child) {
        node.children.push(child);
      }
    }
    if (node.ax.parentId === undefined || !byId.has(node.ax.parentId)) {
      root ??= node;
    }
  }
  return root;
}

function isControl(node: TreeNode): boolean {
  return CONTROL_ROLES.has(node.role);
}

function isPlainTextField(node: TreeNode): boolean {
  return !node.editable && (node.role === 'textbox' || node.role === 'searchbox');
}

function hasFocusableDescendant(node: TreeNode): boolean {
  for (const child of node.children) {
    if (child.focusable || hasFocusableDescendant(child)) {
      return true;
    }
  }
  return false;
}

/** A node whose children add nothing for an agent (a link's text, a heading's text…). */
function isLeaf(node: TreeNode): boolean {
  if (node.children.length === 0) {
    return true;
  }
  if (isPlainTextField(node) || TEXT_ROLES.has(node.role)) {
    return true;
  }
  if (LEAF_ROLES.has(node.role)) {
    return true;
  }
  if (node.ax.chromeRole?.value === 'Iframe' || node.role === 'Iframe') {
    return false;
  }
  if (hasFocusableDescendant(node)) {
    return false;
  }
  if (node.focusable && node.name) {
    return true;
  }
  return node.role === 'heading' && node.name !== '';
}

/** Landmarks give the tree its structure (main, navigation, named regions…), so they are kept. */
const LANDMARK_ROLES = new Set([
  'banner',
  'complementary',
  'contentinfo',
  'form',
  'main',
  'navigation',
  'region',
  'search',
]);

function isInteresting(node: TreeNode, insideControl: boolean): boolean {
  if (node.ax.ignored || node.hidden || node.role === 'Ignored') {
    return false;
  }
  if (node.focusable || node.editable) {
    return true;
  }
  if (isControl(node) || LANDMARK_ROLES.has(node.role)) {
    return true;
  }
  if (insideControl) {
    return false;
  }
  return isLeaf(node) && node.name !== '';
}

export interface SnapshotOptions {
  verbose: boolean;
}

export interface SnapshotResult {
  text: string;
  nodeCount: number;
}

interface FrameTree {
  frame: {id: string; loaderId: string; url: string};
  childFrames?: FrameTree[];
}

/** Takes a snapshot of the page (same-process iframes stitched in) and records the uids. */
export async function takeSnapshot(
  state: PageState,
  options: SnapshotOptions,
): Promise<SnapshotResult> {
  const session = state.session;
  const {frameTree} = await session.send('Page.getFrameTree');
  const main = frameTree.frame;
  const childFrames: FrameTree[] = [];
  const collect = (tree: FrameTree): void => {
    for (const child of tree.childFrames ?? []) {
      childFrames.push(child);
      collect(child);
    }
  };
  collect(frameTree);

  const [mainTree, ...frameResults] = await Promise.all([
    session.send('Accessibility.getFullAXTree', {}),
    ...childFrames.map(async child => {
      try {
        const [tree, owner] = await Promise.all([
          session.send('Accessibility.getFullAXTree', {frameId: child.frame.id}),
          session.send('DOM.getFrameOwner', {frameId: child.frame.id}),
        ]);
        return {child, nodes: tree.nodes, ownerBackendId: owner.backendNodeId};
      } catch {
        // Out-of-process iframes live in another target; they are left out of this snapshot.
        return undefined;
      }
    }),
  ]);
  const root = buildTree(mainTree.nodes, main.id, main.loaderId);
  if (!root) {
    return {text: '', nodeCount: 0};
  }
  // Stitch iframe documents under their <iframe> node.
  const frameRoots = new Map<number, TreeNode>();
  for (const result of frameResults) {
    if (!result) {
      continue;
    }
    const frameRoot = buildTree(result.nodes, result.child.frame.id, result.child.frame.loaderId);
    if (frameRoot) {
      frameRoots.set(result.ownerBackendId, frameRoot);
    }
  }
  if (frameRoots.size > 0) {
    const attach = (node: TreeNode): void => {
      const backendId = node.ax.backendDOMNodeId;
      const frameRoot = backendId === undefined ? undefined : frameRoots.get(backendId);
      if (frameRoot && node.children.length === 0) {
        node.children.push(frameRoot);
        frameRoots.delete(backendId ?? -1);
        attach(frameRoot);
        return;
      }
      for (const child of node.children) {
        attach(child);
      }
    };
    attach(root);
  }

  const store = snapshotFeature.get(state);
  store.beginSnapshot();
  const seen = new Map<string, string>();
  const targets = new Map<string, UidTarget>();
  const lines: string[] = [];
  let nodeCount = 0;

  let base: URL | undefined;
  try {
    base = new URL(main.url);
  } catch {
    base = undefined;
  }
  const emit = (node: TreeNode, depth: number): void => {
    nodeCount++;
    const backendNodeId = node.ax.backendDOMNodeId;
    const uid =
      backendNodeId === undefined
        ? store.freshUid()
        : store.uidFor(
            {backendNodeId, frameId: node.frameId, loaderId: node.loaderId},
            seen,
            targets,
          );
    lines.push(`${' '.repeat(depth)}${formatNode(node, uid, node === root, base)}`);
  };

  if (options.verbose) {
    const walk = (node: TreeNode, depth: number): void => {
      emit(node, depth);
      for (const child of node.children) {
        walk(child, depth + 1);
      }
    };
    walk(root, 0);
  } else {
    const interesting = new Set<TreeNode>();
    const mark = (node: TreeNode, insideControl: boolean): void => {
      if (isInteresting(node, insideControl)) {
        interesting.add(node);
      }
      // The document root is focusable and named, but its content is the whole point.
      if (node !== root && isLeaf(node)) {
        return;
      }
      const inside = insideControl || isControl(node);
      for (const child of node.children) {
        mark(child, inside);
      }
    };
    mark(root, false);
    interesting.add(root);
    const walk = (node: TreeNode, depth: number): void => {
      const shown = interesting.has(node);
      if (shown) {
        emit(node, depth);
      }
      if (shown && isLeaf(node) && node !== root) {
        return;
      }
      for (const child of node.children) {
        walk(child, shown ? depth + 1 : depth);
      }
    };
    walk(root, 0);
  }
  store.commit(seen, targets);
  return {text: lines.join('\n'), nodeCount};
}

function quote(text: string): string {
  return JSON.stringify(text.length > 500 ? `${text.slice(0, 500)}…` : text);
}

/** Properties whose values are numbers print without quotes. */
const NUMERIC_PROPERTIES = new Set(['level', 'valuemin', 'valuemax']);

/** Same-origin links print relative to the page (the root line carries the full URL). */
function relativeUrl(url: string, base: URL | undefined): string {
  if (!base) {
    return url;
  }
  try {
    const target = new URL(url);
    if (target.origin !== base.origin) {
      return url;
    }
    if (target.pathname === base.pathname && target.search === base.search) {
      return target.hash || target.pathname;
    }
    return `${target.pathname}${target.search}${target.hash}`;
  } catch {
    return url;
  }
}

/**
 * One line per node: `<uid> <role> "<name>" <attributes>`, indented one space per level. Kept
 * short because snapshots are the biggest thing an agent reads: the uid is a bare number, text
 * nodes print without their role, numbers without quotes, and links relative to the page.
 */
function formatNode(node: TreeNode, uid: string, isRoot: boolean, base: URL | undefined): string {
  const role =
    node.ax.ignored || node.role === 'none'
      ? 'ignored'
      : node.role === 'StaticText'
        ? ''
        : node.role;
  let line = role ? `${uid} ${role}` : uid;
  if (node.name) {
    line += ` ${quote(node.name)}`;
  }
  const value = axString(node.ax.value);
  if (value && value !== node.name) {
    line += ` value=${quote(value)}`;
  }
  const description = axString(node.ax.description);
  if (description && description !== node.name) {
    line += ` description=${quote(description)}`;
  }
  const words: string[] = [];
  for (const property of node.ax.properties ?? []) {
    const key = property.name;
    if (BOOLEAN_PROPERTIES.has(key)) {
      if (property.value.value === true && !(isRoot && key === 'focused')) {
        words.push(key);
      }
    } else if (VALUE_PROPERTIES.has(key)) {
      let text = axString(property.value);
      if (!text || text === 'false') {
        continue;
      }
      if (key === 'url' && !isRoot) {
        text = relativeUrl(text, base);
      }
      const name = key === 'hasPopup' ? 'haspopup' : key;
      words.push(
        NUMERIC_PROPERTIES.has(key) && /^-?\d+(\.\d+)?$/.test(text)
          ? `${name}=${text}`
          : `${name}=${quote(text)}`,
      );
    }
  }
  if (words.length > 0) {
    words.sort();
    line += ` ${words.join(' ')}`;
  }
  return line;
}
