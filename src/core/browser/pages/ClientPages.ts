/**
 * The pages as one client session sees them: its own selected page, which pages it may see and
 * address, and (isolated) its own browser context. Several agents share one browser; each selects
 * its own page, and `new_page`, `select_page` and every reply that lists pages speak of the
 * caller's selection. The inspector's Run panel and each replay are selectors of their own, for the
 * person: they see every page, and the pages they open belong to no client.
 *
 * With one client, everything behaves as the single global selection did: a client that has
 * selected nothing acts on the first page it may fall back to, and the selected page closed (by it
 * or by the person) moves the selection to the first such page with the one-time note. A page
 * another client closed clears the selection instead, and the client's next reply says so first.
 */
import type {BrowserContext} from 'puppeteer-core';
import {cutText, SHOWN_TITLE_CHARS, SHOWN_URL_CHARS} from '../../../shared/boundedValue.js';
import type {ClientRef, PageInfo} from '../../../shared/protocol.js';
import {withTimeout} from '../lock.js';
import type {PageState} from './PageState.js';
import {oneLine} from '../../../shared/inertText.js';

/** Closing an ended session's contexts (and their pages) is bounded; a hung one is left to the browser. */
const CONTEXT_CLOSE_TIMEOUT_MS = 5_000;

class PageNotFoundError extends Error {}

/** What a client's pages need from the registry (PageRegistry implements it). */
export interface PageSource {
  /** Every open page, by id. */
  list(): PageState[];
  openPage(request: {
    opener: ClientPages;
    context: BrowserContext | undefined;
    isolatedContext: string | undefined;
  }): Promise<PageState>;
  /** Closes the page unless it is the browser's last open one (false then). */
  closeUnlessLast(page: PageState, closer: ClientRef | undefined): Promise<boolean>;
  /** A new browser context that belongs to `owner` (named: shown as isolatedContext=name). */
  createContext(owner: ClientPages, name: string | undefined): Promise<BrowserContext>;
  selectionChanged(clientPages: ClientPages): void;
  forget(clientPages: ClientPages): void;
  /** Reads every page's title again (a script may have changed it), bounded. */
  refreshTitles(): Promise<void>;
}

export interface ClientPagesOptions {
  /** The client session; undefined for the person (the Run panel, a replay). */
  client: (() => ClientRef) | undefined;
  /** Its own browser context: it sees only the pages it opened (--isolateClients). */
  isolated: boolean;
}

type Selection =
  | {kind: 'default'}
  | {kind: 'page'; page: PageState}
  /** Another client closed the selected page: nothing is selected until this client picks one. */
  | {kind: 'cleared'};

export class ClientPages {
  #selection: Selection = {kind: 'default'};
  /** Shown once with the next page list (the selected page closed, another one is selected). */
  #listNote: string | undefined;
  /** Shown first in the next reply, whatever the tool (another client closed the selected page). */
  #lostNote: string | undefined;
  /** Isolated: the client's own context, and its named isolated contexts. */
  #ownContext: Promise<BrowserContext> | undefined;
  readonly #namedContexts = new Map<string, Promise<BrowserContext>>();
  #disposed = false;

  constructor(
    private readonly source: PageSource,
    private readonly options: ClientPagesOptions,
  ) {}

  /** The client session, or undefined for the person. */
  get client(): ClientRef | undefined {
    return this.options.client?.();
  }

  get isolated(): boolean {
    return this.options.isolated;
  }

  /** Whether this client may see and address the page. */
  sees(page: Pick<PageState, 'owner'>): boolean {
    const client = this.client;
    if (client === undefined) {
      return true;
    }
    if (this.options.isolated) {
      return page.owner?.client.id === client.id;
    }
    return !page.owner?.isolated || page.owner.client.id === client.id;
  }

  /** The pages this client sees, by id. */
  list(): PageState[] {
    return this.source.list().filter(page => this.sees(page));
  }

  /**
   * The pages as an agent gets them: its own selection marked. A page sets its own URL and title
   * (pushState, document.title) to megabytes if it likes, and they ride in every reply's page
   * list, so they are cut (with a marker) here; the page's state keeps them whole.
   */
  infos(): PageInfo[] {
    const selected = this.selected;
    return this.list().map(page => ({
      id: page.id,
      url: cutText(page.url, SHOWN_URL_CHARS),
      title: cutText(page.title, SHOWN_TITLE_CHARS),
      selected: page === selected,
      ...(page.isolatedContext === undefined ? {} : {isolatedContext: page.isolatedContext}),
    }));
  }

  /** Titles as the pages show them now, before a page list goes to an agent (bounded). */
  refreshTitles(): Promise<void> {
    return this.source.refreshTitles();
  }

  /** A page this client sees; any other id fails exactly as a closed page's does. */
  byId(id: number): PageState {
    const visible = this.list();
    const state = visible.find(candidate => candidate.id === id);
    if (!state) {
      const ids = visible.map(page => page.id);
      throw new PageNotFoundError(
        `No page with id ${id}. Open pages: ${ids.length ? ids.join(', ') : 'none'}. Call list_pages to see them.`,
      );
    }
    return state;
  }

  /** The page calls without a pageId act on. */
  get selected(): PageState | undefined {
    const selection = this.#selection;
    if (selection.kind === 'page') {
      return selection.page.closed ? this.#fallback() : selection.page;
    }
    return selection.kind === 'default' ? this.#fallback() : undefined;
  }

  select(page: PageState): void {
    if (this.selected !== page) {
      this.#selection = {kind: 'page', page};
      this.#listNote = undefined;
      this.source.selectionChanged(this);
    }
  }

  /** The one-time note of a page list: the selected page was closed, another one is selected. */
  takeSelectionNote(): string | undefined {
    const note = this.#listNote;
    this.#listNote = undefined;
    return note;
  }

  /** The one-time note of the next reply: another client closed the page this one had selected. */
  takeLostNote(): string | undefined {
    const note = this.#lostNote;
    this.#lostNote = undefined;
    return note;
  }

  /**
   * What a selection falls back to: the first page this client sees that no other client opened (a
   * client never lands on another agent's page by accident), and not one still being claimed.
   */
  #fallback(): PageState | undefined {
    const own = this.client?.id;
    return this.list().find(
      page => !page.closed && !page.unclaimed && (!page.owner || page.owner.client.id === own),
    );
  }

  /** The registry tells each client's pages whose selection a closing page was, before it leaves the list. */
  lose(page: PageState | undefined, how: {quiet: boolean}): void {
    if (how.quiet || page === undefined) {
      this.#selection = {kind: 'default'};
      this.#listNote = undefined;
      this.#lostNote = undefined;
      return;
    }
    const closer = page.closedBy;
    const client = this.client;
    const chosen = this.#selection.kind === 'page';
    if (chosen && client !== undefined && closer !== undefined && closer.id !== client.id) {
      this.#selection = {kind: 'cleared'};
      this.#listNote = undefined;
      this.#lostNote = `Note: page ${page.id}, which you had selected, was closed by another client (${oneLine(closer.name)}). No page is selected now: call list_pages, then select_page, or new_page.`;
      return;
    }
    const fallback = this.list().find(
      candidate =>
        candidate !== page &&
        !candidate.closed &&
        !candidate.unclaimed &&
        (!candidate.owner || candidate.owner.client.id === client?.id),
    );
    this.#selection = fallback ? {kind: 'page', page: fallback} : {kind: 'default'};
    if (fallback) {
      this.#listNote = `Note: the previously selected page was closed. Page ${fallback.id} is now selected.`;
    }
  }

  /** Opens a tab for this client (isolated: in its own context, or its own named one). */
  async newPage(options: {isolatedContext?: string}): Promise<PageState> {
    this.#throwIfDisposed();
    const name = options.isolatedContext;
    if (!this.options.isolated) {
      return this.source.openPage({opener: this, context: undefined, isolatedContext: name});
    }
    return this.source.openPage({
      opener: this,
      context: await this.#context(name),
      isolatedContext: undefined,
    });
  }

  #context(name: string | undefined): Promise<BrowserContext> {
    if (name === undefined) {
      this.#ownContext ??= this.#create(undefined);
      return this.#ownContext;
    }
    let context = this.#namedContexts.get(name);
    if (!context) {
      context = this.#create(name);
      this.#namedContexts.set(name, context);
    }
    return context;
  }

  #create(name: string | undefined): Promise<BrowserContext> {
    const created = this.source.createContext(this, name);
    // A failed creation is not kept: the next new_page tries again.
    created.catch(() => {
      if (name === undefined) {
        this.#ownContext = undefined;
      } else {
        this.#namedContexts.delete(name);
      }
    });
    return created;
  }

  /** Closes the page unless it is the browser's last open one (closing that would end it). */
  closeUnlessLast(page: PageState): Promise<boolean> {
    return this.source.closeUnlessLast(page, this.client);
  }

  /** The browser went away: its contexts with it (the next new_page creates fresh ones). */
  browserGone(): void {
    this.#ownContext = undefined;
    this.#namedContexts.clear();
  }

  /**
   * The client session ended: the registry forgets these client pages, and an isolated client's contexts
   * close with their pages (bounded by the caller).
   */
  async dispose(): Promise<void> {
    if (this.#disposed) {
      return;
    }
    this.#disposed = true;
    const contexts = [this.#ownContext, ...this.#namedContexts.values()];
    this.browserGone();
    const client = this.client;
    await Promise.all(
      contexts.map(async pending => {
        const context = await pending?.catch(() => undefined);
        if (!context) {
          return;
        }
        for (const page of this.source.list()) {
          if (page.page.browserContext() === context) {
            page.closedBy = client;
          }
        }
        await withTimeout(
          context.close(),
          CONTEXT_CLOSE_TIMEOUT_MS,
          'The browser context did not close',
        ).catch(() => undefined);
      }),
    );
    this.source.forget(this);
  }

  #throwIfDisposed(): void {
    if (this.#disposed) {
      throw new Error('This client session has ended; connect again to open pages.');
    }
  }
}

/** The inspector's own calls (the Run panel): the person's. */
export const INSPECTOR_CLIENT: ClientRef = {
  id: 'inspector',
  name: 'Inspector',
  version: '',
  transport: 'inspector',
};

/**
 * The client pages of in-process callers, by client id: the Run panel and each replay are the person's
 * (they see every page; what they open belongs to no client); any other client ref (a
 * benchmark's agent) is a client of its own.
 */
export class InProcessClientPages {
  readonly #clientPages = new Map<string, ClientPages>();

  constructor(private readonly registry: {clientPages(options: ClientPagesOptions): ClientPages}) {}

  of(client: ClientRef): ClientPages {
    let clientPages = this.#clientPages.get(client.id);
    if (!clientPages) {
      clientPages = this.registry.clientPages({
        client: client.transport === 'inspector' ? undefined : () => client,
        isolated: false,
      });
      this.#clientPages.set(client.id, clientPages);
    }
    return clientPages;
  }

  /** Forgets a caller's client pages (a replay that ended). */
  release(client: ClientRef): void {
    const clientPages = this.#clientPages.get(client.id);
    this.#clientPages.delete(client.id);
    void clientPages?.dispose();
  }
}
