/**
 * The browser contexts the registry knows besides the default one: named isolated contexts
 * (new_page's isolatedContext, or an automatic name for one a page opened), and the contexts owned
 * by a client session under --isolateClients (its own, and the named ones it created).
 */
import type {Browser, BrowserContext} from 'puppeteer-core';
import type {ClientPages} from './ClientPages.js';

export class BrowserContexts {
  readonly #names = new Map<BrowserContext, string>();
  readonly #byName = new Map<string, BrowserContext>();
  readonly #owners = new Map<BrowserContext, ClientPages>();
  #autoCounter = 0;

  /**
   * The label of a context's pages: none for the default context and an isolated client's own
   * context; a context met without a name gets an automatic one.
   */
  labelOf(context: BrowserContext, browser: Browser | undefined): string | undefined {
    if (!browser || context === browser.defaultBrowserContext()) {
      return undefined;
    }
    let name = this.#names.get(context);
    if (name === undefined && this.#owners.has(context)) {
      return undefined;
    }
    if (name === undefined) {
      name = `isolated-context-${++this.#autoCounter}`;
      this.#names.set(context, name);
      this.#byName.set(name, context);
    }
    return name;
  }

  /** The client session that owns the context (--isolateClients), if any. */
  ownerOf(context: BrowserContext): ClientPages | undefined {
    return this.#owners.get(context);
  }

  /** The named isolated context, created on first use. */
  async named(browser: Browser, name: string): Promise<BrowserContext> {
    let context = this.#byName.get(name);
    if (!context) {
      context = await browser.createBrowserContext();
      this.#names.set(context, name);
      this.#byName.set(name, context);
    }
    return context;
  }

  /** A new context owned by a client session (optionally named). */
  async createOwned(
    browser: Browser,
    owner: ClientPages,
    name: string | undefined,
  ): Promise<BrowserContext> {
    const context = await browser.createBrowserContext();
    this.#owners.set(context, owner);
    if (name !== undefined) {
      this.#names.set(context, name);
    }
    return context;
  }

  /** The client's pages are gone: the contexts it owned are no longer anyone's. */
  forgetOwner(clientPages: ClientPages): void {
    for (const [context, owner] of this.#owners) {
      if (owner === clientPages) {
        this.#owners.delete(context);
      }
    }
  }

  /** The browser is gone, and its contexts with it. */
  clear(): void {
    this.#names.clear();
    this.#byName.clear();
    this.#owners.clear();
  }
}
