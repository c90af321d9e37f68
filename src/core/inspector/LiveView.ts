/**
 * Live view of a page for the inspector, from CDP screencast frames on the page's own cdp.
 * Runs only while someone watches: each UI connection is a watcher, and the screencast stops when
 * the last one leaves. By default it follows the selected page, so it moves when an agent switches
 * tabs. Frames are acknowledged as they arrive; Chromium sends the next one only after the ack, so
 * a slow consumer never piles frames up here.
 */
import type {Protocol} from 'puppeteer-core';
import type {LiveFrame} from '../../shared/protocol.js';
import type {ManagedBrowser} from '../browser/launch/ManagedBrowser.js';
import type {PageState} from '../browser/pages/PageState.js';
import {captureScreenshot} from '../browser/screenshot.js';
import {errorText} from '../../shared/values.js';

export interface LiveViewOptions {
  format?: 'jpeg' | 'png';
  quality?: number;
  maxWidth?: number;
  maxHeight?: number;
}

interface Cast {
  page: PageState;
  stop: () => Promise<void>;
}

/** Watcher id used when a caller does not name one (e.g. the desktop window over IPC). */
export const DEFAULT_WATCHER = 'default';

/** How long a new live view waits for the screencast's first frame before capturing one. */
const FIRST_FRAME_WAIT_MS = 500;

export class LiveView {
  /** Watchers and the page id each asked for (undefined: follow the selected page). */
  readonly #watchers = new Map<string, number | undefined>();
  #cast: Cast | undefined;
  /** Serializes start/stop so overlapping requests never leave two screencasts running. */
  #queue: Promise<void> = Promise.resolve();
  readonly #options: Required<LiveViewOptions>;
  readonly #onPagesChanged = (): void => {
    // A page that cannot be cast (closing, crashed) just shows no frames; the next change retries.
    this.#reconcile().catch(() => undefined);
  };

  constructor(
    readonly browser: ManagedBrowser,
    readonly emit: (frame: LiveFrame) => void,
    options: LiveViewOptions = {},
  ) {
    this.#options = {format: 'jpeg', quality: 60, maxWidth: 1280, maxHeight: 960, ...options};
  }

  /** The page being cast now, if any. */
  get pageId(): number | undefined {
    return this.#cast?.page.id;
  }

  get watching(): boolean {
    return this.#watchers.size > 0;
  }

  /**
   * Starts (or retargets) the live view for a watcher. Without a page id it follows the selected
   * page; with no page open yet it starts as soon as there is one.
   */
  async start(pageId: number | undefined, watcher: string = DEFAULT_WATCHER): Promise<void> {
    if (pageId !== undefined) {
      // Fails with the registry's "No page with id …" text before anything changes.
      this.browser.pages.byId(pageId);
    }
    if (this.#watchers.size === 0) {
      this.browser.pages.on('changed', this.#onPagesChanged);
    }
    this.#watchers.set(watcher, pageId);
    await this.#reconcile();
  }

  /** Stops watching for one watcher (or for everyone without an argument). */
  async stop(watcher?: string): Promise<void> {
    if (watcher === undefined) {
      this.#watchers.clear();
    } else {
      this.#watchers.delete(watcher);
    }
    if (this.#watchers.size === 0) {
      this.browser.pages.off('changed', this.#onPagesChanged);
    }
    await this.#reconcile();
  }

  /** The page the most recent watcher wants, if it is open. */
  #wantedPage(): PageState | undefined {
    const requested = [...this.#watchers.values()].at(-1);
    if (this.#watchers.size === 0) {
      return undefined;
    }
    const pages = this.browser.pages;
    if (requested !== undefined) {
      const page = pages.list().find(candidate => candidate.id === requested);
      if (page && !page.closed) {
        return page;
      }
    }
    // Unpicked, the view follows the page selected last (by any client or the Run panel).
    const focused = pages.focused;
    return focused && !focused.closed ? focused : undefined;
  }

  #reconcile(): Promise<void> {
    const next = this.#queue.then(async () => {
      const wanted = this.#wantedPage();
      const current = this.#cast;
      if (current && current.page === wanted && !current.page.closed) {
        return;
      }
      if (current) {
        this.#cast = undefined;
        await current.stop();
      }
      if (wanted) {
        this.#cast = await this.#startCast(wanted);
      }
    });
    // A failed start must not wedge later requests.
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #startCast(page: PageState): Promise<Cast> {
    const {cdp} = page;
    let viewport: {width: number; height: number} | undefined;
    // A page that does not repaint may send no frame at all: then one capture shows it.
    let framed = false;
    // One listener, removed when the cast stops: a page that never sent a frame keeps none.
    const onFrame = (event: Protocol.Page.ScreencastFrameEvent): void => {
      framed = true;
      void cdp.send('Page.screencastFrameAck', {sessionId: event.sessionId}).catch(() => undefined);
      const {deviceWidth, deviceHeight} = event.metadata;
      if (deviceWidth > 0 && deviceHeight > 0) {
        viewport = {width: deviceWidth, height: deviceHeight};
      }
      this.emit({
        pageId: page.id,
        mimeType: this.#options.format === 'png' ? 'image/png' : 'image/jpeg',
        data: event.data,
        ...(viewport ? {viewport} : {}),
      });
    };
    cdp.on('Page.screencastFrame', onFrame);
    const firstFrame = setTimeout(() => {
      if (framed || page.closed || page.dialog) {
        return;
      }
      void captureScreenshot(page, {
        format: this.#options.format,
        quality: this.#options.quality,
        maxWidth: this.#options.maxWidth,
        maxHeight: this.#options.maxHeight,
      })
        .then(capture => {
          if (!framed && this.#cast?.page === page) {
            this.emit({
              pageId: page.id,
              mimeType: capture.mimeType,
              data: capture.data,
              viewport: capture.viewport,
            });
          }
        })
        .catch(() => undefined);
    }, FIRST_FRAME_WAIT_MS);
    firstFrame.unref();
    try {
      await cdp.send('Page.startScreencast', {
        format: this.#options.format,
        quality: this.#options.quality,
        maxWidth: this.#options.maxWidth,
        maxHeight: this.#options.maxHeight,
        everyNthFrame: 1,
      });
    } catch (error) {
      clearTimeout(firstFrame);
      cdp.off('Page.screencastFrame', onFrame);
      throw new Error(`Could not start the live view of page ${page.id}: ${errorText(error)}`, {
        cause: error,
      });
    }
    return {
      page,
      stop: async () => {
        clearTimeout(firstFrame);
        cdp.off('Page.screencastFrame', onFrame);
        if (!page.closed) {
          await cdp.send('Page.stopScreencast').catch(() => undefined);
        }
      },
    };
  }
}
