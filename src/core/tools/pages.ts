/**
 * Navigation automation: list, select, open, close and navigate pages.
 */
import {z} from 'zod';
import {inPage, PROBE_TIMEOUT_MS} from '../browser/evaluation.js';
import {LOCK_WAIT_MS} from '../browser/lock.js';
import type {OpenDialog, PageState} from '../browser/pages/PageState.js';
import {WORKSPACE_REMEDY} from '../files/roots.js';

import {settleDom} from '../browser/settle/settle.js';
import {navigationTimeout, slowdownFeature} from '../browser/timeouts.js';
import type {ResponseBuilder} from './base/ResponseBuilder.js';
import {definePageTool, defineTool, timeoutSchema, type ToolCall} from './base/definition.js';
import {errorText} from '../../shared/values.js';
import {LIST_PAGES_OUTPUT} from './base/outputSchemas.js';

export const listPages = defineTool({
  name: 'list_pages',
  description: 'List the open pages with their ids.',
  category: 'navigation',
  readOnly: true,
  schema: {},
  outputSchema: LIST_PAGES_OUTPUT,
  handler: async (call, response) => {
    response.includePages();
    // A page's script may have retitled it since the browser last said.
    await call.pages.refreshTitles();
    response.structured.pages = call.pages.infos();
    call.addPageOfferedToolSections(response, call.pages.selected);
  },
});

export const selectPage = defineTool({
  name: 'select_page',
  description: 'Select the page that later calls without a pageId act on.',
  category: 'navigation',
  readOnly: true,
  schema: {
    pageId: z.number().describe('Id of the page to select (from list_pages).'),
    bringToFront: z.boolean().optional().describe('Also focus the tab. Default false.'),
  },
  handler: async (call, response) => {
    const page = call.pages.byId(call.params.pageId);
    call.pages.select(page);
    if (call.params.bringToFront) {
      await page.page.bringToFront();
    }
    response.includePages();
  },
});

export const newPage = defineTool({
  name: 'new_page',
  description:
    'Open a new tab, load a URL and select it. When the user names no URL, use the URL of the project being worked on (e.g. its dev server).',
  category: 'navigation',
  readOnly: false,
  // The browser is held only while the tab is created (inside pages.newPage), not while it loads.
  browserLock: 'none',
  schema: {
    url: z.string().describe('URL to load.'),
    background: z.boolean().optional().describe('Open without focusing the tab. Default false.'),
    isolatedContext: z
      .string()
      .optional()
      .describe(
        'Open in a named isolated context (own cookies and storage); reuses the context of that name.',
      ),
    timeout: timeoutSchema,
  },
  handler: async (call, response) => {
    await checkNavigableUrl(call, call.params.url);
    const page = await call.pages.newPage(
      call.params.isolatedContext === undefined
        ? {}
        : {isolatedContext: call.params.isolatedContext},
    );
    // First line: the page it opened, so the agent never has to infer it from the marker.
    response.appendLine(`Opened page ${page.id}.`);
    // Other calls on the new tab (its id is listed at once) wait until it has loaded.
    const release = await page.lock.acquire('new_page', LOCK_WAIT_MS, call.signal);
    try {
      // Selected for the client that opened it, and only for it.
      call.pages.select(page);
      response.setPage(page);
      if (!call.params.background) {
        await page.page.bringToFront().catch(() => undefined);
      }
      await navigate(call, page, response, {
        type: 'url',
        url: call.params.url,
        timeout: call.params.timeout,
        quiet: true,
      });
    } finally {
      release();
    }
    response.includePages();
    call.addPageOfferedToolSections(response, page);
  },
});

export const closePage = defineTool({
  name: 'close_page',
  description: 'Close a page by id. The last open page cannot be closed.',
  category: 'navigation',
  readOnly: false,
  // Only its own page waits: calls on other pages (and page lists) go on while it closes.
  browserLock: 'shared',
  schema: {
    pageId: z.number().describe('Id of the page to close (from list_pages).'),
  },
  handler: async (call, response) => {
    const page = call.pages.byId(call.params.pageId);
    // Calls running on the page finish first (bounded, as every page lock).
    const release = await page.lock.acquire('close_page', LOCK_WAIT_MS, call.signal);
    try {
      // Closed while this call waited: answered as any page that is gone.
      call.pages.byId(page.id);
      // The browser's last page (closing it would end the browser), whoever sees which pages.
      if (!(await call.pages.closeUnlessLast(page))) {
        response.appendLine('The last open page cannot be closed. It is fine to keep it open.');
      }
    } finally {
      release();
    }
    response.includePages();
  },
});

export const navigatePage = definePageTool({
  name: 'navigate_page',
  description:
    'Go to a URL, or back, forward, or reload. When the user names no URL, use the URL of the project being worked on (e.g. its dev server).',
  category: 'navigation',
  readOnly: false,
  schema: {
    type: z
      .enum(['url', 'back', 'forward', 'reload'])
      .optional()
      .describe('What to do; defaults to url when url is given.'),
    url: z.string().optional().describe('Target URL (type=url).'),
    ignoreCache: z.boolean().optional().describe('Bypass the cache on reload.'),
    handleBeforeUnload: z
      .enum(['accept', 'dismiss'])
      .optional()
      .describe('Answer to a beforeunload prompt this navigation triggers. Default accept.'),
    initScript: z
      .string()
      .optional()
      .describe('JavaScript to run before any page script, for this navigation only.'),
    timeout: timeoutSchema,
  },
  handler: async (call, response) => {
    const {type, url} = call.params;
    if (type === undefined && url === undefined) {
      throw new Error('Either URL or a type is required.');
    }
    const kind = type ?? 'url';
    if (kind === 'url') {
      if (url === undefined) {
        throw new Error('A URL is required for navigation of type=url.');
      }
      await checkNavigableUrl(call, url);
    }
    if (call.params.initScript !== undefined && !call.config.javascriptEvaluation) {
      throw new Error('initScript is disabled by --no-javascript-evaluation.');
    }
    await navigate(call, call.page, response, {
      type: kind,
      url,
      timeout: call.params.timeout,
      ignoreCache: call.params.ignoreCache,
      beforeUnload: call.params.handleBeforeUnload ?? 'accept',
      initScript: call.params.initScript,
    });
    response.includePages();
    call.addPageOfferedToolSections(response, call.page);
  },
});

const BLOCKED_WITHOUT_JS = ['javascript:', 'data:', 'vbscript:'];

/**
 * Refuses URLs the server must not open: javascript:/data:/vbscript: with --no-javascript-evaluation,
 * and file: URLs (also behind view-source:) outside the allowed roots.
 */
export async function checkNavigableUrl(call: ToolCall<unknown>, url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `Invalid URL ${JSON.stringify(url)}. Pass an absolute URL such as http://localhost:3000/.`,
    );
  }
  if (!call.config.javascriptEvaluation && BLOCKED_WITHOUT_JS.includes(parsed.protocol)) {
    throw new Error(`${parsed.protocol} URLs are disabled by --no-javascript-evaluation.`);
  }
  const inner = parsed.protocol === 'view-source:' ? url.slice('view-source:'.length) : url;
  if (/^file:/i.test(inner)) {
    await call.files.checkFileNavigation(inner);
  }
}

export interface NavigateRequest {
  type: 'url' | 'back' | 'forward' | 'reload';
  url?: string | undefined;
  timeout?: number | undefined;
  ignoreCache?: boolean | undefined;
  beforeUnload?: 'accept' | 'dismiss';
  initScript?: string | undefined;
  /** new_page reports the navigation through the page list only. */
  quiet?: boolean;
}

/**
 * Navigates and waits for the load event, answering a beforeunload prompt as asked. Failures are
 * reported as response lines (the page is still usable), as chrome-devtools-mcp does.
 */
export async function navigate(
  call: ToolCall<unknown>,
  page: PageState,
  response: ResponseBuilder,
  request: NavigateRequest,
): Promise<void> {
  // Hold rules on URLs see each hop of this navigation before it commits.
  const guard = await call.guardNavigations(page);
  if (guard.active && (request.type === 'back' || request.type === 'forward')) {
    const target = await historyUrl(page, request.type === 'back' ? -1 : 1);
    const refusal = target === undefined ? undefined : guard.check(target);
    if (refusal !== undefined) {
      throw new Error(refusal);
    }
  }
  const dialogs = watchDialogs(page, request);
  let initScriptId: string | undefined;
  try {
    if (request.initScript !== undefined) {
      initScriptId = (await page.page.evaluateOnNewDocument(request.initScript)).identifier;
    }
    try {
      const blocked = await go(call, page, response, request, dialogs.blocking);
      let title: string | undefined;
      if (blocked) {
        response.appendLine('The page opened a dialog before it finished loading.');
      } else {
        call.reportProgress('Loaded; waiting for the page to settle');
        // Settling reads the title at its end: the browser's title event can trail the load.
        title = (await settleDom(page, {signal: call.signal})).title;
      }
      // Read on its own when settling could not (bounded: a dialog blocks it).
      page.title =
        title ??
        (await inPage(page, () => page.page.title(), {timeoutMs: PROBE_TIMEOUT_MS}).catch(
          () => page.title,
        ));
      page.url = page.page.url();
    } catch (error) {
      call.signal.throwIfAborted();
      if (guard.stopped !== undefined) {
        // The hold stopped it (the browser says ERR_ABORTED): say why instead.
        throw new Error(guard.stopped, {cause: error});
      }
      if (dialogs.beforeUnload.dismissed) {
        await dialogs.beforeUnload.handled;
        response.appendLine(
          `Dismissed a beforeunload dialog; the page stayed at ${page.page.url()}.`,
        );
        return;
      }
      const reason = navigationFailure(error, request.url);
      const what = {
        url: 'navigate in',
        back: 'navigate back in',
        forward: 'navigate forward in',
        reload: 'reload',
      }[request.type];
      response.appendLine(`Unable to ${what} the page: ${reason}.`);
    }
    if (dialogs.beforeUnload.answered && !dialogs.beforeUnload.dismissed) {
      response.appendLine('Accepted a beforeunload dialog.');
    }
  } finally {
    await dialogs.beforeUnload.handled;
    dialogs.stop();
    if (initScriptId !== undefined) {
      await page.page.removeScriptToEvaluateOnNewDocument(initScriptId).catch(() => undefined);
    }
  }
}

interface DialogWatch {
  /** A beforeunload prompt, answered as the request asked. */
  beforeUnload: {answered: boolean; dismissed: boolean; handled: Promise<void>};
  /** Resolves when another dialog blocks the page: the load will not come. */
  blocking: Promise<OpenDialog>;
  stop: () => void;
}

function watchDialogs(page: PageState, request: NavigateRequest): DialogWatch {
  const beforeUnload = {answered: false, dismissed: false, handled: Promise.resolve()};
  let dialogOpened: (dialog: OpenDialog) => void = () => undefined;
  const blocking = new Promise<OpenDialog>(resolve => (dialogOpened = resolve));
  const stop = page.onDialog(dialog => {
    if (dialog.type !== 'beforeunload') {
      // A dialog blocks the page: stop waiting for the load; the response shows the dialog.
      dialogOpened(dialog);
      return;
    }
    beforeUnload.answered = true;
    beforeUnload.dismissed = request.beforeUnload === 'dismiss';
    page.dialog = undefined;
    // Awaited before returning: a navigation started while this prompt is still closing gets aborted.
    beforeUnload.handled = (
      request.beforeUnload === 'dismiss' ? dialog.dialog.dismiss() : dialog.dialog.accept()
    ).catch(() => undefined);
  });
  return {beforeUnload, blocking, stop};
}

/** The navigation itself, until the load or a blocking dialog; true if a dialog came first. */
async function go(
  call: ToolCall<unknown>,
  page: PageState,
  response: ResponseBuilder,
  request: NavigateRequest,
  blocking: Promise<OpenDialog>,
): Promise<boolean> {
  const timeout = navigationTimeout(slowdownFeature.get(page), request.timeout);
  const options = {timeout, waitUntil: 'load' as const, signal: call.signal};
  const target = request.type === 'url' ? (request.url ?? '') : `the ${request.type} navigation`;
  call.reportProgress(`Waiting for ${target} to load (up to ${timeout} ms)`);
  const untilLoaded = async <T>(loading: Promise<T>): Promise<boolean> => {
    loading.catch(() => undefined);
    return isDialog(await Promise.race([loading, blocking]));
  };
  switch (request.type) {
    case 'url': {
      const blocked = await untilLoaded(page.page.goto(request.url ?? '', options));
      if (!request.quiet) {
        response.appendLine(`Successfully navigated to ${request.url ?? ''}.`);
      }
      return blocked;
    }
    case 'back': {
      if (!(await hasHistory(page, -1))) {
        throw new Error('there is no previous page in the history');
      }
      const blocked = await untilLoaded(page.page.goBack(options));
      response.appendLine(`Successfully navigated back to ${page.page.url()}.`);
      return blocked;
    }
    case 'forward': {
      if (!(await hasHistory(page, 1))) {
        throw new Error('there is no next page in the history');
      }
      const blocked = await untilLoaded(page.page.goForward(options));
      response.appendLine(`Successfully navigated forward to ${page.page.url()}.`);
      return blocked;
    }
    case 'reload': {
      const blocked = await untilLoaded(
        page.page.reload({...options, ...(request.ignoreCache ? {ignoreCache: true} : {})}),
      );
      response.appendLine('Successfully reloaded the page.');
      return blocked;
    }
  }
}

function isDialog(value: unknown): value is OpenDialog {
  return typeof value === 'object' && value !== null && 'dialog' in value && 'message' in value;
}

/** The browser's reason, with the remedy when the file: guard refused a file outside the roots. */
function navigationFailure(error: unknown, url: string | undefined): string {
  const reason = errorText(error);
  if (reason.includes('ERR_ACCESS_DENIED') && url !== undefined && /^file:/i.test(url)) {
    return `${reason} (files outside the allowed roots cannot be opened; ${WORKSPACE_REMEDY})`;
  }
  return reason;
}

/** The URL of the history entry `delta` steps away, if there is one. */
async function historyUrl(page: PageState, delta: number): Promise<string | undefined> {
  const history = await page.cdp.send('Page.getNavigationHistory');
  return history.entries[history.currentIndex + delta]?.url;
}

async function hasHistory(page: PageState, delta: number): Promise<boolean> {
  return (await historyUrl(page, delta)) !== undefined;
}

export const pagesTools = [listPages, selectPage, newPage, closePage, navigatePage];
