/**
 * Tool family: pwa (off by default) — install, launch, uninstall Progressive Web Apps and read
 * their OS integration state through the browser's CDP `PWA` domain, with chrome-devtools-mcp
 * 1.11's names and texts. Installs skip the install dialog (no user gesture).
 */
import type {Browser, CDPSession} from 'puppeteer-core';
import {z} from 'zod';
import type {PageState} from '../browser/pages/PageState.js';
import {withTimeout} from '../browser/lock.js';
import {defineTool, type ToolCall} from './base/definition.js';

/** One PWA command may take this long (an install fetches the manifest and icons). */
const PWA_TIMEOUT_MS = 30_000;
/** How long launch_pwa waits for the app window and its first navigation. */
const LAUNCH_WAIT_MS = 10_000;

const manifestIdSchema = z
  .string()
  .describe(
    'Manifest id of the web app: the resolved `id` of its manifest, else its resolved `start_url` (e.g. "https://example.com/").',
  );

const fileHandlersSchema = z.array(
  z.looseObject({
    action: z.string(),
    accepts: z.array(z.looseObject({mediaType: z.string(), fileExtensions: z.array(z.string())})),
    displayName: z.string(),
  }),
);
const osAppStateSchema = z.object({badgeCount: z.number(), fileHandlers: fileHandlersSchema});

/** Runs PWA commands on a browser-level cdp, detached afterwards. */
async function withBrowserCdp<T>(
  call: ToolCall<unknown>,
  work: (cdp: CDPSession, browser: Browser) => Promise<T>,
): Promise<T> {
  const browser = await call.browser.ensure();
  const cdp = await browser.target().createCDPSession();
  try {
    return await withTimeout(
      work(cdp, browser),
      PWA_TIMEOUT_MS,
      `The PWA command did not finish in ${PWA_TIMEOUT_MS / 1000} s.`,
    );
  } finally {
    void cdp.detach().catch(() => undefined);
  }
}

const installPwa = defineTool({
  name: 'install_pwa',
  description:
    'Install a Progressive Web App by its manifest id through the CDP PWA domain (no install dialog). Installs default to browser display mode.',
  category: 'pwa',
  readOnly: false,
  browserLock: 'exclusive',
  schema: {
    manifestId: manifestIdSchema,
    installUrlOrBundleUrl: z
      .string()
      .describe(
        "The app's page URL, or for an Isolated Web App a file:// or http(s):// signed web bundle.",
      ),
    displayMode: z
      .enum(['standalone', 'browser'])
      .optional()
      .describe(
        'Display mode after install: "standalone" (own window) or "browser" (a tab, the default for CDP installs).',
      ),
  },
  filePaths: [{param: 'installUrlOrBundleUrl', scope: 'localBrowser'}],
  handler: async (call, response) => {
    const {manifestId, installUrlOrBundleUrl, displayMode} = call.params;
    await withBrowserCdp(call, async cdp => {
      const install = () => cdp.send('PWA.install', {manifestId, installUrlOrBundleUrl});
      try {
        await install();
      } catch (error) {
        // The first install in a fresh profile sometimes races the manifest fetch; once more helps.
        if (!(error instanceof Error) || !error.message.includes("Couldn't fetch install info")) {
          throw error;
        }
        await install();
      }
      if (displayMode !== undefined) {
        await cdp.send('PWA.changeAppUserSettings', {manifestId, displayMode});
      }
    });
    response.appendLine(`Installed PWA with manifest ID: ${manifestId}`);
    if (displayMode !== undefined) {
      response.appendLine(`Display mode set to: ${displayMode}`);
    }
  },
});

const uninstallPwa = defineTool({
  name: 'uninstall_pwa',
  description: 'Uninstall a Progressive Web App by its manifest id and close its app windows.',
  category: 'pwa',
  readOnly: false,
  browserLock: 'exclusive',
  schema: {manifestId: manifestIdSchema},
  handler: async (call, response) => {
    await withBrowserCdp(call, cdp =>
      cdp.send('PWA.uninstall', {manifestId: call.params.manifestId}),
    );
    response.appendLine(`Uninstalled PWA with manifest ID: ${call.params.manifestId}`);
    response.includePages();
  },
});

/** The first page that appears after `start`, bounded. */
function nextPage(call: ToolCall<unknown>): {page: Promise<PageState>; cancel: () => void} {
  const pages = call.browser.pages;
  let cancel = (): void => undefined;
  const page = new Promise<PageState>((resolve, reject) => {
    const timer = setTimeout(() => {
      pages.off('pageAdded', onAdded);
      reject(new Error(`The app window did not open within ${LAUNCH_WAIT_MS / 1000} s.`));
    }, LAUNCH_WAIT_MS);
    const onAdded = (state: PageState): void => {
      clearTimeout(timer);
      pages.off('pageAdded', onAdded);
      resolve(state);
    };
    pages.on('pageAdded', onAdded);
    cancel = () => {
      clearTimeout(timer);
      pages.off('pageAdded', onAdded);
    };
  });
  page.catch(() => undefined);
  return {page, cancel};
}

const launchPwa = defineTool({
  name: 'launch_pwa',
  description:
    'Launch an installed Progressive Web App in its saved display mode, optionally at a URL inside the app instead of its start URL.',
  category: 'pwa',
  readOnly: false,
  browserLock: 'exclusive',
  schema: {
    manifestId: manifestIdSchema,
    url: z.string().optional().describe('URL within the app to open instead of the start URL.'),
  },
  handler: async (call, response) => {
    const {manifestId, url} = call.params;
    const opened = nextPage(call);
    try {
      await withBrowserCdp(call, cdp =>
        cdp.send('PWA.launch', {manifestId, ...(url === undefined ? {} : {url})}),
      );
    } catch (error) {
      opened.cancel();
      throw error;
    }
    const state = await opened.page;
    if (state.page.url() === '' || state.page.url() === 'about:blank') {
      await state.page.waitForNavigation({timeout: LAUNCH_WAIT_MS}).catch(() => undefined);
    }
    response.appendLine(`Launched PWA with manifest ID: ${manifestId} (${state.page.url()})`);
    response.includePages();
  },
});

const getOsAppState = defineTool({
  name: 'get_os_app_state',
  description:
    'Get the OS integration state of an installed web app by its manifest id: badge count and file handlers.',
  category: 'pwa',
  readOnly: true,
  schema: {manifestId: manifestIdSchema},
  handler: async (call, response) => {
    const {manifestId} = call.params;
    const raw = await withBrowserCdp(call, cdp => cdp.send('PWA.getOsAppState', {manifestId}));
    const state = osAppStateSchema.parse(raw);
    response.appendLine(`OS app state for manifest ID: ${manifestId}`);
    response.appendLine(`Badge count: ${state.badgeCount}`);
    response.appendLine(`File handlers: ${JSON.stringify(state.fileHandlers)}`);
  },
});

export const pwaTools = [installPwa, uninstallPwa, launchPwa, getOsAppState];
