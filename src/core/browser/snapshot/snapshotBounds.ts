/**
 * The snapshot's bounds on a page, kept per page: the product's values unless something sets them
 * lower for that page. Tests of a page that does not answer, or one too large to read whole, set
 * them lower so the same code runs with a shorter wait or a smaller page.
 */
import {IN_PAGE_TIMEOUT_MS} from '../evaluation.js';
import {PageFeature} from '../pages/PageState.js';

/**
 * Elements above which a document is not read whole (wholeRead.ts): about two accessibility nodes
 * of ~450 bytes of JSON each per element, so ~100 MB of reply and minutes of the page's main
 * thread. The change log's take answers such a document at once, unscoped.
 */
export const WHOLE_READ_ELEMENT_LIMIT = 120_000;

export interface SnapshotBounds {
  /**
   * How long the main document's change log is waited for on a quiet machine (scaled by the
   * measured slowness, workBudget.ts): a page busy for seconds answers late.
   */
  mainDocumentWaitMs: number;
  /** Elements above which a document is not read whole (the take answers it at once, unscoped). */
  wholeReadElementLimit: number;
}

export const snapshotBoundsFeature = new PageFeature<SnapshotBounds>('snapshotBounds', () => ({
  mainDocumentWaitMs: IN_PAGE_TIMEOUT_MS,
  wholeReadElementLimit: WHOLE_READ_ELEMENT_LIMIT,
}));
