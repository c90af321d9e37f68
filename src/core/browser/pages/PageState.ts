/**
 * One open tab: its numeric id, its own cdp, cached URL and title (so listing pages never
 * waits on the browser), the dialog it shows, and the lock that serializes tool calls on it.
 */
import type {CDPSession, Dialog, Page} from 'puppeteer-core';
import type {ClientRef} from '../../../shared/protocol.js';
import {Mutex} from '../lock.js';

/** The client session that opened a page; `isolated` when it had a browser context of its own. */
export interface PageOwner {
  client: ClientRef;
  isolated: boolean;
}

export interface OpenDialog {
  type: string;
  message: string;
  defaultValue: string;
  dialog: Dialog;
}

export class PageState {
  readonly lock: Mutex;
  url: string;
  title = '';
  closed = false;
  dialog: OpenDialog | undefined;
  /** Current document (loaderId) of each frame, from this page's own cdp. */
  readonly loaderIds = new Map<string, string>();
  mainFrameId = '';
  /** Listeners told when a dialog opens, e.g. to cut a settle wait short. */
  readonly #dialogListeners = new Set<(dialog: OpenDialog) => void>();

  targetId = '';
  /** The page that opened this one (window.open, a target=_blank link), if it is known here. */
  openedBy: number | undefined;
  /**
   * Counts tool calls that may have changed the page (everything but reading tools): a snapshot
   * taken before the latest one is never answered again from the cache.
   */
  actionCount = 0;
  /** The client that opened the page; undefined for pages the person (or the browser) opened. */
  owner: PageOwner | undefined;
  /**
   * Opened while a new_page was creating a tab in the same context: not yet known whose it is, so
   * no one's selection falls back to it until the creation has claimed it (or given up).
   */
  unclaimed = false;
  /** Who closed the page with close_page (or by ending an isolated session); undefined: the person or the browser. */
  closedBy: ClientRef | undefined;

  constructor(
    readonly id: number,
    readonly page: Page,
    readonly cdp: CDPSession,
    readonly isolatedContext: string | undefined,
  ) {
    this.lock = new Mutex(`Page ${id}`);
    this.url = page.url();
  }

  onDialog(listener: (dialog: OpenDialog) => void): () => void {
    this.#dialogListeners.add(listener);
    return () => this.#dialogListeners.delete(listener);
  }

  recordDialog(dialog: Dialog): void {
    const open: OpenDialog = {
      type: dialog.type(),
      message: dialog.message(),
      defaultValue: dialog.defaultValue(),
      dialog,
    };
    this.dialog = open;
    for (const listener of this.#dialogListeners) {
      listener(open);
    }
  }

  /** The tools marked blockedByDialog refuse to run while this throws. */
  throwIfDialogOpen(): void {
    if (this.dialog) {
      throw new Error(`A dialog is open (${this.dialog.type}: ${this.dialog.message}).`);
    }
  }
}

/**
 * Per-page state owned by one feature (snapshot uids, collectors, emulation, WebMCP…). Each feature
 * keeps its values itself, so PageState does not grow a field per feature and no casts are needed.
 */
export interface AttachableFeature {
  readonly name: string;
  /** Create the value as soon as a page is registered (collectors must see the first request). */
  readonly eager: boolean;
  attach(page: PageState): void;
  detach(page: PageState): void;
}

export class PageFeature<T> implements AttachableFeature {
  readonly #values = new WeakMap<PageState, T>();

  constructor(
    readonly name: string,
    private readonly create: (page: PageState) => T,
    private readonly options: {eager?: boolean; dispose?: (value: T, page: PageState) => void} = {},
  ) {}

  get eager(): boolean {
    return this.options.eager ?? false;
  }

  get(page: PageState): T {
    let value = this.#values.get(page);
    if (value === undefined) {
      value = this.create(page);
      this.#values.set(page, value);
    }
    return value;
  }

  peek(page: PageState): T | undefined {
    return this.#values.get(page);
  }

  attach(page: PageState): void {
    this.get(page);
  }

  detach(page: PageState): void {
    const value = this.#values.get(page);
    if (value !== undefined) {
      this.#values.delete(page);
      this.options.dispose?.(value, page);
    }
  }
}
