/**
 * Tool family: extensions (off by default) — install, list, reload, uninstall unpacked Chrome
 * extensions and trigger their action, with chrome-devtools-mcp 1.11's names and texts. They need
 * a browser this server launched over a pipe with extension support, which it arranges at launch
 * while the category is on; otherwise the error says what to restart.
 */
import type {Browser, Extension} from 'puppeteer-core';
import {z} from 'zod';
import type {ManagedBrowser} from '../browser/launch/ManagedBrowser.js';
import {withTimeout} from '../browser/lock.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {defineTool} from './base/definition.js';
import {loadableCopy, reloadableCopy} from './extensionCopies.js';

/** Installing or uninstalling may take this long (chrome-devtools-mcp's 30 s, below the lock wait). */
const EXTENSION_CHANGE_TIMEOUT_MS = 30_000;

async function extensionBrowser(browser: ManagedBrowser): Promise<Browser> {
  const chromium = await browser.ensure();
  const problem = browser.extensionSupportProblem();
  if (problem !== undefined) {
    throw new Error(problem);
  }
  return chromium;
}

async function extensionById(browser: Browser, id: string): Promise<Extension> {
  const extension = (await browser.extensions()).get(id);
  if (!extension) {
    throw new Error(`Extension with ID ${id} not found. Call list_extensions to see the ids.`);
  }
  return extension;
}

function install(browser: Browser, path: string): Promise<string> {
  return withTimeout(
    browser.installExtension(path),
    EXTENSION_CHANGE_TIMEOUT_MS,
    'Timeout installing extension',
  );
}

const installExtension = defineTool({
  name: 'install_extension',
  description: 'Install an unpacked Chrome extension from a folder; returns its id.',
  // Chromium loads a checked private copy (extensionCopies.ts): links in the folder that lead
  // outside the roots or into the config folder are refused.
  category: 'extensions',
  readOnly: false,
  browserLock: 'exclusive',
  schema: {path: z.string().describe('Absolute path to the unpacked extension folder.')},
  filePaths: [{param: 'path', scope: 'localBrowser'}],
  handler: async (call, response) => {
    const browser = await extensionBrowser(call.browser);
    const folder = await loadableCopy(browser, call.files, call.params.path, call.browser.isLocal);
    const id = await install(browser, folder);
    response.appendLine(`Extension installed. Id: ${id}`);
  },
});

const uninstallExtension = defineTool({
  name: 'uninstall_extension',
  description: 'Uninstall a Chrome extension by its id.',
  category: 'extensions',
  readOnly: false,
  browserLock: 'exclusive',
  schema: {id: z.string().describe('ID of the extension to uninstall.')},
  handler: async (call, response) => {
    const browser = await extensionBrowser(call.browser);
    await withTimeout(
      browser.uninstallExtension(call.params.id),
      EXTENSION_CHANGE_TIMEOUT_MS,
      'Timeout uninstalling extension',
    );
    response.appendLine(`Extension uninstalled. Id: ${call.params.id}`);
  },
});

const listExtensions = defineTool({
  name: 'list_extensions',
  description: 'List the installed Chrome extensions: id, name, version and whether enabled.',
  category: 'extensions',
  readOnly: true,
  schema: {},
  handler: async (call, response) => {
    const browser = await extensionBrowser(call.browser);
    const extensions = [...(await browser.extensions()).values()];
    const lines =
      extensions.length === 0
        ? ['No extensions installed.']
        : extensions.map(
            extension =>
              `id=${extension.id} "${extension.name}" v${extension.version} ${extension.enabled ? 'Enabled' : 'Disabled'}`,
          );
    const text = ['## Extensions', ...lines].join('\n');
    response.addSection(SECTION_ORDER.extensions, () => text);
  },
});

const reloadExtension = defineTool({
  name: 'reload_extension',
  description: 'Reload an unpacked Chrome extension by its id (reinstalls it from its folder).',
  category: 'extensions',
  readOnly: false,
  browserLock: 'exclusive',
  schema: {id: z.string().describe('ID of the extension to reload.')},
  handler: async (call, response) => {
    const browser = await extensionBrowser(call.browser);
    const extension = await extensionById(browser, call.params.id);
    await install(browser, await reloadableCopy(browser, call.files, extension.path));
    response.appendLine('Extension reloaded.');
  },
});

const triggerExtensionAction = defineTool({
  name: 'trigger_extension_action',
  description: "Trigger an extension's default action (its toolbar button) on the selected page.",
  category: 'extensions',
  readOnly: false,
  schema: {id: z.string().describe('ID of the extension to trigger the action for.')},
  handler: async (call, response) => {
    const browser = await extensionBrowser(call.browser);
    const extension = await extensionById(browser, call.params.id);
    const page = call.pages.selected;
    if (!page) {
      throw new Error('No page selected. Call list_pages, then select_page or new_page.');
    }
    await withTimeout(
      extension.triggerAction(page.page),
      EXTENSION_CHANGE_TIMEOUT_MS,
      'Timeout triggering the extension action',
    );
    response.appendLine(`Extension action triggered for ID ${call.params.id}`);
  },
});

export const extensionTools = [
  installExtension,
  uninstallExtension,
  listExtensions,
  reloadExtension,
  triggerExtensionAction,
];
