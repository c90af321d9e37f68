/**
 * The accessibility trees the snapshot keeps between snapshots, one per document of a page, so a
 * change is read as the subtrees it touched (changeRoots.ts) instead of the whole page. Kept
 * trees are bounded by node count across all pages: the least recently used pages give theirs up
 * first.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import type {DocumentTree, GridPlace, TreeNode} from './axTree.js';
import {addGridMark, type GridMark} from './gridOrder.js';
import type {FrameDocument} from '../pages/frames.js';
import {PageFeature} from '../pages/PageState.js';

/**
 * Nodes kept across all pages: about 120 MB (a node is about 300 bytes), some 16 pages of a
 * 2,000-row table.
 */
export const KEPT_NODE_LIMIT = 400_000;

/** A node's values before the DOM marks (aria-current, aria-hidden controls…) were applied. */
interface Unmarked {
  role: string;
  name: string;
  focusable: boolean;
}

export interface KeptDocument {
  cdp: CDPSession;
  frameId: string;
  loaderId: string;
  verbose: boolean;
  /** The change log's epoch this tree is up to date with. */
  epoch: number;
  tree: DocumentTree;
  /** Nodes the last marks changed, with their values before. */
  marked: Map<TreeNode, Unmarked>;
}

export function sameDocument(kept: KeptDocument, doc: FrameDocument): boolean {
  return kept.cdp === doc.cdp && kept.frameId === doc.frameId && kept.loaderId === doc.loaderId;
}

/** The kept trees of one page. */
export class KeptTrees {
  readonly #docs = new Map<string, KeptDocument>();
  /** The frame generation the trees were taken at: frames that came or went make them stale. */
  frameGeneration = -1;
  /** `Iframe` nodes the last snapshot hung a frame's document under (taken out before the next). */
  stitched: TreeNode[] = [];
  /** Stops listening to the page's frame events. */
  unsubscribe: () => void = () => undefined;

  get(doc: FrameDocument): KeptDocument | undefined {
    const kept = this.#docs.get(doc.frameId);
    return kept && sameDocument(kept, doc) ? kept : undefined;
  }

  set(kept: KeptDocument): void {
    this.#docs.set(kept.frameId, kept);
  }

  /** Keeps only the documents the page has now (a frame that navigated has a new one). */
  retain(docs: readonly FrameDocument[]): void {
    const live = new Map(docs.map(doc => [doc.frameId, doc]));
    for (const [frameId, kept] of this.#docs) {
      const doc = live.get(frameId);
      if (!doc || !sameDocument(kept, doc)) {
        this.#docs.delete(frameId);
      }
    }
  }

  delete(doc: Pick<FrameDocument, 'frameId'>): void {
    this.#docs.delete(doc.frameId);
  }

  clear(): void {
    this.#docs.clear();
    this.stitched = [];
  }

  get nodeCount(): number {
    let count = 0;
    for (const kept of this.#docs.values()) {
      count += kept.tree.byId.size;
    }
    return count;
  }
}

/** Least recently used first: the pages whose kept trees give way when the bound is reached. */
const recentlyUsed = new Set<KeptTrees>();

/** Marks a page's kept trees as just used and drops other pages' until all fit the bound. */
export function withinBound(used: KeptTrees, limit = KEPT_NODE_LIMIT): void {
  recentlyUsed.delete(used);
  recentlyUsed.add(used);
  let total = 0;
  for (const trees of recentlyUsed) {
    total += trees.nodeCount;
  }
  for (const trees of recentlyUsed) {
    if (total <= limit) {
      return;
    }
    total -= trees.nodeCount;
    release(trees);
  }
}

/**
 * Eager, so it listens from the page's first moment: a frame that navigates or goes away frees its
 * kept tree at once (not at the next snapshot, which may never come), and a closed page frees all
 * of them (the registry detaches the feature).
 */
export const keptTreesFeature = new PageFeature(
  'keptTrees',
  state => {
    const trees = new KeptTrees();
    const onNavigated = (event: Protocol.Page.FrameNavigatedEvent): void => {
      if (event.frame.parentId === undefined) {
        release(trees);
      } else {
        trees.delete({frameId: event.frame.id});
      }
    };
    const onDetached = (event: Protocol.Page.FrameDetachedEvent): void => {
      trees.delete({frameId: event.frameId});
    };
    state.cdp.on('Page.frameNavigated', onNavigated);
    state.cdp.on('Page.frameDetached', onDetached);
    trees.unsubscribe = () => {
      state.cdp.off('Page.frameNavigated', onNavigated);
      state.cdp.off('Page.frameDetached', onDetached);
    };
    return trees;
  },
  {
    eager: true,
    dispose: trees => {
      trees.unsubscribe();
      release(trees);
    },
  },
);

function release(trees: KeptTrees): void {
  trees.clear();
  recentlyUsed.delete(trees);
}

/** Applies the DOM marks to a kept tree, undoing the ones of the previous snapshot first. */
export function applyMarks(
  kept: KeptDocument,
  marks: {
    current: ReadonlyMap<number, string>;
    sort: ReadonlyMap<number, string>;
    valueText: ReadonlyMap<number, string>;
    hiddenControls: ReadonlyMap<number, {role: string; name: string}>;
    grid: ReadonlyMap<number, readonly GridMark[]>;
  },
): void {
  for (const [node, before] of kept.marked) {
    node.current = undefined;
    node.sort = undefined;
    node.valueText = undefined;
    node.grid = undefined;
    if (node.ariaHidden) {
      node.ariaHidden = undefined;
      node.role = before.role;
      node.name = before.name;
      node.focusable = before.focusable;
    }
    node.line = undefined;
  }
  kept.marked.clear();
  const byBackendId = kept.tree.byBackendId;
  const touch = (backendId: number): TreeNode | undefined => {
    const node = byBackendId.get(backendId);
    if (node && !kept.marked.has(node)) {
      kept.marked.set(node, {role: node.role, name: node.name, focusable: node.focusable});
      node.line = undefined;
    }
    return node;
  };
  for (const [backendId, current] of marks.current) {
    const node = touch(backendId);
    if (node) {
      node.current = current;
    }
  }
  for (const [backendId, sort] of marks.sort) {
    const node = touch(backendId);
    if (node) {
      node.sort = sort;
    }
  }
  for (const [backendId, control] of marks.hiddenControls) {
    const node = byBackendId.get(backendId);
    if (node?.ignored === true) {
      touch(backendId);
      node.ariaHidden = control;
      node.role = control.role;
      node.name = control.name;
      node.focusable = true;
    }
  }
  for (const [backendId, text] of marks.valueText) {
    const node = touch(backendId);
    if (node) {
      node.valueText = text;
    }
  }
  for (const [backendId, list] of marks.grid) {
    const node = touch(backendId);
    if (node) {
      node.grid = list.reduce<GridPlace>(addGridMark, {});
    }
  }
}
