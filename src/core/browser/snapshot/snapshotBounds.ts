/**
 * The snapshot's bounds on a page, kept per page: the product's values unless something sets them
 * lower for that page. Tests of a page that does not answer, or one too large to read whole, set
 * them lower so the same code runs with a shorter wait or a smaller page.
 */
import {IN_PAGE_TIMEOUT_MS} from '../evaluation.js';
import {PageFeature} from '../pages/PageState.js';
import {WHOLE_READ_ELEMENT_LIMIT} from './changeScript.js';

export interface SnapshotBounds {
  /**
   * How long the main document's change log is waited for on a quiet machine (scaled by the
   * measured slowness, workBudget.ts): a page busy for seconds answers late.
   */
  mainDocumentWaitMs: number;
  /** Elements above which a document is not read whole (changeScript.ts). */
  wholeReadElementLimit: number;
}

export const snapshotBoundsFeature = new PageFeature<SnapshotBounds>('snapshotBounds', () => ({
  mainDocumentWaitMs: IN_PAGE_TIMEOUT_MS,
  wholeReadElementLimit: WHOLE_READ_ELEMENT_LIMIT,
}));
