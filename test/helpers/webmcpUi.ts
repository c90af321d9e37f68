/**
 * The WebMCP panel of the inspector UI, for end-to-end tests: a tool's list item, its buttons, its
 * status, and opening its details.
 */
import type {ElementHandle, Page} from 'puppeteer-core';
import {scaled} from './loadFactor.js';

/** The list item of a tool on a page (waits for it). */
export async function toolItem(page: Page, pageId: number, name: string): Promise<ElementHandle> {
  const selector = `section[data-page-id="${pageId}"] li.webmcp-tool[aria-label="${name}"]`;
  const item = await page.waitForSelector(selector, {timeout: scaled(20_000)});
  if (!item) {
    throw new Error(`no item for ${name}`);
  }
  return item;
}

/** A button inside a tool's item, by its accessible name. */
export async function button(item: ElementHandle, name: string): Promise<ElementHandle> {
  const found = await item.$(`aria/${name}[role="button"]`);
  if (!found) {
    throw new Error(`no ${name} button`);
  }
  return found;
}

/** The status of a tool's latest invocation (undefined when it has none). */
export async function toolStatus(item: ElementHandle): Promise<string | undefined> {
  return item
    .$eval('.webmcp-status [data-status]', element => element.getAttribute('data-status') ?? '')
    .catch(() => undefined);
}

/** Opens a tool's details unless they are open already. */
export async function expandTool(item: ElementHandle): Promise<void> {
  const toggle = await item.$('.webmcp-tool__toggle');
  if ((await toggle?.evaluate(element => element.getAttribute('aria-expanded'))) !== 'true') {
    await toggle?.click();
  }
  await item.waitForSelector('.webmcp-tool__details');
}
