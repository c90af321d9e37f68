/**
 * The open pages of the browser with numeric ids that are never reused (not even after a browser
 * restart, so a stale id fails instead of silently hitting another tab), who opened each, the
 * client pages of the client sessions (each with its own selected page: ClientPages), and the browser
 * contexts: named isolated ones, and one per client session with --isolateClients.
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
import {cutText, SHOWN_TITLE_CHARS, SHOWN_URL_CHARS} from '../../../shared/boundedValue.js';
import type {ClientRef, PageInfo} from '../../../shared/protocol.js';
import {BrowserContexts} from './BrowserContexts.js';
import {ClientPages, type ClientPagesOptions, type PageSource} from './ClientPages.js';
import {LOCK_WAIT_MS, Semaphore, withTimeout} from '../lock.js';
import {PageState, type AttachableFeature} from './PageState.js';
import {PageTitles} from './pageTitles.js';

/** Creating a tab is quick; bounded well below the lock wait so new_page never stalls others. */
const TAB_CREATE_TIMEOUT_MS = 15_000;

interface TargetInfoChanged {
  targetInfo: {targetId: string; title: string; url: string; type: string};
}

export class PageRegistry
  extends EventEmitter<{
    /** Pages opened, closed, navigated, retitled, or a selection moved. */
    changed: [];
    pageAdded: [PageState];
    pageRemoved: [PageState];
  }>
  implements PageSource
{
  #nextId = 1;
  readonly #byPage = new Map<Page, PageState>();
  readonly #pending = new Map<Page, Promise<PageState>>();
  readonly #byTargetId = new Map<string, PageState>();
  /** Every live clientPages (client sessions, the Run panel, replays); each has its own selection. */
  readonly #clientPages = new Set<ClientPages>();
  /** The clientPages that selected a page last: the live clientPages and the WebMCP tool bridge follow it. */
  #focus: ClientPages | undefined;
  /** The last client pages to select a page that is not an isolated client's (shared WebMCP tools follow it). */
  #sharedFocus: ClientPages | undefined;
  readonly #contexts = new BrowserContexts();
  /** Pages close_page is closing now (not yet gone from the list). */
  readonly #closing = new Set<PageState>();
  /** How many new_page creations are under way per context (their tabs are not yet claimed). */
  readonly #creating = new Map<BrowserContext, number>();
  #browser: Browser | undefined;
  #browserCdp: CDPSession | undefined;
  #detachListeners: (() => void)[] = [];
  readonly #titles = new PageTitles({
    browserCdp: () => this.#browserCdp,
    pages: () => this.list(),
    changed: () => this.#scheduleChanged(),
  });
  #changeScheduled = false;
  /** A few tabs are created at once; a burst of new_page calls queues here (bounded). */
  readonly #tabSlots = new Semaphore('Opening tabs', 4);

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

    // Titles change without navigation: the browser-level target events tell of some changes,
    // pageTitles.ts reads the rest. Set up alongside the page list, which waits for the first
    // tab's renderer to start.
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
      // Some embedders (e.g. Electron) lack browser-level target discovery: titles are then read page by page.
    }

    const pages = await pagesReady;
    // Registered in tab order so ids follow the order the user sees.
    for (const page of pages) {
      await this.register(page);
    }
    this.#titles.start();
  }

  /** Reads every page's title again (bounded): before a page list is shown to an agent. */
  refreshTitles(): Promise<void> {
    return this.#titles.refresh();
  }

  /** Forgets every page of a browser that went away; ids keep counting up. */
  detachAll(): void {
    this.#titles.stop();
    for (const remove of this.#detachListeners) {
      remove();
    }
    this.#detachListeners = [];
    for (const state of [...this.#byPage.values()]) {
      this.#unregister(state, {quiet: true});
    }
    this.#pending.clear();
    for (const clientPages of this.#clientPages) {
      clientPages.lose(undefined, {quiet: true});
      clientPages.browserGone();
    }
    this.#contexts.clear();
    this.#creating.clear();
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
    const context = page.browserContext();
    const state = new PageState(
      this.#nextId++,
      page,
      cdp,
      this.#contexts.labelOf(context, this.#browser),
    );
    const contextOwner = this.#contexts.ownerOf(context);
    const ownerClient = contextOwner?.client;
    if (ownerClient) {
      state.owner = {client: ownerClient, isolated: true};
    }
    // A tab opened while a new_page creates one in this context may be that one: claimed below.
    state.unclaimed = !ownerClient && (this.#creating.get(context) ?? 0) > 0;
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
    // A popup belongs to the client whose page opened it.
    state.owner ??=
      targetInfo.openerId === undefined
        ? undefined
        : this.#byTargetId.get(targetInfo.openerId)?.owner;
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
    this.emit('pageAdded', state);
    this.#scheduleChanged();
    return state;
  }

  #unregister(state: PageState, {quiet}: {quiet: boolean}): void {
    if (state.closed) {
      return;
    }
    // Whose selection it was, asked while it is still open (a default selection resolves to it).
    const selectors = [...this.#clientPages].filter(clientPages => clientPages.selected === state);
    state.closed = true;
    this.#byPage.delete(state.page);
    this.#byTargetId.delete(state.targetId);
    for (const feature of this.#features) {
      feature.detach(state);
    }
    for (const clientPages of selectors) {
      clientPages.lose(state, {quiet});
    }
    this.emit('pageRemoved', state);
    this.#scheduleChanged();
  }

  /** Coalesces bursts (a navigation changes URL and title) into one change event. */
  #scheduleChanged(): void {
    if (this.#changeScheduled) {
      return;
    }
    this.#changeScheduled = true;
    queueMicrotask(() => {
      this.#changeScheduled = false;
      this.#titles.told(this.list());
      this.emit('changed');
    });
  }

  list(): PageState[] {
    return [...this.#byPage.values()].sort((a, b) => a.id - b.id);
  }

  /** Any open page by id (the person's: every page). */
  byId(id: number): PageState {
    const state = this.list().find(candidate => candidate.id === id);
    if (!state) {
      const ids = this.list().map(p => p.id);
      throw new Error(
        `No page with id ${id}. Open pages: ${ids.length ? ids.join(', ') : 'none'}. Call list_pages to see them.`,
      );
    }
    return state;
  }

  /** One client session's pages and selection (or, without a client, the person's). */
  clientPages(options: ClientPagesOptions): ClientPages {
    const clientPages = new ClientPages(this, options);
    this.#clientPages.add(clientPages);
    return clientPages;
  }

  /** How many client pages are live (client sessions, the Run panel, replays): none leaks. */
  get viewCount(): number {
    return this.#clientPages.size;
  }

  forget(clientPages: ClientPages): void {
    this.#clientPages.delete(clientPages);
    if (this.#focus === clientPages) {
      this.#focus = undefined;
    }
    if (this.#sharedFocus === clientPages) {
      this.#sharedFocus = undefined;
    }
    this.#contexts.forgetOwner(clientPages);
    this.#scheduleChanged();
  }

  selectionChanged(clientPages: ClientPages): void {
    this.#focus = clientPages;
    if (!isIsolatedClient(clientPages)) {
      this.#sharedFocus = clientPages;
    }
    this.#scheduleChanged();
  }

  /** The page selected last by anyone (the live clientPages follows it). */
  get focused(): PageState | undefined {
    return this.#focus?.selected ?? this.list()[0];
  }

  /**
   * The page selected last by anyone but an isolated client, among the pages every other client
   * sees (not an isolated client's): the WebMCP tools offered to them follow it.
   */
  get sharedFocused(): PageState | undefined {
    const shared = (page: PageState): boolean => page.owner?.isolated !== true;
    const selected = this.#sharedFocus?.selected;
    return selected !== undefined && shared(selected) ? selected : this.list().find(shared);
  }

  /** The client pages of isolated client sessions: each is offered its own selected page's tools. */
  isolatedClientPages(): ClientPages[] {
    return [...this.#clientPages].filter(isIsolatedClient);
  }

  /**
   * Every page, for the inspector: who opened it, whose selection it is, the person's own mark.
   * URLs and titles are cut as in every listing (a page may set them to megabytes).
   */
  inspectorInfos(person: ClientPages): PageInfo[] {
    const selectedBy = new Map<PageState, string[]>();
    for (const clientPages of this.#clientPages) {
      const client = clientPages.client;
      const selected = client === undefined ? undefined : clientPages.selected;
      if (client !== undefined && selected !== undefined) {
        selectedBy.set(selected, [...(selectedBy.get(selected) ?? []), client.id]);
      }
    }
    const mine = person.selected;
    return this.list().map(state => {
      const owner = state.owner;
      const by = selectedBy.get(state);
      return {
        id: state.id,
        url: cutText(state.url, SHOWN_URL_CHARS),
        title: cutText(state.title, SHOWN_TITLE_CHARS),
        selected: state === mine,
        ...(state.isolatedContext === undefined ? {} : {isolatedContext: state.isolatedContext}),
        ...(state.openedBy === undefined ? {} : {openedBy: state.openedBy}),
        ...(owner === undefined
          ? {}
          : {owner: {id: owner.client.id, name: owner.client.name, isolated: owner.isolated}}),
        ...(by === undefined ? {} : {selectedBy: by}),
      };
    });
  }

  /**
   * Opens a tab for a client's pages. Tab creation is serialized and bounded here (the only browser-wide
   * step of new_page); loading it is the caller's business and holds no browser-wide lock.
   */
  async openPage(request: {
    opener: ClientPages;
    context: BrowserContext | undefined;
    isolatedContext: string | undefined;
  }): Promise<PageState> {
    const release = await this.#tabSlots.acquire(LOCK_WAIT_MS);
    try {
      return await withTimeout(
        this.#createPage(request),
        TAB_CREATE_TIMEOUT_MS,
        `The browser did not open a tab within ${TAB_CREATE_TIMEOUT_MS / 1000} s. Retry; if it keeps failing, close some tabs (close_page).`,
      );
    } finally {
      release();
    }
  }

  async #createPage(request: {
    opener: ClientPages;
    context: BrowserContext | undefined;
    isolatedContext: string | undefined;
  }): Promise<PageState> {
    const browser = this.#browser;
    if (!browser) {
      throw new Error('The browser is not running.');
    }
    let context = request.context;
    if (context === undefined && request.isolatedContext !== undefined) {
      context = await this.#contexts.named(browser, request.isolatedContext);
    }
    const target = context ?? browser.defaultBrowserContext();
    this.#creating.set(target, (this.#creating.get(target) ?? 0) + 1);
    let state: PageState | undefined;
    try {
      state = await this.register(await target.newPage());
      const client = request.opener.client;
      state.owner ??=
        client === undefined ? undefined : {client, isolated: request.opener.isolated};
      state.unclaimed = false;
      this.#scheduleChanged();
      return state;
    } finally {
      this.#claimed(target);
    }
  }

  /** One creation in the context is over; once none is left, no tab there waits to be claimed. */
  #claimed(context: BrowserContext): void {
    const left = (this.#creating.get(context) ?? 1) - 1;
    if (left > 0) {
      this.#creating.set(context, left);
      return;
    }
    this.#creating.delete(context);
    for (const state of this.#byPage.values()) {
      if (state.unclaimed && state.page.browserContext() === context) {
        state.unclaimed = false;
      }
    }
  }

  async createContext(owner: ClientPages, name: string | undefined): Promise<BrowserContext> {
    const browser = this.#browser;
    if (!browser) {
      throw new Error('The browser is not running.');
    }
    return this.#contexts.createOwned(browser, owner, name);
  }

  /**
   * Closes the page unless it is the browser's last open one (false then). Counted with the
   * closes under way, so two clients closing the last two pages at once cannot end the browser.
   */
  async closeUnlessLast(state: PageState, closer: ClientRef | undefined): Promise<boolean> {
    if (this.list().length - this.#closing.size <= 1) {
      return false;
    }
    this.#closing.add(state);
    try {
      state.closedBy = closer;
      await state.page.close({runBeforeUnload: false});
      this.#unregister(state, {quiet: false});
      return true;
    } finally {
      this.#closing.delete(state);
    }
  }
}

/** A client session with a browser context of its own (--isolateClients). */
function isIsolatedClient(clientPages: ClientPages): boolean {
  return clientPages.isolated && clientPages.client !== undefined;
}
