/**
 * The open pages of the browser with numeric ids that are never reused (not even after a browser
 * restart, so a stale id fails instead of silently hitting another tab), the selected page, and
 * named isolated browser contexts.
 */
import {EventEmitter} from 'node:events';
import {
  TargetType,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
  type Protocol,
  type Target,
} from 'puppeteer-core';
import {cutText, SHOWN_TITLE_CHARS, SHOWN_URL_CHARS} from '../../shared/boundedValue.js';
import type {PageInfo} from '../../shared/protocol.js';
import {LOCK_WAIT_MS, Semaphore, withTimeout} from './lock.js';
import {PageState, type AttachableFeature} from './PageState.js';

/** Creating a tab is quick; bounded well below the lock wait so new_page never stalls others. */
const TAB_CREATE_TIMEOUT_MS = 15_000;

class PageNotFoundError extends Error {}

interface TargetInfoChanged {
  targetInfo: {targetId: string; title: string; url: string; type: string};
}

export class PageRegistry extends EventEmitter<{
  changed: [PageInfo[]];
  pageAdded: [PageState];
  pageRemoved: [PageState];
}> {
  #nextId = 1;
  readonly #byPage = new Map<Page, PageState>();
  readonly #pending = new Map<Page, Promise<PageState>>();
  readonly #byTargetId = new Map<string, PageState>();
  #selected: PageState | undefined;
  #selectionNote: string | undefined;
  readonly #contextNames = new Map<BrowserContext, string>();
  readonly #contextsByName = new Map<string, BrowserContext>();
  #autoContextCounter = 0;
  #browser: Browser | undefined;
  #browserCdp: CDPSession | undefined;
  #detachListeners: (() => void)[] = [];
  #changeScheduled = false;
  /** A few tabs are created at once; a burst of new_page calls queues here (bounded). */
  readonly #creating = new Semaphore('Opening tabs', 4);

  readonly #features: AttachableFeature[];

  constructor(features: readonly AttachableFeature[]) {
    super();
    this.#features = [...features];
  }

  /** Adds features after construction (services that need the browser first); eager ones attach to open pages now. */
  addFeatures(features: readonly AttachableFeature[]): void {
    for (const feature of features) {
      this.#features.push(feature);
      if (feature.eager) {
        for (const page of this.list()) {
          feature.attach(page);
        }
      }
    }
  }

  async attach(browser: Browser): Promise<void> {
    this.#browser = browser;
    const onTargetCreated = (target: Target): void => {
      if (target.type() !== TargetType.PAGE) {
        return;
      }
      void target
        .page()
        .then(page => (page ? this.register(page) : undefined))
        .catch(() => undefined);
    };
    browser.on('targetcreated', onTargetCreated);
    this.#detachListeners.push(() => browser.off('targetcreated', onTargetCreated));

    // Titles change without navigation; the browser-level target events keep the cache fresh.
    // Set up alongside the page list, which waits for the first tab's renderer to start.
    const pagesReady = browser.pages();
    pagesReady.catch(() => undefined);
    try {
      const cdp = await browser.target().createCDPSession();
      this.#browserCdp = cdp;
      cdp.on('Target.targetInfoChanged', (event: TargetInfoChanged) => {
        const state = this.#byTargetId.get(event.targetInfo.targetId);
        if (
          state &&
          (state.title !== event.targetInfo.title || state.url !== event.targetInfo.url)
        ) {
          state.title = event.targetInfo.title;
          state.url = event.targetInfo.url;
          this.#scheduleChanged();
        }
      });
      await cdp.send('Target.setDiscoverTargets', {discover: true});
    } catch {
      // Some embedders (e.g. Electron) lack browser-level target discovery: titles then refresh on navigation only.
    }

    const pages = await pagesReady;
    // Registered in tab order so ids follow the order the user sees.
    for (const page of pages) {
      await this.register(page);
    }
  }

  /** Forgets every page of a browser that went away; ids keep counting up. */
  detachAll(): void {
    for (const remove of this.#detachListeners) {
      remove();
    }
    this.#detachListeners = [];
    for (const state of [...this.#byPage.values()]) {
      this.#unregister(state, {quiet: true});
    }
    this.#pending.clear();
    this.#selected = undefined;
    this.#selectionNote = undefined;
    this.#contextNames.clear();
    this.#contextsByName.clear();
    this.#browser = undefined;
    void this.#browserCdp?.detach().catch(() => undefined);
    this.#browserCdp = undefined;
    this.#scheduleChanged();
  }

  register(page: Page): Promise<PageState> {
    const existing = this.#byPage.get(page);
    if (existing) {
      return Promise.resolve(existing);
    }
    const pending = this.#pending.get(page);
    if (pending) {
      return pending;
    }
    const registration = this.#register(page).finally(() => this.#pending.delete(page));
    this.#pending.set(page, registration);
    return registration;
  }

  async #register(page: Page): Promise<PageState> {
    const cdp = await page.createCDPSession();
    const state = new PageState(
      this.#nextId++,
      page,
      cdp,
      this.#contextName(page.browserContext()),
    );
    // Subscribe before asking for the frame tree so no navigation falls in between.
    cdp.on('Page.frameNavigated', event => {
      state.loaderIds.set(event.frame.id, event.frame.loaderId);
    });
    cdp.on('Page.frameDetached', event => {
      // A 'swap' moves the frame into another process (a cross-site iframe): it lives on there.
      if (event.reason === 'swap') {
        return;
      }
      state.loaderIds.delete(event.frameId);
    });
    const [{targetInfo}, {frameTree}] = await Promise.all([
      cdp.send('Target.getTargetInfo'),
      cdp.send('Page.getFrameTree'),
      cdp.send('Page.enable'),
      // Every page behaves as if focused, so several agents can work on background tabs at once.
      cdp.send('Emulation.setFocusEmulationEnabled', {enabled: true}).catch(() => undefined),
    ]);
    state.targetId = targetInfo.targetId;
    state.openedBy =
      targetInfo.openerId === undefined ? undefined : this.#byTargetId.get(targetInfo.openerId)?.id;
    state.title = targetInfo.title;
    state.url = targetInfo.url;
    state.mainFrameId = frameTree.frame.id;
    const recordFrames = (tree: Protocol.Page.FrameTree): void => {
      if (!state.loaderIds.has(tree.frame.id)) {
        state.loaderIds.set(tree.frame.id, tree.frame.loaderId);
      }
      for (const child of tree.childFrames ?? []) {
        recordFrames(child);
      }
    };
    recordFrames(frameTree);
    this.#byPage.set(page, state);
    this.#byTargetId.set(targetInfo.targetId, state);
    page.on('dialog', dialog => state.recordDialog(dialog));
    page.on('framenavigated', frame => {
      if (frame === page.mainFrame()) {
        state.url = frame.url();
        // A navigation closes any dialog the old document had open.
        state.dialog = undefined;
        this.#scheduleChanged();
      }
    });
    page.once('close', () => this.#unregister(state, {quiet: false}));
    for (const feature of this.#features) {
      if (feature.eager) {
        feature.attach(state);
      }
    }
    this.#selected ??= state;
    this.emit('pageAdded', state);
    this.#scheduleChanged();
    return state;
  }

  #unregister(state: PageState, {quiet}: {quiet: boolean}): void {
    if (state.closed) {
      return;
    }
    state.closed = true;
    this.#byPage.delete(state.page);
    this.#byTargetId.delete(state.targetId);
    for (const feature of this.#features) {
      feature.detach(state);
    }
    if (this.#selected === state) {
      this.#selected = this.list()[0];
      if (!quiet && this.#selected) {
        this.#selectionNote = `Note: the previously selected page was closed. Page ${this.#selected.id} is now selected.`;
      }
    }
    this.emit('pageRemoved', state);
    this.#scheduleChanged();
  }

  #contextName(context: BrowserContext): string | undefined {
    if (!this.#browser || context === this.#browser.defaultBrowserContext()) {
      return undefined;
    }
    let name = this.#contextNames.get(context);
    if (name === undefined) {
      name = `isolated-context-${++this.#autoContextCounter}`;
      this.#contextNames.set(context, name);
      this.#contextsByName.set(name, context);
    }
    return name;
  }

  /** Coalesces bursts (a navigation changes URL and title) into one change event. */
  #scheduleChanged(): void {
    if (this.#changeScheduled) {
      return;
    }
    this.#changeScheduled = true;
    queueMicrotask(() => {
      this.#changeScheduled = false;
      this.emit('changed', this.infos());
    });
  }

  list(): PageState[] {
    return [...this.#byPage.values()].sort((a, b) => a.id - b.id);
  }

  /**
   * The pages as listings and events show them: a page sets its own URL and title (pushState,
   * document.title) to megabytes if it likes, and they ride in every reply's page list and every
   * change event, so they are cut (with a marker) here; the page's state keeps them whole.
   */
  infos(): PageInfo[] {
    return this.list().map(state => ({
      id: state.id,
      url: cutText(state.url, SHOWN_URL_CHARS),
      title: cutText(state.title, SHOWN_TITLE_CHARS),
      selected: state === this.#selected,
      ...(state.isolatedContext === undefined ? {} : {isolatedContext: state.isolatedContext}),
      ...(state.openedBy === undefined ? {} : {openedBy: state.openedBy}),
    }));
  }

  byId(id: number): PageState {
    const state = this.list().find(candidate => candidate.id === id);
    if (!state) {
      const ids = this.list().map(p => p.id);
      throw new PageNotFoundError(
        `No page with id ${id}. Open pages: ${ids.length ? ids.join(', ') : 'none'}. Call list_pages to see them.`,
      );
    }
    return state;
  }

  get selected(): PageState | undefined {
    if (this.#selected?.closed) {
      this.#selected = this.list()[0];
    }
    return this.#selected;
  }

  select(state: PageState): void {
    if (this.#selected !== state) {
      this.#selected = state;
      this.#selectionNote = undefined;
      this.#scheduleChanged();
    }
  }

  takeSelectionNote(): string | undefined {
    const note = this.#selectionNote;
    this.#selectionNote = undefined;
    return note;
  }

  /**
   * Opens a tab. Tab creation is serialized and bounded here (the only browser-wide step of
   * new_page); loading it is the caller's business and holds no browser-wide lock.
   */
  async newPage(options: {isolatedContext?: string}): Promise<PageState> {
    const release = await this.#creating.acquire(LOCK_WAIT_MS);
    try {
      return await withTimeout(
        this.#createPage(options),
        TAB_CREATE_TIMEOUT_MS,
        `The browser did not open a tab within ${TAB_CREATE_TIMEOUT_MS / 1000} s. Retry; if it keeps failing, close some tabs (close_page).`,
      );
    } finally {
      release();
    }
  }

  async #createPage(options: {isolatedContext?: string}): Promise<PageState> {
    const browser = this.#browser;
    if (!browser) {
      throw new Error('The browser is not running.');
    }
    let context: BrowserContext | undefined;
    if (options.isolatedContext !== undefined) {
      context = this.#contextsByName.get(options.isolatedContext);
      if (!context) {
        context = await browser.createBrowserContext();
        this.#contextNames.set(context, options.isolatedContext);
        this.#contextsByName.set(options.isolatedContext, context);
      }
    }
    const page = context ? await context.newPage() : await browser.newPage();
    return this.register(page);
  }

  async close(state: PageState): Promise<void> {
    await state.page.close({runBeforeUnload: false});
    this.#unregister(state, {quiet: false});
  }
}
