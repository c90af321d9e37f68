/**
 * The accessibility tree of every document of a page, for one snapshot: the kept tree brought up
 * to date where the change log scopes what changed (changeRoots.ts), the whole document read
 * again where it does not (`Accessibility.getFullAXTree`). The DOM marks (aria-current, controls
 * aria-hidden leaves clickable…) are read every time and applied on top.
 */
import type {CDPSession} from 'puppeteer-core';
import {addChild, buildTree, type DocumentTree, type TreeNode} from './axTree.js';
import {NotScoped, updateKept} from './changeRoots.js';
import {EvaluationTimeoutError, PROBE_TIMEOUT_MS} from '../evaluation.js';
import type {FrameDocument} from '../pages/frames.js';
import {applyMarks, keptTreesFeature, withinBound, type KeptDocument} from './keptTree.js';
import {raceDialog, readMarks, readProbe, takeChanges, type TakenChanges} from './pageProbe.js';
import type {PageState} from '../pages/PageState.js';
import {snapshotBoundsFeature} from './snapshotBounds.js';
import {readWholeTree, TreeReadError} from './wholeRead.js';
import {describeSlowness, type WorkBudget} from '../workBudget.js';

export interface LoadedDocument {
  doc: FrameDocument;
  tree: DocumentTree;
  ownerBackendId: number | undefined;
}

/** How each document's tree was had. */
export type DocumentsRead = 'incremental' | 'full';

export interface ReadDocuments {
  /** The documents that could be read, the main one first (missing → no snapshot). */
  loaded: LoadedDocument[];
  /** The probe reading of each document taken before its tree was read (for the cache). */
  readings: (string | undefined)[];
  /** 'incremental' when no document had to be read whole. */
  read: DocumentsRead;
  /** Why a document was read whole (the first one's reason). */
  why?: string | undefined;
  /** Accessibility nodes read from the browser (whole documents and partial reads). */
  nodesRead: number;
}

export interface ReadOptions {
  verbose: boolean;
  /** Read every document whole into a throwaway tree, leaving the kept trees and logs alone. */
  fresh: boolean;
  frameGeneration: number;
  budget: WorkBudget;
}

export async function readDocuments(
  state: PageState,
  docs: readonly FrameDocument[],
  options: ReadOptions,
): Promise<ReadDocuments> {
  const count = {nodes: 0};
  const {budget} = options;
  if (options.fresh) {
    return readFresh(state, docs, options);
  }
  const trees = keptTreesFeature.get(state);
  unstitch(trees.stitched);
  const current = trees.frameGeneration === options.frameGeneration;
  trees.frameGeneration = options.frameGeneration;
  trees.retain(docs);
  // Verbose trees are read whole: their line boxes follow layout (a wider cell rewraps its whole
  // column), which no change log can scope.
  const kept = docs.map(doc => (current && !options.verbose ? trees.get(doc) : undefined));
  // The main document is waited for (a page busy for seconds answers late); a frame that does
  // not answer soon is read whole, or left out.
  const taken = await Promise.all(
    docs.map((doc, index) => take(state, doc, kept[index]?.epoch ?? -1, budget)),
  );
  // A changed frame element: the documents in it may differ without any change of their own.
  const framesMoved = taken.some(take => take?.frames === true);
  let why: string | undefined;
  const loaded = await Promise.all(
    docs.map(async (doc, index) => {
      const take = taken[index];
      const found = framesMoved
        ? 'a frame element changed'
        : await scoped(state, kept[index], take, {count, budget});
      let tree = typeof found === 'string' ? undefined : found;
      if (!tree) {
        why ??= typeof found === 'string' ? found : 'unknown';
        trees.delete(doc);
        tree = await loadWhole(
          state,
          doc,
          {verbose: options.verbose, epoch: take?.epoch ?? -1},
          {count, budget, take},
        );
        if (tree && take && !options.verbose) {
          trees.set(tree);
        }
      }
      return tree ? await decorate(state, doc, tree, budget) : undefined;
    }),
  );
  withinBound(trees);
  return {
    loaded: present(loaded),
    readings: taken.map(take => take?.reading),
    read: why === undefined ? 'incremental' : 'full',
    why,
    nodesRead: count.nodes,
  };
}

/** Every document read whole into throwaway trees (a check of the incremental path). */
async function readFresh(
  state: PageState,
  docs: readonly FrameDocument[],
  options: ReadOptions,
): Promise<ReadDocuments> {
  const count = {nodes: 0};
  const {budget} = options;
  const loaded = await Promise.all(
    docs.map(async doc => {
      const kept = await loadWhole(
        state,
        doc,
        {verbose: options.verbose, epoch: -1},
        {
          count,
          budget,
          take: undefined,
        },
      );
      return kept ? await decorate(state, doc, kept, budget) : undefined;
    }),
  );
  return {
    loaded: present(loaded),
    readings: docs.map(() => undefined),
    read: 'full',
    nodesRead: count.nodes,
  };
}

/**
 * The change log of one document. The main document is waited for (a page busy for seconds
 * answers late); one that does not answer at all is not read whole either (its size is unknown:
 * it may be the reason it does not answer). A frame that does not answer soon is read whole, or
 * left out.
 */
async function take(
  state: PageState,
  doc: FrameDocument,
  epoch: number,
  budget: WorkBudget,
): Promise<TakenChanges | undefined> {
  const isMain = doc.ownerCdp === undefined;
  try {
    return await takeChanges(
      state,
      doc,
      epoch,
      budget.bound(isMain ? snapshotBoundsFeature.get(state).mainDocumentWaitMs : PROBE_TIMEOUT_MS),
    );
  } catch (error) {
    if (!isMain) {
      return undefined;
    }
    if (error instanceof EvaluationTimeoutError) {
      const busy = describeSlowness(budget.slowness);
      throw new TreeReadError(
        `Page ${state.id} does not answer: its main thread is busy (a long-running script, or a very large page still being laid out)${busy ? `, and ${busy}` : ''}. Nothing was read. Wait a few seconds and call take_snapshot again.`,
        {cause: error},
      );
    }
    throw error;
  }
}

function present(loaded: readonly (LoadedDocument | undefined)[]): LoadedDocument[] {
  return loaded.flatMap(entry => (entry ? [entry] : []));
}

/**
 * The kept tree brought up to date, or undefined when the change cannot be scoped. The page must
 * not have changed while the parts were read (one whole read is a single moment; many partial
 * reads are not): the probe reads the same after as at the take.
 */
async function scoped(
  state: PageState,
  kept: KeptDocument | undefined,
  take: TakenChanges | undefined,
  {count, budget}: {count: {nodes: number}; budget: WorkBudget},
): Promise<KeptDocument | string> {
  if (!kept || !take) {
    return take ? 'no kept tree' : 'the change log could not be read';
  }
  if (take.full !== '') {
    return take.full;
  }
  try {
    if (take.roots.length > 0) {
      count.nodes += await updateKept(state, kept, take.roots, budget);
    }
    if ((await readProbe(state, kept, budget.bound(PROBE_TIMEOUT_MS))) !== take.reading) {
      return 'the page changed while it was read';
    }
    kept.epoch = take.epoch;
    return kept;
  } catch (error) {
    if (error instanceof NotScoped) {
      return error.message;
    }
    throw error;
  }
}

/** The whole document read again. Undefined for a frame that went away (the main one throws). */
async function loadWhole(
  state: PageState,
  doc: FrameDocument,
  options: {verbose: boolean; epoch: number},
  context: {count: {nodes: number}; budget: WorkBudget; take: TakenChanges | undefined},
): Promise<KeptDocument | undefined> {
  const isMain = doc.ownerCdp === undefined;
  try {
    const nodes = await readWholeTree(state, doc, {
      budget: context.budget,
      reading: context.take?.reading,
      elements: context.take?.elements,
    });
    context.count.nodes += nodes.length;
    const tree = buildTree(nodes, doc, !options.verbose);
    if (!tree) {
      return undefined;
    }
    return {
      cdp: doc.cdp,
      frameId: doc.frameId,
      loaderId: doc.loaderId,
      verbose: options.verbose,
      epoch: options.epoch,
      tree,
      marked: new Map(),
    };
  } catch (error) {
    // Without the main document there is no snapshot: say why (a dialog, a page that does not
    // answer) instead of answering with an empty one.
    if (isMain) {
      throw error;
    }
    // A frame that went away, or one too slow or too large, is left out; the rest of the page
    // is still shown.
    return undefined;
  }
}

/** The DOM marks on the tree, and where the document hangs in the page. */
async function decorate(
  state: PageState,
  doc: FrameDocument,
  kept: KeptDocument,
  budget: WorkBudget,
): Promise<LoadedDocument | undefined> {
  const isMain = doc.ownerCdp === undefined;
  const bound = budget.bound(PROBE_TIMEOUT_MS);
  try {
    const [owner, marks] = await Promise.all([
      doc.ownerCdp
        ? raceDialog(state, doc.ownerCdp.send('DOM.getFrameOwner', {frameId: doc.frameId}), bound)
        : Promise.resolve(undefined),
      readMarks(state, doc, bound),
    ]);
    applyMarks(kept, marks);
    return {doc, tree: kept.tree, ownerBackendId: owner?.backendNodeId};
  } catch (error) {
    if (isMain) {
      throw error;
    }
    return undefined;
  }
}

/** Hangs each iframe's document under its `Iframe` node in the document that holds it. */
export function stitch(loaded: readonly LoadedDocument[]): TreeNode[] {
  const byCdp = new Map<CDPSession, LoadedDocument[]>();
  for (const entry of loaded) {
    const list = byCdp.get(entry.doc.cdp) ?? [];
    list.push(entry);
    byCdp.set(entry.doc.cdp, list);
  }
  const owners: TreeNode[] = [];
  for (const entry of loaded.slice(1)) {
    const ownerCdp = entry.doc.ownerCdp;
    const backendId = entry.ownerBackendId;
    if (!ownerCdp || backendId === undefined) {
      continue;
    }
    for (const candidate of byCdp.get(ownerCdp) ?? []) {
      const owner = candidate.tree.byBackendId.get(backendId);
      if (owner && candidate !== entry) {
        addChild(owner, entry.tree.root);
        owners.push(owner);
        break;
      }
    }
  }
  return owners;
}

/** Takes the documents stitched in last time out of their `Iframe` nodes again. */
function unstitch(owners: TreeNode[]): void {
  for (const owner of owners) {
    owner.children = owner.children.filter(child => child.doc === owner.doc);
  }
  owners.length = 0;
}
