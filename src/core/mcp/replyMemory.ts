/**
 * Gives back the memory a big reply used. A 50 MB script result is copied several times on its way
 * out (the CDP message and its parsed value, the structured result, the rendered text, the
 * serialized reply and its bytes). Copies that big skip V8's young generation, so once the reply
 * is sent they are garbage that only a major GC frees, and an idle server may not run one for
 * hours: one 50 MB result kept RSS ~260 MB higher. Nothing holds them (the inspector keeps a
 * detached preview), so after such a reply has gone out this asks V8 for one major GC, at most one
 * per interval however many big replies come.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';

/** Characters (text and image data) from which a reply counts as big. */
export const BIG_REPLY_CHARS = 4 * 1024 * 1024;
/** Time for the transport to write the reply before its copies are collected. */
const RELEASE_DELAY_MS = 1_000;
/** A full collection pauses every client: at most one per interval. */
const MIN_INTERVAL_MS = 10_000;

/**
 * V8's full collection without starting node with --expose-gc: the flag applies to contexts made
 * after it is set (jest-leak-detector does the same), then it is cleared again.
 */
export function exposedGarbageCollector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    v8.setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? () => void Reflect.apply(gc, undefined, []) : undefined;
  } catch {
    return undefined;
  }
}

/** Characters a reply carries: its texts and image data (the structured result repeats a text). */
export function replyChars(result: CallToolResult): number {
  let chars = 0;
  for (const item of result.content) {
    if (item.type === 'text') {
      chars += item.text.length;
    } else if (item.type === 'image' || item.type === 'audio') {
      chars += item.data.length;
    }
  }
  return chars;
}

export interface ReplyMemoryOptions {
  /** Runs a full collection; undefined when this runtime cannot (then nothing is scheduled). */
  collect?: (() => void) | undefined;
  bigReplyChars?: number;
  delayMs?: number;
  minIntervalMs?: number;
}

export class ReplyMemory {
  readonly #collect: (() => void) | undefined;
  readonly #bigReplyChars: number;
  readonly #delayMs: number;
  readonly #minIntervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #lastCollectedAt = Number.NEGATIVE_INFINITY;
  #collections = 0;

  constructor(options: ReplyMemoryOptions = {}) {
    this.#collect = 'collect' in options ? options.collect : exposedGarbageCollector();
    this.#bigReplyChars = options.bigReplyChars ?? BIG_REPLY_CHARS;
    this.#delayMs = options.delayMs ?? RELEASE_DELAY_MS;
    this.#minIntervalMs = options.minIntervalMs ?? MIN_INTERVAL_MS;
  }

  /** Collections run so far (tests and benchmarks read it). */
  get collections(): number {
    return this.#collections;
  }

  /** Whether a collection is scheduled. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** Called with every reply as it leaves; a big one schedules a collection. */
  replied(result: CallToolResult): void {
    if (!this.#collect || this.#timer || replyChars(result) < this.#bigReplyChars) {
      return;
    }
    const collect = this.#collect;
    const wait = Math.max(this.#delayMs, this.#lastCollectedAt + this.#minIntervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#lastCollectedAt = Date.now();
      this.#collections++;
      try {
        collect();
      } catch {
        // Memory is given back at the next collection V8 runs on its own.
      }
    }, wait);
    // Never keeps a stopping server alive.
    this.#timer.unref();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
