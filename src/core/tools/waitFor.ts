/**
 * wait_for: wait until one of several texts shows up in any frame of the page (as rendered text or
 * as an element's accessible name), then return a snapshot. Each frame watches itself with a
 * MutationObserver, so the wait ends as soon as the text appears, without polling from here.
 */
import {randomUUID} from 'node:crypto';
import type {Frame} from 'puppeteer-core';
import {z} from 'zod';
import type {PageState} from '../browser/PageState.js';
import {actionTimeout, slowdownFeature} from '../browser/timeouts.js';
import {definePageTool, timeoutSchema} from './definition.js';

const REGISTRY_KEY = 'mcp-browser-inspector.waitFor';

/**
 * Resolves with the first text found, or null when its time is up or it was cancelled. Looks at the
 * rendered text of the body (innerText: visible text only, no script or style content) and at the
 * names elements carry in attributes (aria-label, alt, title, placeholder, button values).
 */
function waiterExpression(texts: readonly string[], timeoutMs: number, token: string): string {
  return `new Promise(resolve => {
  const texts = ${JSON.stringify(texts)};
  const key = Symbol.for(${JSON.stringify(REGISTRY_KEY)});
  const registry = globalThis[key] ?? (globalThis[key] = new Map());
  let timer;
  let observer;
  let scheduled = false;
  let lastCheck = 0;
  const finish = value => {
    clearTimeout(timer);
    if (observer) observer.disconnect();
    registry.delete(${JSON.stringify(token)});
    resolve(value);
  };
  const NAMED = '[aria-label],[alt],[title],[placeholder],input[type=button],input[type=submit],input[type=reset]';
  const names = el => [
    el.getAttribute('aria-label'), el.getAttribute('alt'), el.getAttribute('title'),
    el.getAttribute('placeholder'),
    el instanceof HTMLInputElement && /^(button|submit|reset)$/.test(el.type) ? el.value : null,
  ];
  const find = () => {
    const root = document.body ?? document.documentElement;
    if (!root) return null;
    const rendered = root.innerText ?? '';
    for (const text of texts) if (rendered.includes(text)) return text;
    for (const el of document.querySelectorAll(NAMED)) {
      const own = names(el);
      for (const text of texts) {
        if (own.some(name => name && name.includes(text)) && el.checkVisibility()) return text;
      }
    }
    return null;
  };
  const check = () => {
    scheduled = false;
    lastCheck = performance.now();
    const found = find();
    if (found !== null) finish(found);
  };
  const first = find();
  if (first !== null) { resolve(first); return; }
  registry.set(${JSON.stringify(token)}, () => finish(null));
  timer = setTimeout(() => finish(null), ${Math.max(0, Math.round(timeoutMs))});
  observer = new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    // At most one search per frame's worth of time, however busy the page is.
    setTimeout(check, Math.max(0, 16 - (performance.now() - lastCheck)));
  });
  observer.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})`;
}

function cancelExpression(token: string): string {
  return `(() => {
  const registry = globalThis[Symbol.for(${JSON.stringify(REGISTRY_KEY)})];
  const cancel = registry && registry.get(${JSON.stringify(token)});
  if (cancel) cancel();
})()`;
}

class WaitForTimeoutError extends Error {}

/** Resolves with the text found first, in any frame; rejects when the time is up. */
export function waitForText(
  state: PageState,
  texts: readonly string[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string> {
  const page = state.page;
  const token = randomUUID();
  const deadline = Date.now() + timeoutMs;
  const watched = new Set<Frame>();
  const finished = {value: false};

  return new Promise<string>((resolve, reject) => {
    const cleanup = (): void => {
      finished.value = true;
      clearTimeout(timer);
      page.off('frameattached', watch);
      signal.removeEventListener('abort', onAbort);
      stopDialogWatch();
      for (const frame of watched) {
        if (!frame.detached) {
          frame.evaluate(cancelExpression(token)).catch(() => undefined);
        }
      }
    };
    const succeed = (text: string): void => {
      if (!finished.value) {
        cleanup();
        resolve(text);
      }
    };
    const fail = (error: Error): void => {
      if (!finished.value) {
        cleanup();
        reject(error);
      }
    };
    const timer = setTimeout(() => {
      fail(
        new WaitForTimeoutError(
          `Timed out after waiting ${timeoutMs}ms for any of ${JSON.stringify(texts)} to appear on the page. Check the text against a snapshot (take_snapshot), or pass a larger timeout.`,
        ),
      );
    }, timeoutMs);
    const onAbort = (): void => {
      fail(new Error('The wait was cancelled.'));
    };
    signal.addEventListener('abort', onAbort, {once: true});
    const stopDialogWatch = state.onDialog(dialog => {
      fail(
        new Error(
          `Stopped waiting: the page opened a dialog (${dialog.type}: ${dialog.message}). Call handle_dialog, then wait again.`,
        ),
      );
    });

    async function watchFrame(frame: Frame): Promise<void> {
      while (!finished.value && !frame.detached) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          return;
        }
        try {
          const found: unknown = await frame.evaluate(waiterExpression(texts, remaining, token));
          if (typeof found === 'string') {
            succeed(found);
          }
          return;
        } catch {
          // The frame navigated (its document and the waiter are gone): watch the new document.
          // A short pause keeps a frame that cannot run scripts from spinning.
          await new Promise(resolve => setTimeout(resolve, 10));
        }
      }
    }
    function watch(frame: Frame): void {
      if (finished.value || watched.has(frame)) {
        return;
      }
      watched.add(frame);
      void watchFrame(frame);
    }
    page.on('frameattached', watch);
    for (const frame of page.frames()) {
      watch(frame);
    }
  });
}

export const waitFor = definePageTool({
  name: 'wait_for',
  description:
    'Wait until any of the texts appears on the page (any frame; visible text or accessible name), then return a snapshot.',
  category: 'navigation',
  readOnly: true,
  blockedByDialog: true,
  schema: {
    text: z
      .array(z.string())
      .min(1)
      .describe('Texts to wait for; the wait ends when any one of them appears.'),
    timeout: timeoutSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const timeoutMs = actionTimeout(slowdownFeature.get(page), params.timeout);
    await waitForText(page, params.text, timeoutMs, call.signal);
    response.appendLine(`Element matching one of ${JSON.stringify(params.text)} found.`);
    response.includeSnapshot();
  },
});

export const waitForTools = [waitFor];
