/**
 * Walks over values that come from outside (a page, a client, a file), bounded in depth and size
 * and without recursion, so no value can overflow the stack or flood memory wherever the engine
 * keeps, sends, records or renders it. What a bound cuts is replaced by a short marker that says
 * what is missing, never silently dropped.
 */

/** Containers (objects, arrays) nested deeper than this are cut wherever an outside value goes. */
export const VALUE_DEPTH_LIMIT = 64;

/**
 * Most values (objects, arrays and leaves together) one request from a client may hold. Every
 * schema check, event copy and recorded line walks each of them (and a parser validates an
 * object's keys one by one), so 200,000 keys in 2 MB of arguments cost seconds of everyone's
 * time; no real call comes near this.
 */
export const REQUEST_VALUE_LIMIT = 20_000;

/** What a walk keeps of a value. */
export interface ValueBounds {
  /** Containers nested deeper than this become a marker (the outermost container is depth 1). */
  maxDepth: number;
  /** Values (containers and leaves) copied; the rest of each open container is counted instead. */
  maxNodes?: number;
  /** Characters of one string kept; the rest is counted in a marker at its end. */
  maxStringChars?: number;
  /** About this many characters of JSON in all; once spent, the rest is counted instead. */
  maxChars?: number;
  /** Applied to every string kept (redaction); `key` is its property name, `parent` its object. */
  mapString?: (text: string, key: string | undefined, parent: object | undefined) => string;
}

export interface BoundedValue {
  value: unknown;
  /** Something was cut (a marker stands in its place). */
  cut: boolean;
  /** About how many characters the kept value takes as JSON. */
  chars: number;
}

/** The property an object's cut keys are counted under. */
export const CUT_KEY = '…';

export function deeperMarker(maxDepth: number): string {
  return `[… nested deeper than ${maxDepth} levels]`;
}

function moreItemsMarker(count: number): string {
  return `[… ${count} more item${count === 1 ? '' : 's'}]`;
}

function moreKeysMarker(count: number): string {
  return `[… ${count} more key${count === 1 ? '' : 's'}]`;
}

/**
 * The first `length` characters as a string of their own. A plain slice of a long string keeps
 * the whole original alive (V8 shares it), which would defeat cutting a 50 MB result to a preview.
 */
export function detachedPrefix(text: string, length: number): string {
  const prefix = text.slice(0, length);
  return prefix.length < 13 || prefix.length === text.length ? prefix : structuredClone(prefix);
}

export function moreCharsMarker(count: number): string {
  return `[… ${count} more characters]`;
}

/**
 * Characters of a page's URL and title that page lists, change events and "navigated to" lines
 * show; a page can make either megabytes long (history.pushState, document.title).
 */
export const SHOWN_URL_CHARS = 4_096;
export const SHOWN_TITLE_CHARS = 1_024;

/** The text, or its first `maxChars` and a marker counting the rest (never a shared slice). */
export function cutText(text: string, maxChars: number): string {
  return text.length > maxChars
    ? `${detachedPrefix(text, maxChars)}${moreCharsMarker(text.length - maxChars)}`
    : text;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** An open container of the walk: where it is read from, written to, and how far it got. */
type Frame =
  | {kind: 'array'; source: unknown[]; target: unknown[]; index: number; depth: number}
  | {
      kind: 'object';
      source: Record<string, unknown>;
      target: Record<string, unknown>;
      /** Own enumerable keys, as JSON.stringify visits them (values from outside are plain data). */
      keys: string[];
      index: number;
      depth: number;
    };

function remaining(frame: Frame): number {
  return (frame.kind === 'array' ? frame.source.length : frame.keys.length) - frame.index;
}

/** Characters a leaf takes as JSON (numbers and literals at most about this long). */
function leafChars(value: unknown): number {
  if (typeof value === 'string') {
    return value.length + 2;
  }
  return typeof value === 'number' ? 8 : 5;
}

/** A leaf as JSON keeps it: functions, symbols and undefined are left out, bigints stringified. */
function jsonLeaf(value: unknown): {keep: boolean; value: unknown} {
  switch (typeof value) {
    case 'function':
    case 'symbol':
    case 'undefined':
      return {keep: false, value: undefined};
    case 'bigint':
      return {keep: true, value: value.toString()};
    case 'number':
      return {keep: true, value: Number.isFinite(value) ? value : null};
    case 'boolean':
    case 'string':
    case 'object':
      return {keep: true, value};
  }
}

/** Without a node bound a walk still stops here (a cycle in a value built by code ends too). */
const DEFAULT_MAX_NODES = 1_000_000;

class BoundedWalk {
  readonly #bounds: ValueBounds;
  readonly #maxNodes: number;
  readonly #maxChars: number;
  readonly #stack: Frame[] = [];
  nodes = 0;
  chars = 0;
  cut = false;

  constructor(bounds: ValueBounds) {
    this.#bounds = bounds;
    this.#maxNodes = bounds.maxNodes ?? DEFAULT_MAX_NODES;
    this.#maxChars = bounds.maxChars ?? Number.POSITIVE_INFINITY;
  }

  run(value: unknown): unknown {
    const root = this.#copy(value, undefined, undefined, 1);
    for (let frame = this.#stack.at(-1); frame !== undefined; frame = this.#stack.at(-1)) {
      if (remaining(frame) <= 0) {
        this.#stack.pop();
      } else if (this.nodes >= this.#maxNodes || this.chars >= this.#maxChars) {
        this.#closeAll();
      } else {
        this.#step(frame);
      }
    }
    return root.value;
  }

  #step(frame: Frame): void {
    const index = frame.index++;
    if (frame.kind === 'array') {
      const copied = this.#copy(frame.source[index], undefined, undefined, frame.depth + 1);
      // Inside an array a left-out leaf becomes null, as in JSON.
      frame.target.push(copied.keep ? copied.value : null);
      this.chars += 1;
      return;
    }
    const key = frame.keys[index] ?? '';
    const copied = this.#copy(frame.source[key], key, frame.source, frame.depth + 1);
    if (copied.keep) {
      if (key === '__proto__') {
        // Defined, not assigned: a "__proto__" key from JSON stays a key, never the prototype.
        Object.defineProperty(frame.target, key, {
          value: copied.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        // Assigned: as defining it (a fresh plain object), without the slow path of defining.
        frame.target[key] = copied.value;
      }
      this.chars += key.length + 4;
    }
  }

  /** A copy of one value at `depth`; a container's contents are copied as the walk gets to them. */
  #copy(
    value: unknown,
    key: string | undefined,
    parent: object | undefined,
    depth: number,
  ): {keep: boolean; value: unknown} {
    this.nodes++;
    if (!isContainer(value)) {
      const leaf = jsonLeaf(value);
      if (typeof leaf.value === 'string') {
        leaf.value = this.#string(leaf.value, key, parent);
      }
      this.chars += leafChars(leaf.value);
      return leaf;
    }
    if (depth > this.#bounds.maxDepth) {
      this.cut = true;
      const marker = deeperMarker(this.#bounds.maxDepth);
      this.chars += marker.length + 2;
      return {keep: true, value: marker};
    }
    this.chars += 2;
    if (Array.isArray(value)) {
      const target: unknown[] = [];
      this.#stack.push({kind: 'array', source: value, target, index: 0, depth});
      return {keep: true, value: target};
    }
    const target: Record<string, unknown> = {};
    const keys = Object.keys(value);
    this.#stack.push({kind: 'object', source: value, target, keys, index: 0, depth});
    return {keep: true, value: target};
  }

  #string(text: string, key: string | undefined, parent: object | undefined): string {
    const {maxStringChars, mapString} = this.#bounds;
    const room = Math.max(0, Math.min(maxStringChars ?? text.length, this.#maxChars - this.chars));
    let kept = text;
    if (text.length > room) {
      this.cut = true;
      kept = `${detachedPrefix(text, room)}${moreCharsMarker(text.length - room)}`;
    }
    return mapString ? mapString(kept, key, parent) : kept;
  }

  /** The budget is spent: every open container says how much of it was left out. */
  #closeAll(): void {
    for (const frame of this.#stack) {
      const left = remaining(frame);
      if (left <= 0) {
        continue;
      }
      this.cut = true;
      if (frame.kind === 'array') {
        frame.target.push(moreItemsMarker(left));
      } else {
        frame.target[CUT_KEY] = moreKeysMarker(left);
      }
    }
    this.#stack.length = 0;
  }
}

/** A JSON-like copy of `value` within the bounds; what they cut is marked. Never recursive. */
export function boundValue(value: unknown, bounds: ValueBounds): BoundedValue {
  const walk = new BoundedWalk(bounds);
  const copied = walk.run(value);
  return {value: copied, cut: walk.cut, chars: walk.chars};
}

/**
 * Whether `value` nests containers deeper than `maxDepth` (checked without copying or
 * recursion; at most `maxNodes` values are looked at, and a value with more counts as too deep).
 */
export function nestsDeeperThan(
  value: unknown,
  maxDepth: number,
  maxNodes = Number.POSITIVE_INFINITY,
): boolean {
  if (!isContainer(value)) {
    return false;
  }
  const stack: {items: unknown[]; index: number}[] = [];
  let nodes = 0;
  const open = (container: Container): boolean => {
    stack.push({
      items: Array.isArray(container) ? container : Object.values(container),
      index: 0,
    });
    return stack.length > maxDepth;
  };
  if (open(value)) {
    return true;
  }
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top === undefined || top.index >= top.items.length) {
      stack.pop();
      continue;
    }
    const item = top.items[top.index++];
    if (++nodes > maxNodes) {
      return true;
    }
    if (isContainer(item) && open(item)) {
      return true;
    }
  }
  return false;
}

/**
 * Whether `value` holds more than `maxValues` values, counting containers and leaves (the
 * outermost value too). Iterative, and it stops counting once past the bound.
 */
export function holdsMoreValuesThan(value: unknown, maxValues: number): boolean {
  const pending: unknown[] = [value];
  let counted = 0;
  while (pending.length > 0) {
    const item = pending.pop();
    counted++;
    if (!isContainer(item)) {
      continue;
    }
    const children = Array.isArray(item) ? item : Object.values(item);
    if (counted + pending.length + children.length > maxValues) {
      return true;
    }
    for (const child of children) {
      pending.push(child);
    }
  }
  return counted > maxValues;
}

/** Characters of a call's result text the inspector keeps and records (the agent gets it all). */
export const RESULT_TEXT_PREVIEW_CHARS = 256 * 1024;
/** About this many characters of a call's structured result the inspector keeps and records. */
export const STRUCTURED_PREVIEW_CHARS = 64 * 1024;

/** The first `maxChars` of a text, then a line saying how much more there was. */
export function previewText(text: string, maxChars: number): {text: string; cut: boolean} {
  if (text.length <= maxChars) {
    return {text, cut: false};
  }
  return {
    text: `${detachedPrefix(text, maxChars)}\n${moreCharsMarker(text.length - maxChars)}`,
    cut: true,
  };
}

/** JSON text from outside, parsed (V8's parser does not recurse) and cut at the depth bound. */
export function parseBoundedJson(text: string, maxDepth = VALUE_DEPTH_LIMIT): unknown {
  const value: unknown = JSON.parse(text);
  return nestsDeeperThan(value, maxDepth) ? boundValue(value, {maxDepth}).value : value;
}
