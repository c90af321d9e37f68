/**
 * In-page side of get_console_message (src/core/tools/console.ts): describes a message's argument
 * objects and an exception's causes, in the page that holds them. Errors become their stack
 * strings along the cause chain, DOM nodes their markup, everything else JSON (cycles and bigints
 * handled). Every text is cut at TEXT_LIMIT characters and every chain at CHAIN_LIMIT links.
 */

const TEXT_LIMIT = 10000;
const CHAIN_LIMIT = 20;

/** One described argument: an error's chain of stack strings, or any other value's text. */
export type DescribedValue = {chain: string[]} | {text: string};

function capText(text: string): string {
  return text.length > TEXT_LIMIT ? text.slice(0, TEXT_LIMIT) + '... <truncated>' : text;
}

/** The value as the page prints it with String() (its own toString, for an object). */
function stringOf(value: unknown): string {
  return String(value);
}

/** An error's stack, or the error as text when it has none. */
function stackText(error: Error): string {
  // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing -- an empty stack says nothing: print the error
  return stringOf(error.stack || error);
}

/** The next link of a chain: an object's or a function's `cause`. */
function causeOf(value: unknown): unknown {
  return typeof value === 'object' || typeof value === 'function'
    ? Reflect.get(value ?? {}, 'cause')
    : undefined;
}

/**
 * JSON.stringify, typed as it behaves: undefined for a value JSON has no text for (undefined, a
 * function, an object whose toJSON gives one of those).
 */
function jsonOf(
  value: unknown,
  replacer?: (key: string, item: unknown) => unknown,
): string | undefined {
  return JSON.stringify(value, replacer);
}

/** What JSON.stringify writes for one item of a value: readable stand-ins for what it cannot. */
function jsonItem(item: unknown, seen: WeakSet<object>): unknown {
  if (typeof item === 'bigint') {
    return item.toString() + 'n';
  }
  if (typeof item === 'function') {
    return 'ƒ ' + (item.name || 'anonymous');
  }
  if (typeof item === 'symbol') {
    return item.toString();
  }
  if (item instanceof Map) {
    return {['Map(' + String(item.size) + ')']: Array.from(item.entries())};
  }
  if (item instanceof Set) {
    return {['Set(' + String(item.size) + ')']: Array.from(item.values())};
  }
  if (typeof Node === 'function' && item instanceof Node) {
    return item.nodeName;
  }
  if (item !== null && typeof item === 'object') {
    if (seen.has(item)) {
      return '[Circular]';
    }
    seen.add(item);
  }
  return item;
}

/** The value as JSON (an object seen once already is '[Circular]'); String() when that fails. */
function jsonText(value: unknown): string {
  const seen = new WeakSet();
  try {
    const text = jsonOf(value, (_key, item: unknown) => jsonItem(item, seen));
    return text ?? stringOf(value);
  } catch {
    return stringOf(value);
  }
}

/** An error and its causes, each as text, capped. */
function errorChain(error: Error): string[] {
  const chain: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (
    current !== undefined &&
    current !== null &&
    !seen.has(current) &&
    chain.length < CHAIN_LIMIT
  ) {
    seen.add(current);
    chain.push(
      current instanceof Error
        ? stackText(current)
        : typeof current === 'object'
          ? jsonText(current)
          : stringOf(current),
    );
    current = causeOf(current);
  }
  return chain.map(capText);
}

/** A node's markup: an element's outer HTML, else its value, else its name. */
function nodeText(node: Node): string {
  const html: unknown = Reflect.get(node, 'outerHTML');
  return typeof html === 'string' ? html : (node.nodeValue ?? node.nodeName);
}

/** Called with a message's argument objects: each one described, in their order. */
export function describeValues(...values: unknown[]): DescribedValue[] {
  return values.map(value => {
    if (value instanceof Error) {
      return {chain: errorChain(value)};
    }
    if (typeof Node === 'function' && value instanceof Node) {
      return {text: capText(nodeText(value))};
    }
    if (typeof value === 'function') {
      return {text: capText(stringOf(value))};
    }
    return {text: capText(jsonText(value))};
  });
}

/** One cause as text: an error's stack, anything else as JSON (objects) or String(). */
function causeText(cause: unknown): string {
  if (cause instanceof Error) {
    return stackText(cause);
  }
  let text: string | undefined;
  try {
    text = typeof cause === 'object' ? jsonOf(cause) : stringOf(cause);
  } catch {
    text = stringOf(cause);
  }
  if (text === undefined) {
    // An object whose toJSON gives nothing: the chain cannot be told.
    throw new TypeError('A cause has no JSON text.');
  }
  return text;
}

/** Called on an exception object: the stack strings of its causes (not of itself), capped. */
export function causeChain(this: object): string[] {
  const chain: string[] = [];
  const seen = new Set<unknown>([this]);
  let current: unknown = Reflect.get(this, 'cause');
  while (
    current !== undefined &&
    current !== null &&
    !seen.has(current) &&
    chain.length < CHAIN_LIMIT
  ) {
    seen.add(current);
    chain.push(capText(causeText(current)));
    current = causeOf(current);
  }
  return chain;
}
