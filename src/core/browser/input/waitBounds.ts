/**
 * The waits of an action that end in a failure or a note when nothing changes, kept per page: the
 * product's values unless something sets them lower for that page. Tests of a cover that never goes
 * away, a click that opens no file chooser, or a scroll that never ends set them lower, so the same
 * code reaches the same outcome sooner.
 */
import {PageFeature} from '../pages/PageState.js';

/** How long a click on an element that is not a file input waits for the file chooser it opens. */
export const FILE_CHOOSER_WAIT_MS = 3_000;

/**
 * Longest wait for a scroll a key started to end, on a quiet machine (a smooth scroll over a long
 * page takes about 0.5 s); keyScroll.ts scales it with the measured slowness.
 */
export const KEY_SCROLL_WAIT_MS = 1_500;

export interface ActionWaitBounds {
  /** At most this long covered before failing; unset, coveredTimeout (timeouts.ts) alone. */
  coveredMaxMs: number | undefined;
  fileChooserMs: number;
  keyScrollMs: number;
}

export const actionWaitBoundsFeature = new PageFeature<ActionWaitBounds>(
  'actionWaitBounds',
  () => ({
    coveredMaxMs: undefined,
    fileChooserMs: FILE_CHOOSER_WAIT_MS,
    keyScrollMs: KEY_SCROLL_WAIT_MS,
  }),
);
