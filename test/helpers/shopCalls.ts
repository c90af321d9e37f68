/**
 * A small multi-page agent run for replay and export tests: a shop page whose two "Buy"
 * buttons differ only by their section, a form, a script that reads the result back, a second
 * page, and a link navigation. The page can change between recording and replay.
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {expect} from 'vitest';
import {call, pageIdFrom} from './engine.js';
import type {FixtureServer} from './fixtureServer.js';
import {uidOf} from './snapshotText.js';

export {serveShop, shopHtml, type ShopVariant} from './shopPages.js';

/** The number of calls runShopCalls makes. */
export const SHOP_CALLS = 11;

/** The agent's run: 11 calls over two pages. */
export async function runShopCalls(client: Client, server: FixtureServer): Promise<void> {
  const ok = async (tool: string, args: Record<string, unknown>): Promise<string> => {
    const {text, isError} = await call(client, tool, args);
    expect(isError, `${tool}: ${text}`).toBe(false);
    return text;
  };
  const shop = pageIdFrom(await ok('new_page', {url: server.url('/shop.html')}), '/shop.html');
  const snapshot = await ok('take_snapshot', {pageId: shop});
  const lines = snapshot.split('\n');
  const booksLine = lines.findIndex(line => line.includes('region "Books"'));
  const booksBuy = uidOf(lines.slice(booksLine).join('\n'), 'button "Buy"');
  await ok('click', {pageId: shop, uid: booksBuy});
  await ok('fill', {pageId: shop, uid: uidOf(snapshot, 'textbox "Email"'), value: 'a@b.c'});
  await ok('fill', {pageId: shop, uid: uidOf(snapshot, 'combobox "Size"'), value: 'M'});
  await ok('evaluate_script', {
    pageId: shop,
    function:
      "() => [document.querySelector('output').textContent, document.querySelector('#email').value, document.querySelector('select').value]",
  });
  const next = pageIdFrom(await ok('new_page', {url: server.url('/next.html')}), '/next.html');
  await ok('wait_for', {pageId: next, text: ['Next page']});
  await ok('select_page', {pageId: shop});
  await ok('click', {pageId: shop, uid: uidOf(snapshot, 'link "Next"')});
  await ok('evaluate_script', {pageId: shop, function: '() => location.pathname'});
}
