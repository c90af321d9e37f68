/**
 * Splicing fresh partial reads into a kept accessibility tree (changeRoots.ts reads them): the
 * fresh nodes take the place of the kept ones with the same ids, old subtrees go, and what does
 * not fit is named for a further read — never guessed. `checkWhole` then proves the tree is one
 * tree again.
 */
import {
  addChild,
  axString,
  isInlineTextBox,
  toTreeNode,
  type AXNode,
  type DocumentTree,
  type TreeNode,
} from './axTree.js';
import type {KeptDocument} from './keptTree.js';

/** Thrown when the kept tree cannot be brought up to date: read the whole document instead. */
export class NotScoped extends Error {}

/** What one round read: fresh nodes, and which old subtrees they replace. */
export interface Reads {
  fresh: Map<string, AXNode>;
  /** Ids whose whole kept subtree the fresh nodes replace. */
  replaced: Set<string>;
  /** Backend ids of roots that no longer have a node in the tree. */
  absent: Set<number>;
}

/** What a round could not explain: read these in the next round. */
export interface Needs {
  /** Backend ids whose subtrees to read whole. */
  subtrees: Set<number>;
  /** Backend ids of kept nodes whose own node and child list are stale. */
  nodes: Set<number>;
}

export function emptyReads(): Reads {
  return {fresh: new Map(), replaced: new Set(), absent: new Set()};
}

/** Removes a kept node and everything below it from the maps. */
function forget(tree: DocumentTree, node: TreeNode): void {
  const stack = [node];
  for (let current = stack.pop(); current; current = stack.pop()) {
    if (tree.byId.get(current.id) === current) {
      tree.byId.delete(current.id);
    }
    if (current.backendId !== undefined && tree.byBackendId.get(current.backendId) === current) {
      tree.byBackendId.delete(current.backendId);
    }
    stack.push(...current.children);
  }
}

/**
 * Puts one round's fresh nodes into the kept tree and says what is still unexplained. Old subtrees
 * go first, so a node that moved is found at its new place only.
 */
export function apply(kept: KeptDocument, reads: Reads): Needs {
  return new Splice(kept, reads).run();
}

class Splice {
  readonly #tree: DocumentTree;
  readonly needs: Needs = {subtrees: new Set(), nodes: new Set()};
  /** The kept node of every id read again, before anything is removed. */
  readonly #oldOf = new Map<string, TreeNode>();
  readonly #fresh = new Map<string, TreeNode>();
  readonly #childIds = new Map<TreeNode, string[]>();

  constructor(
    private readonly kept: KeptDocument,
    private readonly reads: Reads,
  ) {
    this.#tree = kept.tree;
  }

  run(): Needs {
    const tree = this.#tree;
    for (const id of this.reads.fresh.keys()) {
      const old = tree.byId.get(id);
      if (old) {
        this.#oldOf.set(id, old);
      }
    }
    for (const old of this.#removed()) {
      forget(tree, old);
    }
    this.#readWhereRoleChanged();
    this.#insertFresh();
    this.#linkChildren();
    this.#dropUnlisted();
    this.#hangInKeptParents();
    const root = this.#fresh.get(tree.root.id);
    if (root) {
      tree.root = root;
    }
    return this.needs;
  }

  /** The kept nodes whose subtrees the reads replace or that left the tree. */
  #removed(): TreeNode[] {
    const removed: TreeNode[] = [];
    for (const id of this.reads.replaced) {
      const old = this.#tree.byId.get(id);
      if (old) {
        removed.push(old);
      }
    }
    for (const backendId of this.reads.absent) {
      const old = this.#tree.byBackendId.get(backendId);
      if (old) {
        removed.push(old);
      }
    }
    return removed;
  }

  /**
   * Nodes read again on their own (not inside a subtree read whole) whose role changed: what is
   * below them may have changed with it (a table that turns into a layout table).
   */
  #readWhereRoleChanged(): void {
    for (const [id, old] of this.#oldOf) {
      const ax = this.reads.fresh.get(id);
      if (this.#tree.byId.get(id) !== old || !ax) {
        continue;
      }
      const before = this.kept.marked.get(old)?.role ?? old.role;
      const role = axString(ax.role) || 'Unknown';
      if (old.ignored !== ax.ignored || (!ax.ignored && before !== role)) {
        if (old.backendId === undefined) {
          throw new NotScoped('a node without a DOM node changed its role');
        }
        this.needs.subtrees.add(old.backendId);
      }
    }
  }

  /** The fresh nodes in the maps, in place of the kept ones (not linked yet). */
  #insertFresh(): void {
    const tree = this.#tree;
    for (const [id, ax] of this.reads.fresh) {
      if (!this.kept.verbose && isInlineTextBox(ax)) {
        continue;
      }
      const node = toTreeNode(ax, tree.root.doc);
      const old = tree.byId.get(id);
      const holder =
        node.backendId === undefined ? undefined : tree.byBackendId.get(node.backendId);
      if (holder && holder !== old) {
        throw new NotScoped('two nodes for one DOM node');
      }
      tree.byId.set(id, node);
      if (node.backendId !== undefined) {
        tree.byBackendId.set(node.backendId, node);
      }
      this.#fresh.set(id, node);
      this.#childIds.set(node, ax.childIds ?? []);
    }
  }

  /** A kept parent that must be read again: it lists a node that left, or misses one that came. */
  #staleParent(parent: TreeNode | undefined): void {
    if (!parent || this.#fresh.has(parent.id) || this.#tree.byId.get(parent.id) !== parent) {
      return;
    }
    if (parent.backendId === undefined) {
      throw new NotScoped('a stale parent without a DOM node');
    }
    this.needs.nodes.add(parent.backendId);
  }

  /** The fresh nodes' children (kept or fresh) under them. */
  #linkChildren(): void {
    for (const node of this.#fresh.values()) {
      // Without verbose, text nodes keep no children (their line boxes are left out).
      const ids =
        !this.kept.verbose && node.role === 'StaticText' ? [] : (this.#childIds.get(node) ?? []);
      for (const childId of ids) {
        const child = this.#tree.byId.get(childId);
        if (!child) {
          // Read it whole; a child without a DOM node comes with its parent's subtree.
          if (/^\d+$/.test(childId)) {
            this.needs.subtrees.add(Number(childId));
          } else if (node.backendId !== undefined) {
            this.needs.subtrees.add(node.backendId);
          } else {
            throw new NotScoped('a new node without a DOM node');
          }
          continue;
        }
        if (child.parent && child.parent !== node && !this.#fresh.has(child.parent.id)) {
          // It moved here from a kept parent that still lists it.
          this.#staleParent(child.parent);
        }
        addChild(node, child);
        child.parent = node;
      }
    }
  }

  /** Kept children a fresh node no longer lists left the tree (a move shows where it went). */
  #dropUnlisted(): void {
    for (const old of this.#oldOf.values()) {
      for (const child of old.children) {
        if (child.parent === old && this.#tree.byId.get(child.id) === child) {
          forget(this.#tree, child);
        }
      }
    }
  }

  /** Fresh nodes whose parent was not read go where their old node was, in that kept parent. */
  #hangInKeptParents(): void {
    const tree = this.#tree;
    for (const node of this.#fresh.values()) {
      if (node.parent || node.id === tree.root.id) {
        continue;
      }
      const parentId = this.reads.fresh.get(node.id)?.parentId;
      const parent = parentId === undefined ? undefined : tree.byId.get(parentId);
      const old = this.#oldOf.get(node.id);
      const index = old && parent ? parent.children.indexOf(old) : -1;
      if (parent && index >= 0) {
        parent.children[index] = node;
        node.parent = parent;
        continue;
      }
      // New under a kept parent that does not list it yet, or moved away from one that does.
      this.#staleParent(parent);
      this.#staleParent(old?.parent);
    }
  }
}

/**
 * The tree is whole: every node reachable once from the root, with its parent link, and nothing
 * kept that is not reachable.
 */
export function checkWhole(tree: DocumentTree): void {
  let reached = 0;
  const stack: TreeNode[] = [tree.root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    reached++;
    if (reached > tree.byId.size || tree.byId.get(node.id) !== node) {
      throw new NotScoped('the tree does not add up');
    }
    for (const child of node.children) {
      if (child.parent !== node) {
        throw new NotScoped('a node with two parents');
      }
      stack.push(child);
    }
  }
  if (reached !== tree.byId.size) {
    throw new NotScoped('nodes outside the tree');
  }
}
