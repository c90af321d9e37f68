/**
 * The pages of the shop run (replay and export tests, the replay benchmark): a shop page whose
 * two "Buy" buttons differ only by their section, a form and a link, and a second page. The shop
 * page can change between recording and replay. No test-runner imports, so bench/ can use it.
 */
import type {IncomingMessage} from 'node:http';
import type {FixtureServer} from './fixtureServer.js';

export interface ShopVariant {
  /** A "Promo" button first and the sections swapped: every uid and nth shifts, names do not. */
  reordered?: boolean;
  /** The Books section's button is called this (default "Buy"). */
  booksLabel?: string;
  heading?: string;
}

export function shopHtml(variant: ShopVariant): string {
  const games = `<section aria-label="Games"><h2>Games</h2><button onclick="out.textContent='games'">Buy</button></section>`;
  const books = `<section aria-label="Books"><h2>Books</h2><button onclick="out.textContent='books'">${variant.booksLabel ?? 'Buy'}</button></section>`;
  return `<!doctype html><title>Shop</title><h1>${variant.heading ?? 'Shop'}</h1>
${variant.reordered ? '<button>Promo</button>' : ''}
${variant.reordered ? books + games : games + books}
<label>Email <input id="email"></label>
<select aria-label="Size"><option>S</option><option>M</option></select>
<output id="out"></output>
<a href="/next.html">Next</a>`;
}

/** Serves /shop.html from `variant(request)` (asked at each request) and a static /next.html. */
export function serveShop(
  server: FixtureServer,
  variant: (request: IncomingMessage) => ShopVariant,
): void {
  server.route('/shop.html', (request, response) => {
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    response.end(shopHtml(variant(request)));
  });
  server.html('/next.html', '<!doctype html><title>Next</title><h1>Next page</h1><p>Welcome</p>');
}
