/**
 * Accessibility snapshot: the page's AX tree as one line per node with a `uid` the agent passes back
 * to act on the element. Built from `Accessibility.getFullAXTree` for every document of the page —
 * the main frame, same-process iframes and cross-site (out-of-process) iframes, each stitched under
 * its `Iframe` node — and pruned to what an agent can use (see rules.ts). A node keeps its
 * uid across snapshots as long as its document lives. When nothing changed since the last snapshot
 * (see pageProbe.ts), the last one is answered again without walking the tree.
 */
import {axString, buildTree, type TreeNode} from './axTree.js';
import {NotScoped, readSubtree} from './changeRoots.js';
import {frameTargetsFeature, type FrameDocument} from '../pages/frames.js';
import {shownOrder} from './gridOrder.js';
import {keptTreesFeature} from './keptTree.js';
import {windowOptions, type OptionWindows} from './optionWindow.js';
import {readProbe} from './pageProbe.js';
import {PageFeature, type AttachableFeature, type PageState} from '../pages/PageState.js';
import {
  readDocuments,
  stitch,
  type DocumentsRead,
  type LoadedDocument,
  type ReadDocuments,
} from './documents.js';
import {formatNode} from './format.js';
import {seenSnapshotsFeature} from './diffs.js';
import {pendingTreeReadsFeature, TreeTooLargeError} from './wholeRead.js';
import {WorkBudget} from '../workBudget.js';
import {isDocumentRoot, redundantLabels, selectInteresting} from './rules.js';
import {snapshotFeature, type ElementIdentity, type FieldKind, type UidTarget} from './uids.js';
import type {SnapshotDocument} from './diffs.js';

export {normalizeUid, snapshotFeature, SnapshotStore} from './uids.js';

/**
 * Every per-page value the snapshot keeps, for the page registry: each is freed when its page
 * closes (kept trees are tens of megabytes on a large page).
 */
export function snapshotFeatures(): AttachableFeature[] {
  return [
    snapshotFeature,
    cacheFeature,
    keptTreesFeature,
    pendingTreeReadsFeature,
    seenSnapshotsFeature,
    snapshotTurnFeature,
  ];
}

export interface SnapshotOptions {
  verbose: boolean;
  /** Show only this element's subtree, with every option of its lists. */
  rootUid?: string | undefined;
  /**
   * Read every document whole into throwaway trees, without the cache, the kept trees or the
   * change logs (a check of the incremental path against a full read).
   */
  fresh?: boolean;
}

export interface SnapshotResult {
  text: string;
  nodeCount: number;
  /** Answered from the previous snapshot because nothing changed. */
  cached: boolean;
  /** How the trees were read: only what changed, or some document whole. */
  read: DocumentsRead | 'cached';
  /** Why a document was read whole. */
  why?: string | undefined;
  /** Accessibility nodes read from the browser for this snapshot (0 from the cache). */
  nodesRead: number;
  /** The page's main document the snapshot is of (undefined when there was none to read). */
  document?: SnapshotDocument | undefined;
}

/** A cached snapshot older than this is rebuilt even if no change was seen (a safety net). */
const CACHE_MAX_AGE_MS = 30_000;

interface CachedSnapshot {
  verbose: boolean;
  text: string;
  document: SnapshotDocument;
  nodeCount: number;
  actionCount: number;
  frameGeneration: number;
  takenAt: number;
  probes: {doc: FrameDocument; reading: string}[];
}

const cacheFeature = new PageFeature<{last: CachedSnapshot | undefined}>('snapshotCache', () => ({
  last: undefined,
}));

async function fromCache(
  state: PageState,
  options: SnapshotOptions,
): Promise<SnapshotResult | undefined> {
  const last = cacheFeature.get(state).last;
  const frames = frameTargetsFeature.get(state);
  if (
    !last ||
    options.rootUid !== undefined ||
    last.verbose !== options.verbose ||
    last.actionCount !== state.actionCount ||
    last.frameGeneration !== frames.generation ||
    Date.now() - last.takenAt > CACHE_MAX_AGE_MS ||
    last.probes.some(({doc}) => state.loaderIds.get(doc.frameId) !== doc.loaderId)
  ) {
    return undefined;
  }
  const readings = await Promise.all(last.probes.map(({doc}) => readProbe(state, doc)));
  const unchanged = readings.every(
    (reading, index) => reading !== undefined && reading === last.probes[index]?.reading,
  );
  return unchanged
    ? {
        text: last.text,
        nodeCount: last.nodeCount,
        cached: true,
        read: 'cached',
        document: last.document,
        nodesRead: 0,
      }
    : undefined;
}

function findNode(loaded: readonly LoadedDocument[], target: UidTarget): TreeNode | undefined {
  for (const entry of loaded) {
    if (entry.doc.cdp === target.cdp && entry.doc.loaderId === target.loaderId) {
      const node = entry.tree.byBackendId.get(target.backendNodeId);
      if (node) {
        return node;
      }
    }
  }
  return undefined;
}

/**
 * The page's snapshot in progress. Two snapshots of one page must not interleave: each takes the
 * frame documents out of their `Iframe` nodes, reads, stitches them back in and hands out uids,
 * and overlapping ones would stitch a document in twice (its nodes shown twice, under new uids).
 * Tool calls are serialized by the page lock, but not every caller holds it (a WebMCP tool's
 * element results, a call still winding down after its cancel released the lock).
 */
const snapshotTurnFeature = new PageFeature<{running: Promise<unknown>}>('snapshotTurn', () => ({
  running: Promise.resolve(),
}));

/** Takes a snapshot of the page (every frame stitched in) and records the uids. */
export function takeSnapshot(state: PageState, options: SnapshotOptions): Promise<SnapshotResult> {
  const turn = snapshotTurnFeature.get(state);
  // Waits for the one before it whatever its outcome; that one is bounded by its own budget.
  const result = turn.running.then(
    () => snapshotInTurn(state, options),
    () => snapshotInTurn(state, options),
  );
  turn.running = result.catch(() => undefined);
  return result;
}

async function snapshotInTurn(state: PageState, options: SnapshotOptions): Promise<SnapshotResult> {
  const frames = frameTargetsFeature.get(state);
  await frames.ensure();
  const fresh = options.fresh === true;
  const cached = fresh ? undefined : await fromCache(state, options);
  if (cached) {
    return cached;
  }
  const budget = new WorkBudget(state);
  const actionCount = state.actionCount;
  const frameGeneration = frames.generation;
  const docs = await frames.documents();
  let documents: ReadDocuments;
  try {
    documents = await readDocuments(state, docs, {
      verbose: options.verbose,
      fresh,
      frameGeneration,
      budget,
    });
  } catch (error) {
    if (error instanceof TreeTooLargeError && options.rootUid !== undefined) {
      return await partOfLargePage(state, {docs, rootUid: options.rootUid, budget}, options);
    }
    throw error;
  }
  const {loaded, readings, read, why, nodesRead} = documents;
  const main = loaded[0];
  if (!main || main.doc !== docs[0]) {
    // Never an empty tree as if the page were empty.
    throw new Error(
      `Page ${state.id} has no document to read yet (it is still loading, or its main thread does not answer). Wait a few seconds and call take_snapshot again.`,
    );
  }
  const owners = stitch(loaded);
  if (!fresh) {
    keptTreesFeature.get(state).stitched = owners;
  }

  const store = snapshotFeature.get(state);
  let start = main.tree.root;
  if (options.rootUid !== undefined) {
    const target = store.target(options.rootUid);
    const node = target && findNode(loaded, target);
    if (!node) {
      throw new Error(
        `Element uid "${options.rootUid}" not found on page ${state.id}. Use a uid from the latest snapshot (take_snapshot).`,
      );
    }
    start = node;
  }
  const quietLabels = new Set<TreeNode>();
  for (const entry of loaded) {
    for (const label of redundantLabels(entry.tree.byBackendId)) {
      quietLabels.add(label);
    }
  }
  const result = render(state, {start, main, quietLabels}, options);
  const document = {loaderId: main.doc.loaderId, url: main.doc.url};
  if (options.rootUid === undefined && !fresh) {
    cacheFeature.get(state).last = readings.every(reading => reading !== undefined)
      ? {
          verbose: options.verbose,
          text: result.text,
          document,
          nodeCount: result.nodeCount,
          actionCount,
          frameGeneration,
          takenAt: Date.now(),
          probes: docs.map((doc, index) => ({doc, reading: readings[index] ?? ''})),
        }
      : undefined;
  }
  return {...result, cached: false, read, why, document, nodesRead};
}

/**
 * The snapshot of one element's subtree on a page too large to read whole: that part alone is
 * read (partial reads, bounded), without the kept trees.
 */
async function partOfLargePage(
  state: PageState,
  part: {docs: readonly FrameDocument[]; rootUid: string; budget: WorkBudget},
  options: SnapshotOptions,
): Promise<SnapshotResult> {
  const target = snapshotFeature.get(state).target(part.rootUid);
  const doc =
    target &&
    part.docs.find(
      candidate => candidate.cdp === target.cdp && candidate.loaderId === target.loaderId,
    );
  if (!target || !doc) {
    throw new Error(
      `Element uid "${part.rootUid}" not found on page ${state.id}. Use a uid from the latest snapshot (take_snapshot).`,
    );
  }
  let nodes;
  try {
    nodes = await readSubtree(
      state,
      {cdp: doc.cdp, verbose: options.verbose},
      target.backendNodeId,
      part.budget,
    );
  } catch (error) {
    if (error instanceof NotScoped) {
      throw new Error(
        `The page is too large to read whole, and the part under uid ${part.rootUid} is too large to read on its own (${error.message}). Take a snapshot of a smaller part: a uid further down.`,
        {cause: error},
      );
    }
    throw error;
  }
  const tree = buildTree(nodes, doc, !options.verbose);
  if (!tree) {
    throw new Error(`Element uid "${part.rootUid}" has no accessibility node on page ${state.id}.`);
  }
  const main = {doc, tree, ownerBackendId: undefined};
  const quietLabels = redundantLabels(tree.byBackendId);
  const result = render(state, {start: tree.root, main, quietLabels}, options);
  return {
    ...result,
    cached: false,
    read: 'full',
    why: 'a part of a page too large to read whole',
    document: {loaderId: doc.loaderId, url: doc.url},
    nodesRead: nodes.length,
  };
}

/** The lines of the tree below `start`, and the uids they hand out. */
function render(
  state: PageState,
  tree: {start: TreeNode; main: LoadedDocument; quietLabels: ReadonlySet<TreeNode>},
  options: SnapshotOptions,
): {text: string; nodeCount: number} {
  const {start, main, quietLabels} = tree;
  const store = snapshotFeature.get(state);
  store.beginSnapshot();
  const seen = new Map<string, string>();
  const targets = new Map<string, UidTarget>();
  const uidOfNode = new Map<TreeNode, string>();
  const identities = new IdentityRecorder();
  const lines: string[] = [];
  let base: URL | undefined;
  try {
    base = new URL(main.doc.url);
  } catch {
    base = undefined;
  }
  const emit = (node: TreeNode, depth: number): void => {
    const backendNodeId = node.backendId;
    let uid: string;
    if (backendNodeId === undefined) {
      uid = store.uidForKey(`${node.doc.loaderId}:ax${node.id}`, seen);
    } else {
      const {frameId, loaderId, cdp} = node.doc;
      node.target ??= {backendNodeId, frameId, loaderId, cdp, key: `${loaderId}:${backendNodeId}`};
      uid = store.uidFor(node.target, seen, targets);
    }
    uidOfNode.set(node, uid);
    identities.add(node, uid, depth, backendNodeId !== undefined);
    lines.push(`${' '.repeat(depth)}${formatNode(node, uid, isDocumentRoot(node), base)}`);
  };

  if (options.verbose) {
    const walk = (node: TreeNode, depth: number): void => {
      emit(node, depth);
      for (const child of shownOrder(node)) {
        walk(child, depth + 1);
      }
    };
    walk(start, 0);
  } else {
    const shown = selectInteresting(main.tree.root, quietLabels);
    shown.add(start);
    const windows: OptionWindows =
      options.rootUid === undefined
        ? windowOptions(start, shown)
        : {hidden: new Set(), gaps: new Map()};
    const walk = (node: TreeNode, depth: number): void => {
      if (windows.hidden.has(node)) {
        const gap = windows.gaps.get(node);
        if (gap) {
          lines.push(`${' '.repeat(depth)}${gapLine(gap.count, uidOfNode.get(gap.owner), gap)}`);
        }
        return;
      }
      const visible = shown.has(node);
      if (visible) {
        emit(node, depth);
      }
      for (const child of shownOrder(node)) {
        walk(child, visible ? depth + 1 : depth);
      }
    };
    walk(start, 0);
  }
  store.commit(seen, targets, options.rootUid !== undefined, identities.byUid);
  return {text: lines.join('\n'), nodeCount: lines.length};
}

/**
 * Who each uid's node is (role and name as the line shows them, the parent uid, nth among the same
 * role and name), recorded as the snapshot's lines are emitted, in order.
 */
class IdentityRecorder {
  readonly byUid = new Map<string, ElementIdentity>();
  readonly #counts = new Map<string, number>();
  /** The uid last emitted at each depth: the parent of the next node one level deeper. */
  readonly #uidAtDepth: string[] = [];

  add(node: TreeNode, uid: string, depth: number, resolvable: boolean): void {
    const parentUid = depth > 0 ? this.#uidAtDepth[depth - 1] : undefined;
    this.#uidAtDepth.length = depth;
    this.#uidAtDepth.push(uid);
    if (!resolvable) {
      return;
    }
    const role = node.ariaHidden?.role ?? node.role;
    const name = node.ariaHidden?.name ?? node.name;
    const key = `${role}\u0000${name}`;
    const nth = this.#counts.get(key) ?? 0;
    this.#counts.set(key, nth + 1);
    const field = fieldKind(node);
    this.byUid.set(uid, {
      role,
      name,
      nth,
      ...(field === undefined ? {} : {field}),
      ...(parentUid === undefined ? {} : {parentUid}),
    });
  }
}

/** Roles of fields that react to each key typed (they filter, suggest or search as you type). */
const KEY_ROLES = new Set(['combobox', 'searchbox']);

/** How a node takes a value, if it is a field (see FieldKind). */
function fieldKind(node: TreeNode): FieldKind | undefined {
  const editable = axString(node.properties.get('editable'));
  if (editable === '') {
    return node.role === 'combobox' || node.role === 'listbox' ? 'select' : undefined;
  }
  const autocomplete = axString(node.properties.get('autocomplete'));
  const reactsToKeys = KEY_ROLES.has(node.role) || (autocomplete !== '' && autocomplete !== 'none');
  return reactsToKeys ? 'keys' : 'text';
}

function gapLine(count: number, ownerUid: string | undefined, gap: {owner: TreeNode}): string {
  const noun = count === 1 ? 'option' : 'options';
  if (ownerUid === undefined) {
    return `… ${count} more ${noun}`;
  }
  const fill =
    gap.owner.role === 'combobox' ? `fill uid ${ownerUid} with an option's text, or ` : '';
  return `… ${count} more ${noun}: ${fill}take_snapshot with uid ${ownerUid} lists all`;
}
