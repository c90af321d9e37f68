/**
 * wait_for: wait until one of several texts shows up in any frame of the page (as rendered text or
 * as an element's accessible name), then return a snapshot. Each frame watches itself with a
 * MutationObserver, so the wait ends as soon as the text appears, without polling from here
 * (src/injected/textWait.ts).
 */
import {randomUUID} from 'node:crypto';
import type {Frame} from 'puppeteer-core';
import {callExpression} from '../browser/injectedCall.js';
import {CANCEL_TEXT_WAIT, WAIT_FOR_TEXT} from '../browser/injectedSources.generated.js';
import type {PageState} from '../browser/pages/PageState.js';
import {actionTimeout, slowdownFeature} from '../browser/timeouts.js';
import {definePageTool, timeoutSchema} from './base/definition.js';
import {
  boundedList,
  boundedText,
  WAIT_TEXT_CHARS_LIMIT,
  WAIT_TEXTS_LIMIT,
} from './base/inputLimits.js';

const REGISTRY_KEY = 'mcp-browser-inspector.waitFor';

/** Resolves with the first text found, or null when its time is up or it was cancelled. */
function waiterExpression(texts: readonly string[], timeoutMs: number, token: string): string {
  return callExpression(
    WAIT_FOR_TEXT,
    texts,
    Math.max(0, Math.round(timeoutMs)),
    token,
    REGISTRY_KEY,
  );
}

function cancelExpression(token: string): string {
  return callExpression(CANCEL_TEXT_WAIT, REGISTRY_KEY, token);
}

class WaitForTimeoutError extends Error {}

/** Resolves with the text found first, in any frame; rejects when the time is up. */
function waitForText(
  state: PageState,
  texts: readonly string[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string> {
  const page = state.page;
  const search: FrameSearch = {
    texts,
    token: randomUUID(),
    deadline: Date.now() + timeoutMs,
    finished: false,
  };
  const watched = new Set<Frame>();

  return new Promise<string>((resolve, reject) => {
    const cleanups: (() => void)[] = [];
    const end = (settle: () => void): void => {
      if (search.finished) {
        return;
      }
      search.finished = true;
      for (const cleanup of cleanups) {
        cleanup();
      }
      for (const frame of watched) {
        if (!frame.detached) {
          frame.evaluate(cancelExpression(search.token)).catch(() => undefined);
        }
      }
      settle();
    };
    const fail = (error: Error): void => end(() => reject(error));
    cleanups.push(stopWhen(state, texts, timeoutMs, signal, fail));
    const watch = (frame: Frame): void => {
      if (search.finished || watched.has(frame)) {
        return;
      }
      watched.add(frame);
      void watchFrame(frame, search, text => end(() => resolve(text)));
    };
    page.on('frameattached', watch);
    cleanups.push(() => page.off('frameattached', watch));
    for (const frame of page.frames()) {
      watch(frame);
    }
  });
}

interface FrameSearch {
  texts: readonly string[];
  /** Names this wait's waiters in the pages, so a cancel reaches them. */
  token: string;
  deadline: number;
  finished: boolean;
}

/** What ends a wait without a find: the deadline, the client's cancel, a dialog. */
function stopWhen(
  state: PageState,
  texts: readonly string[],
  timeoutMs: number,
  signal: AbortSignal,
  fail: (error: Error) => void,
): () => void {
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
  return () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    stopDialogWatch();
  };
}

/** Runs the waiter in one frame, again in each new document after a navigation. */
async function watchFrame(
  frame: Frame,
  search: FrameSearch,
  found: (text: string) => void,
): Promise<void> {
  while (!search.finished && !frame.detached) {
    const remaining = search.deadline - Date.now();
    if (remaining <= 0) {
      return;
    }
    try {
      const text: unknown = await frame.evaluate(
        waiterExpression(search.texts, remaining, search.token),
      );
      if (typeof text === 'string') {
        found(text);
      }
      return;
    } catch {
      // The frame navigated (its document and the waiter are gone): watch the new document.
      // A short pause keeps a frame that cannot run scripts from spinning.
      await new Promise(resolve => setTimeout(resolve, 10));
    }
  }
}

export const waitFor = definePageTool({
  name: 'wait_for',
  description:
    'Wait until any of the texts appears on the page (any frame; visible text or accessible name), then return a snapshot.',
  category: 'navigation',
  readOnly: true,
  blockedByDialog: true,
  schema: {
    text: boundedList(
      boundedText(WAIT_TEXT_CHARS_LIMIT, 'Wait for a shorter part of the text.'),
      WAIT_TEXTS_LIMIT,
      'Wait for fewer texts.',
    )
      .min(1)
      .describe('Texts to wait for; the wait ends when any one of them appears.'),
    timeout: timeoutSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const timeoutMs = actionTimeout(slowdownFeature.get(page), params.timeout);
    call.reportProgress(
      `Waiting for one of ${JSON.stringify(params.text).slice(0, 200)} (up to ${timeoutMs} ms)`,
    );
    await waitForText(page, params.text, timeoutMs, call.signal);
    response.appendLine(`Element matching one of ${JSON.stringify(params.text)} found.`);
    response.includeSnapshot();
  },
});

export const waitForTools = [waitFor];
