/**
 * In-page side of wait_for (src/core/tools/waitFor.ts), run in each frame: resolves with the first
 * of the texts that shows up as rendered text of the body (innerText: visible text only, no script
 * or style content) or in a name an element carries in an attribute (aria-label, alt, title,
 * placeholder, button values). A MutationObserver checks again on changes, at most once per
 * frame's worth of time; the wait ends after `timeoutMs`, or when the engine cancels it by token.
 */

/** The frame's waits by token, each with its cancel; on the global object under Symbol.for(key). */
type WaitRegistry = Map<string, () => void>;

/** Elements that carry a name in an attribute or a button value. */
const NAMED =
  '[aria-label],[alt],[title],[placeholder],input[type=button],input[type=submit],input[type=reset]';

/** At most one search per this many ms, however busy the page is. */
const CHECK_INTERVAL_MS = 16;

function isRegistry(value: unknown): value is WaitRegistry {
  return value instanceof Map;
}

/** The frame's registry of waits (made on first use). */
function waitRegistry(registryKey: string): WaitRegistry {
  const key = Symbol.for(registryKey);
  const found: unknown = Reflect.get(globalThis, key);
  if (found === undefined || found === null) {
    const made: WaitRegistry = new Map();
    Reflect.set(globalThis, key, made);
    return made;
  }
  if (!isRegistry(found)) {
    throw new TypeError('The wait registry is not a Map.');
  }
  return found;
}

/** The names an element carries (null where it has none). */
function namesOf(element: Element): (string | null)[] {
  return [
    element.getAttribute('aria-label'),
    element.getAttribute('alt'),
    element.getAttribute('title'),
    element.getAttribute('placeholder'),
    element instanceof HTMLInputElement && /^(button|submit|reset)$/.test(element.type)
      ? element.value
      : null,
  ];
}

/** The body, else the document element; null when the document has neither. */
function textRoot(): HTMLElement | null {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- lib.dom types body as always there; a document without one has null
  return document.body ?? document.documentElement;
}

/** The first of the texts shown in the frame now; null when none is. */
function findText(texts: readonly string[]): string | null {
  const root = textRoot();
  if (!root) {
    return null;
  }
  const innerText: unknown = Reflect.get(root, 'innerText');
  const rendered = typeof innerText === 'string' ? innerText : '';
  for (const text of texts) {
    if (rendered.includes(text)) {
      return text;
    }
  }
  for (const element of document.querySelectorAll(NAMED)) {
    const own = namesOf(element);
    for (const text of texts) {
      if (own.some(name => name?.includes(text)) && element.checkVisibility()) {
        return text;
      }
    }
  }
  return null;
}

/**
 * Resolves with the first text found, or null when `timeoutMs` is up or the wait was cancelled
 * (cancelTextWait with the same token).
 */
export function waitForText(
  texts: readonly string[],
  timeoutMs: number,
  token: string,
  registryKey: string,
): Promise<string | null> {
  return new Promise(resolve => {
    const registry = waitRegistry(registryKey);
    let scheduled = false;
    let lastCheck = 0;
    const finish = (value: string | null): void => {
      clearTimeout(timer);
      observer.disconnect();
      registry.delete(token);
      resolve(value);
    };
    const check = (): void => {
      scheduled = false;
      lastCheck = performance.now();
      const found = findText(texts);
      if (found !== null) {
        finish(found);
      }
    };
    const first = findText(texts);
    if (first !== null) {
      resolve(first);
      return;
    }
    registry.set(token, () => {
      finish(null);
    });
    const timer = setTimeout(() => {
      finish(null);
    }, timeoutMs);
    const observer = new MutationObserver(() => {
      if (scheduled) {
        return;
      }
      scheduled = true;
      setTimeout(check, Math.max(0, CHECK_INTERVAL_MS - (performance.now() - lastCheck)));
    });
    observer.observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

/** Ends the wait of `token` in this frame, if it still runs (it resolves with null). */
export function cancelTextWait(registryKey: string, token: string): void {
  const registry: unknown = Reflect.get(globalThis, Symbol.for(registryKey));
  if (isRegistry(registry)) {
    registry.get(token)?.();
  }
}
