/**
 * The locks a call holds for its whole run: the browser lock (browser-wide tools) and the page's
 * own lock (page-scoped tools). A page-scoped call that names no page acts on the page its caller
 * has selected when the call RUNS, not the one selected when it was queued (each client session
 * has its own selection; another client's select_page never moves it). The lock to take depends
 * on the page, so the page is resolved, locked, and the caller's selection checked again under the
 * lock; if it moved while the call waited, the call follows it, a bounded number of times and
 * within one lock wait. A named page is looked up among the pages the caller may see.
 */
import type {ClientPages} from '../browser/pages/ClientPages.js';
import {LOCK_WAIT_MS, type ReadWriteLock, type Release} from '../browser/lock.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {Tool} from '../tools/base/definition.js';

/** How often a call follows a moving selection before it asks the agent to name the page. */
const SELECTION_FOLLOWS = 5;

export interface LockRequest {
  tool: Tool;
  /** The page the client named (pageId routing on); undefined = the caller's selected page. */
  pageId: number | undefined;
  /** The caller's pages. */
  pages: ClientPages;
  browserLock: ReadWriteLock;
  signal: AbortSignal;
  /** Told the page the call waits for (and then acts on), before and after each wait. */
  onPage: (page: PageState) => void;
}

export interface HeldLocks {
  /** The locked page, for page-scoped tools. */
  page: PageState | undefined;
  /** Releases every lock held (idempotent). */
  release: Release;
}

export async function acquireCallLocks(request: LockRequest): Promise<HeldLocks> {
  const {tool, browserLock, signal} = request;
  const releases: Release[] = [];
  const release = (): void => {
    for (const held of releases.splice(0).reverse()) {
      held();
    }
  };
  try {
    if (tool.browserLock === 'exclusive') {
      releases.push(await browserLock.acquireExclusive(tool.name, LOCK_WAIT_MS, signal));
    } else if (tool.browserLock === 'shared') {
      releases.push(await browserLock.acquireShared(tool.name, LOCK_WAIT_MS, signal));
    }
    let page: PageState | undefined;
    if (tool.pageScoped) {
      const locked = await lockPage(request);
      page = locked.page;
      releases.push(locked.release);
    }
    return {page, release};
  } catch (error) {
    release();
    throw error;
  }
}

async function lockPage(request: LockRequest): Promise<{page: PageState; release: Release}> {
  const {tool, pageId, pages, signal, onPage} = request;
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let follows = 0; ; follows++) {
    const page = pageId === undefined ? selectedPage(pages) : pages.byId(pageId);
    onPage(page);
    const release = await page.lock.acquire(tool.name, deadline - performance.now(), signal);
    if (pageId !== undefined) {
      if (page.closed) {
        release();
        throw new Error(
          `Page ${page.id} was closed while this call waited for it. Call list_pages to see open pages.`,
        );
      }
      return {page, release};
    }
    if (!page.closed && pages.selected === page) {
      return {page, release};
    }
    // The selection moved (or the page closed) while this call waited: lock the page selected now.
    release();
    if (follows >= SELECTION_FOLLOWS || deadline - performance.now() <= 0) {
      throw new Error(
        'The selected page kept changing while this call waited for it. Call list_pages to see open pages, then select_page and retry.',
      );
    }
  }
}

function selectedPage(pages: ClientPages): PageState {
  const page = pages.selected;
  if (!page) {
    throw new Error(
      'No page selected. Call list_pages to see open pages, then select_page or new_page.',
    );
  }
  return page;
}
