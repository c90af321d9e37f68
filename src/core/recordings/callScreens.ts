/**
 * Before and after screenshots of each call's page. The live view's screencast frames are kept
 * (the latest few per page) and used when there are any: no extra capture while someone watches.
 * Otherwise, after a call that may have changed its page, one small JPEG is captured (bounded in
 * size and time, skipped while a dialog is open) once the page has had no call for QUIET_MS: never
 * on a call's path, its own or the next one's. A call followed that soon by another on its page
 * gets no after image (the next call's activity shows what happened). A call that did not change
 * its page reuses the latest image.
 */
import type {CallImage, LiveFrame} from '../../shared/protocol.js';
import type {PageState} from '../browser/pages/PageState.js';
import {captureScreenshot} from '../browser/screenshot.js';

/** Images larger than this (base64 characters) are not kept. */
export const MAX_CALL_IMAGE_CHARS = 512 * 1024;
const CAPTURE = {format: 'jpeg', quality: 50, maxWidth: 640, maxHeight: 480} as const;
const CAPTURE_TIMEOUT_MS = 2_000;
/** While the live view streams, how long after a call its "after" frame may arrive. */
const FRAME_WAIT_MS = 400;
const FRAMES_PER_PAGE = 4;
/** How long a page must stay without calls before its "after" image is captured. */
const QUIET_MS = 300;

interface KeptImage {
  image: CallImage;
  /** The page's actionCount and URL when the image was taken (captures only). */
  actionCount?: number;
  url?: string;
}

export interface ScreensOptions {
  /** Whether own captures are allowed (recording on); frames are used either way. */
  capture: boolean;
  /** The page the live view streams now, if any. */
  streamingPageId: () => number | undefined;
}

export class CallScreens {
  readonly #latest = new Map<number, KeptImage[]>();

  constructor(private readonly options: ScreensOptions) {}

  /** A live-view frame (the engine forwards every one). */
  onFrame(frame: LiveFrame): void {
    if (frame.data.length > MAX_CALL_IMAGE_CHARS) {
      return;
    }
    this.#keep(frame.pageId, {
      image: {
        mimeType: frame.mimeType,
        data: frame.data,
        time: Date.now(),
        ...(frame.viewport ? {viewport: frame.viewport} : {}),
      },
    });
  }

  #keep(pageId: number, kept: KeptImage): void {
    const list = this.#latest.get(pageId) ?? [];
    list.push(kept);
    if (list.length > FRAMES_PER_PAGE) {
      list.shift();
    }
    this.#latest.set(pageId, list);
  }

  /** The newest image of the page taken at or before `time`. */
  before(pageId: number, time: number): CallImage | undefined {
    const list = this.#latest.get(pageId) ?? [];
    for (let index = list.length - 1; index >= 0; index--) {
      const kept = list[index];
      if (kept && kept.image.time <= time) {
        return kept.image;
      }
    }
    return undefined;
  }

  /** The page after a call that ended at `endedAt`; undefined when there is none to be had. */
  async after(page: PageState, endedAt: number): Promise<CallImage | undefined> {
    if (this.options.streamingPageId() === page.id) {
      return this.#nextFrame(page.id, endedAt);
    }
    const latest = this.#latest.get(page.id)?.at(-1);
    if (latest?.actionCount === page.actionCount && latest.url === page.url) {
      return latest.image;
    }
    if (!this.options.capture) {
      return undefined;
    }
    // Captured once the page is quiet: a capture racing the agent's next call would slow it down.
    const actionCount = page.actionCount;
    await new Promise(resolve => setTimeout(resolve, QUIET_MS));
    if (
      page.closed ||
      page.dialog ||
      page.actionCount !== actionCount ||
      page.lock.busyWith.length > 0 ||
      // A capture beside a running live view can stall its screencast: frames only, then.
      this.options.streamingPageId() !== undefined
    ) {
      // The page moved on (or is blocked by a dialog): no honest "after" image for this call.
      return undefined;
    }
    // Under the page's lock, so the next call on the page (a drag, a click) never runs beside a
    // capture; taken only if free at once, and held for at most the capture's own bound.
    const release = await page.lock.acquire('after-screenshot', 1).catch(() => undefined);
    if (!release) {
      return undefined;
    }
    let image: KeptImage | undefined;
    try {
      image = page.actionCount === actionCount ? await this.#capture(page) : undefined;
    } finally {
      release();
    }
    if (image) {
      this.#keep(page.id, image);
    }
    return image?.image;
  }

  async #nextFrame(pageId: number, endedAt: number): Promise<CallImage | undefined> {
    const deadline = endedAt + FRAME_WAIT_MS;
    for (;;) {
      const frame = this.#latest.get(pageId)?.at(-1);
      if (frame && frame.image.time >= endedAt) {
        return frame.image;
      }
      const wait = deadline - Date.now();
      if (wait <= 0) {
        return frame?.image;
      }
      await new Promise(resolve => setTimeout(resolve, Math.min(wait, 50)));
    }
  }

  async #capture(page: PageState): Promise<KeptImage | undefined> {
    const actionCount = page.actionCount;
    const url = page.url;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>(resolve => {
      timer = setTimeout(() => resolve(undefined), CAPTURE_TIMEOUT_MS);
    });
    // A dialog opening mid-capture blocks it until dismissed: give up on the dialog too.
    let offDialog: (() => void) | undefined;
    const dialog = new Promise<undefined>(resolve => {
      offDialog = page.onDialog(() => resolve(undefined));
    });
    try {
      const capture = await Promise.race([
        captureScreenshot(page, CAPTURE).catch(() => undefined),
        timeout,
        dialog,
      ]);
      if (!capture || capture.data.length > MAX_CALL_IMAGE_CHARS) {
        return undefined;
      }
      return {
        image: {
          mimeType: capture.mimeType,
          data: capture.data,
          time: Date.now(),
          viewport: capture.viewport,
        },
        actionCount,
        url,
      };
    } finally {
      clearTimeout(timer);
      offDialog?.();
    }
  }

  /** Drops the images of pages that closed. */
  keepOnly(pageIds: readonly number[]): void {
    const open = new Set(pageIds);
    for (const pageId of this.#latest.keys()) {
      if (!open.has(pageId)) {
        this.#latest.delete(pageId);
      }
    }
  }
}
