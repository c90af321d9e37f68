/**
 * Brings a kept accessibility tree up to date by reading only what changed: for each root the
 * change log names (src/injected/treeChanges.ts), its subtree or its own node and child list, and its
 * ancestors (names computed from content reach up). Everything is read with
 * `Accessibility.getPartialAXTree`, which answers at once (a `queryAXTree` waits for the frame's
 * next rendering, which never comes in a throttled off-screen frame), level by level for a
 * subtree. The fresh nodes replace the kept ones under the same ids (so uids stay), old subtrees
 * go, and the tree is checked whole afterwards. Anything that does not fit — a child no read
 * returned, a kept parent that still lists a node that moved — is read in a further round, a
 * bounded number of times; after that, or when a read fails, the caller reads the whole document
 * instead. Never a guess.
 */
import {markActiveDescendants, type AXNode, type DocumentTree} from './axTree.js';
import {IN_PAGE_TIMEOUT_MS} from '../evaluation.js';
import type {KeptDocument} from './keptTree.js';
import {raceDialog, type ChangeRoot} from './pageProbe.js';
import type {PageState} from '../pages/PageState.js';
import {apply, checkWhole, emptyReads, NotScoped, type Needs, type Reads} from './spliceTree.js';
import type {WorkBudget} from '../workBudget.js';

export {NotScoped} from './spliceTree.js';

/** Rounds of further reads for what the first round left unexplained. */
const MAX_ROUNDS = 3;
/** Reads one subtree may take, and nodes it may have, before the document is read whole. */
const SUBTREE_READS = 400;
const SUBTREE_NODES = 8_000;

/** Brings `kept` up to date; returns how many accessibility nodes it read. */
export async function updateKept(
  state: PageState,
  kept: KeptDocument,
  roots: readonly ChangeRoot[],
  budget: WorkBudget,
): Promise<number> {
  const reader = new Reader(state, kept, budget);
  let reads = await readRoots(kept.tree, roots, reader);
  for (let round = 0; ; round++) {
    const needs = apply(kept, reads);
    if (needs.subtrees.size === 0 && needs.nodes.size === 0) {
      break;
    }
    if (round + 1 >= MAX_ROUNDS) {
      throw new NotScoped('the change reaches further than its roots');
    }
    reads = await readNeeds(needs, reader);
  }
  checkWhole(kept.tree);
  // A form's validation bubble hangs off the document without a DOM node of its own.
  if (kept.tree.root.children.some(child => child.backendId === undefined)) {
    throw new NotScoped('a validation message');
  }
  markActiveDescendants(kept.tree);
  return reader.nodesRead;
}

/**
 * One element's subtree read on its own, without a kept tree (a part of a page too large to read
 * whole). Bounded like any subtree read: a part too large throws NotScoped.
 */
export async function readSubtree(
  state: PageState,
  doc: Pick<KeptDocument, 'cdp' | 'verbose'>,
  backendNodeId: number,
  budget: WorkBudget,
): Promise<AXNode[]> {
  const {nodes} = await new Reader(state, doc, budget).subtree(backendNodeId);
  return nodes;
}

/** Partial reads of one document, bounded and raced against dialogs. */
class Reader {
  /** Accessibility nodes the partial reads returned. */
  nodesRead = 0;

  constructor(
    private readonly state: PageState,
    private readonly kept: Pick<KeptDocument, 'cdp' | 'verbose'>,
    private readonly budget: WorkBudget,
  ) {}

  async partial(backendNodeId: number, fetchRelatives: boolean): Promise<AXNode[]> {
    try {
      const reply = await raceDialog(
        this.state,
        this.kept.cdp.send('Accessibility.getPartialAXTree', {backendNodeId, fetchRelatives}),
        this.budget.bound(IN_PAGE_TIMEOUT_MS),
      );
      this.nodesRead += reply.nodes.length;
      return reply.nodes;
    } catch (error) {
      throw new NotScoped(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * A node's subtree, level by level: each read lists a node's children (and, through ignored
   * and DOM-less ones, theirs). Also the first read, whose ancestors the caller wants.
   */
  async subtree(backendNodeId: number): Promise<{around: AXNode[]; nodes: AXNode[]}> {
    const around = await this.partial(backendNodeId, true);
    const self = around[0];
    if (!self) {
      throw new NotScoped('no node');
    }
    const nodes = new Map<string, AXNode>([[self.nodeId, self]]);
    let reads = 1;
    let open = this.#next(around, nodes);
    while (open.length > 0) {
      reads += open.length;
      if (reads > SUBTREE_READS || nodes.size > SUBTREE_NODES) {
        throw new NotScoped('a large subtree');
      }
      const layers = await Promise.all(
        open.map(async ({id, backendNodeId: child}) => {
          const read = await this.partial(child, true);
          if (read[0]?.nodeId !== id) {
            throw new NotScoped('a child read as another node');
          }
          nodes.set(id, read[0]);
          return read;
        }),
      );
      open = layers.flatMap(layer => this.#next(layer, nodes));
    }
    return {around, nodes: [...nodes.values()]};
  }

  /**
   * Adds a read's children layer; returns the nodes whose own children still need a read. The
   * read of an ignored node lists no children: each is read on its own.
   */
  #next(
    read: readonly AXNode[],
    nodes: Map<string, AXNode>,
  ): {id: string; backendNodeId: number}[] {
    const self = read[0];
    if (self?.ignored === true) {
      return (self.childIds ?? []).map(id => ({id, backendNodeId: domId(id)}));
    }
    return this.#layer(read, nodes);
  }

  #layer(
    read: readonly AXNode[],
    nodes: Map<string, AXNode>,
  ): {id: string; backendNodeId: number}[] {
    const ancestors = new Set(ancestorIds(read));
    const open: {id: string; backendNodeId: number}[] = [];
    for (const node of read.slice(1)) {
      if (ancestors.has(node.nodeId)) {
        continue;
      }
      nodes.set(node.nodeId, node);
      // Ignored and DOM-less nodes were read through; text keeps only line boxes below it.
      const through = node.ignored || node.backendDOMNodeId === undefined;
      const textOnly = !this.kept.verbose && node.role?.value === 'StaticText';
      if (!through && !textOnly && (node.childIds ?? []).length > 0) {
        open.push({id: node.nodeId, backendNodeId: domId(node.nodeId)});
      }
    }
    return open;
  }
}

/** A DOM node's accessibility id is its backend node id (the read of it confirms it). */
function domId(id: string): number {
  if (!/^\d+$/.test(id)) {
    throw new NotScoped('a node without a DOM node');
  }
  return Number(id);
}

/** The first round: each root's subtree or node, and its ancestors. */
async function readRoots(
  tree: DocumentTree,
  roots: readonly ChangeRoot[],
  reader: Reader,
): Promise<Reads> {
  const reads = emptyReads();
  const patchedParents = new Set<number>();
  const wholes: {backendNodeId: number; self: AXNode; nodes: AXNode[]}[] = [];
  const readWhole = async (backendNodeId: number): Promise<void> => {
    const {around, nodes} = await reader.subtree(backendNodeId);
    addAncestors(reads, around, patchedParents);
    const self = around[0];
    if (self) {
      wholes.push({backendNodeId, self, nodes});
    }
  };
  const readOwn = async (root: ChangeRoot): Promise<void> => {
    // Its own node and child list; its ancestors through a small child (its own read with
    // relatives would list every child, slow on a long list).
    const [[self], around] = await Promise.all([
      reader.partial(root.backendNodeId, false),
      reader.partial(root.anchor ?? root.backendNodeId, true),
    ]);
    if (!self) {
      throw new NotScoped('no node');
    }
    if (!tree.byId.has(self.nodeId)) {
      // New to the tree (or never in it): read whole.
      await readWhole(root.backendNodeId);
      return;
    }
    reads.fresh.set(self.nodeId, self);
    const ids = root.anchor === undefined ? [] : ancestorIds(around);
    if (ids[0] !== self.nodeId) {
      addAncestors(
        reads,
        root.anchor === undefined ? around : await reader.partial(root.backendNodeId, true),
        patchedParents,
      );
      return;
    }
    const byId = new Map(around.map(node => [node.nodeId, node]));
    for (const id of ids.slice(1)) {
      const node = byId.get(id);
      if (node && !reads.fresh.has(id)) {
        reads.fresh.set(id, node);
      }
    }
  };
  await Promise.all(
    roots.map(root => (root.kind === 'tree' ? readWhole(root.backendNodeId) : readOwn(root))),
  );
  // Where the root is ignored (or not in the tree), the read lists it first among its parent's
  // children whatever the DOM order: read those parents on their own.
  await Promise.all(
    [...patchedParents].map(async backendNodeId => {
      const [parent] = await reader.partial(backendNodeId, false);
      if (!parent) {
        throw new NotScoped('no parent');
      }
      reads.fresh.set(parent.nodeId, parent);
    }),
  );
  addWholes(reads, wholes);
  return reads;
}

/** Subtrees read whole, in the place of their kept ones. */
function addWholes(
  reads: Reads,
  wholes: readonly {backendNodeId: number; self: AXNode; nodes: readonly AXNode[]}[],
): void {
  for (const {backendNodeId, self, nodes} of wholes) {
    // An ignored node its parent does not list (or without a parent) is not in the tree: a
    // wrapper Chromium drops (role presentation/none, aria-hidden, a plain generic), an element
    // in a display:none subtree. The partial read names its parent as the nearest node in the
    // tree and its children as the nodes it contributes there, hoisted: those are read again in
    // its place (their parent, read on its own, lists them).
    const parent = self.parentId === undefined ? undefined : reads.fresh.get(self.parentId);
    if (self.ignored && !(parent?.childIds ?? []).includes(self.nodeId)) {
      reads.absent.add(backendNodeId);
      for (const id of self.childIds ?? []) {
        reads.replaced.add(id);
      }
    } else {
      reads.replaced.add(self.nodeId);
    }
    for (const node of nodes) {
      if (node !== self) {
        reads.fresh.set(node.nodeId, node);
      }
    }
    if (!reads.absent.has(backendNodeId)) {
      reads.fresh.set(self.nodeId, self);
    }
  }
}

/** The ids of the first read node's ancestors, nearest first, as the partial read lists them. */
function ancestorIds(around: readonly AXNode[]): string[] {
  const byId = new Map(around.map(node => [node.nodeId, node]));
  const ids: string[] = [];
  let current = around[0]?.parentId ?? around[1]?.nodeId;
  while (current !== undefined && ids.length < 4096) {
    const node = byId.get(current);
    if (!node) {
      throw new NotScoped('a broken chain of ancestors');
    }
    ids.push(current);
    current = node.parentId;
  }
  return ids;
}

function addAncestors(reads: Reads, around: readonly AXNode[], patchedParents: Set<number>): void {
  const byId = new Map(around.map(node => [node.nodeId, node]));
  ancestorIds(around).forEach((id, index) => {
    const node = byId.get(id);
    if (!node) {
      return;
    }
    if (index === 0 && around[0]?.ignored === true) {
      if (node.backendDOMNodeId === undefined) {
        throw new NotScoped('an ignored root under a DOM-less parent');
      }
      patchedParents.add(node.backendDOMNodeId);
      return;
    }
    if (!reads.fresh.has(id)) {
      reads.fresh.set(id, node);
    }
  });
}

/** Later rounds: subtrees no read returned, and nodes whose child list is stale. */
async function readNeeds(needs: Needs, reader: Reader): Promise<Reads> {
  const reads = emptyReads();
  await Promise.all([
    ...[...needs.subtrees].map(async backendNodeId => {
      const {nodes} = await reader.subtree(backendNodeId);
      const top = nodes[0];
      if (!top) {
        throw new NotScoped('no node');
      }
      reads.replaced.add(top.nodeId);
      for (const node of nodes) {
        reads.fresh.set(node.nodeId, node);
      }
    }),
    ...[...needs.nodes].map(async backendNodeId => {
      const [node] = await reader.partial(backendNodeId, false);
      if (!node) {
        throw new NotScoped('a stale parent that cannot be read');
      }
      reads.fresh.set(node.nodeId, node);
    }),
  ]);
  return reads;
}
