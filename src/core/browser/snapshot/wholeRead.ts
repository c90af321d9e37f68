/**
 * One document's accessibility tree read whole (`Accessibility.getFullAXTree`): the most expensive
 * thing a snapshot asks of the browser (seconds on a 30,000-node page, many times that on a loaded
 * machine). Its bound scales with the measured slowness (workBudget.ts). A read that outlasts it
 * is not thrown away: it goes on in the browser, and the next snapshot of the same document,
 * unchanged since the read began (equal probe readings), takes it up instead of starting over.
 * A document too large to read whole is refused before anything is sent: its reply would be
 * hundreds of megabytes.
 */
import type {AXNode} from './axTree.js';
import {EvaluationTimeoutError} from '../evaluation.js';
import type {FrameDocument} from '../pages/frames.js';
import {raceDialog} from './pageProbe.js';
import {PageFeature, type PageState} from '../pages/PageState.js';
import {snapshotBoundsFeature} from './snapshotBounds.js';
import {describeSlowness, type WorkBudget} from '../workBudget.js';

/** Bound on building one document's tree on a quiet machine (seconds on a very large page). */
const TREE_READ_QUIET_MS = 20_000;
/**
 * The CDP command's own bound, past the engine-wide protocol timeout (30 s): a read that outlasts
 * one call's bound goes on for the next call, and on a loaded machine a whole read can take longer
 * than 30 s (the peer, with Puppeteer's default of 180 s, still answers there). Each call waits
 * only its own bound; this one only ends a read that never answers.
 */
const TREE_READ_COMMAND_MS = 180_000;
/** How long a finished read nobody took up is kept for the next snapshot. */
const UNCLAIMED_KEEP_MS = 60_000;

interface PendingRead {
  loaderId: string;
  /** The probe reading when the read began: the document must still read the same. */
  reading: string;
  nodes: Promise<AXNode[]>;
}

/** Reads that outlasted their bound, by frame id. */
const pendingFeature = new PageFeature('pendingTreeReads', () => new Map<string, PendingRead>());

/** Thrown when a document's tree could not be read whole: the message says why and what to do. */
export class TreeReadError extends Error {}

/** The document is too large to read whole; a part of it still can be (readSubtree). */
export class TreeTooLargeError extends TreeReadError {}

export interface WholeReadContext {
  budget: WorkBudget;
  /** The probe reading at the take (undefined when the page did not answer it). */
  reading: string | undefined;
  /** The document's element count from the take, when known. */
  elements: number | undefined;
}

function startRead(doc: FrameDocument): Promise<AXNode[]> {
  const isMain = doc.ownerCdp === undefined;
  return doc.cdp
    .send('Accessibility.getFullAXTree', isMain ? {} : {frameId: doc.frameId}, {
      timeout: TREE_READ_COMMAND_MS,
    })
    .then(reply => reply.nodes);
}

/** The document's nodes, from a read still going on for it or a new one. */
export async function readWholeTree(
  state: PageState,
  doc: FrameDocument,
  context: WholeReadContext,
): Promise<AXNode[]> {
  const {elements, reading} = context;
  if (elements !== undefined && elements > snapshotBoundsFeature.get(state).wholeReadElementLimit) {
    throw new TreeTooLargeError(
      `The page has ${elements.toLocaleString('en-US')} elements: reading its whole accessibility tree would take minutes and hundreds of MB, so it was not read. Take a snapshot of one part (take_snapshot with the uid of an element from an earlier snapshot), or make the page smaller first (filter, paginate, collapse), or use take_screenshot.`,
    );
  }
  const pending = pendingFeature.get(state);
  const earlier = pending.get(doc.frameId);
  let nodes: Promise<AXNode[]>;
  if (earlier?.loaderId === doc.loaderId && earlier.reading === reading) {
    nodes = earlier.nodes;
  } else {
    nodes = startRead(doc);
    // A late failure of a read nobody waits for any more is not an error of anyone's.
    nodes.catch(() => undefined);
  }
  pending.delete(doc.frameId);
  const bound = context.budget.bound(TREE_READ_QUIET_MS);
  try {
    return await raceDialog(state, nodes, bound);
  } catch (error) {
    if (!(error instanceof EvaluationTimeoutError)) {
      throw error;
    }
    if (reading !== undefined) {
      keepPending(state, doc, {loaderId: doc.loaderId, reading, nodes});
    }
    const busy = describeSlowness(context.budget.slowness);
    const size = elements === undefined ? '' : ` (${elements.toLocaleString('en-US')} elements)`;
    const seconds = Math.round(bound / 1000);
    throw new TreeReadError(
      reading === undefined
        ? `Reading the page's accessibility tree${size} did not finish within ${seconds} s: the page does not answer (a long-running script, or a very large page)${busy ? ` and ${busy}` : ''}. Wait a few seconds and call take_snapshot again; to look at one part, call take_snapshot with the uid of an element from an earlier snapshot.`
        : `Reading the page's accessibility tree${size} did not finish within ${seconds} s: ${busy || 'the page is busy or very large'}. The read goes on: call take_snapshot again to get it (it is taken up, not started over, while the page stays unchanged).`,
    );
  }
}

function keepPending(state: PageState, doc: FrameDocument, read: PendingRead): void {
  const pending = pendingFeature.get(state);
  pending.set(doc.frameId, read);
  // Dropped a while after it finished unclaimed: the reply can be tens of megabytes.
  const drop = (): void => {
    const timer = setTimeout(() => {
      if (pending.get(doc.frameId) === read) {
        pending.delete(doc.frameId);
      }
    }, UNCLAIMED_KEEP_MS);
    timer.unref();
  };
  read.nodes.then(drop, drop);
}

export {pendingFeature as pendingTreeReadsFeature};
