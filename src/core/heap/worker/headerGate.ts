/**
 * Holds a snapshot's first chunks back from DevTools' loader until its header is read and checked
 * (../snapshotHeader.ts), so the loader never sizes an array from a header the file cannot back.
 * The header is found exactly as the loader finds it — the first `"snapshot"` in the text, then
 * DevTools' own BalancedJSONTokenizer from one character after it — so what is checked is what
 * the loader would read.
 */
import {BalancedJSONTokenizer} from 'mbi-devtools-heap-snapshot';
import {snapshotHeaderProblem} from '../snapshotHeader.js';

const SNAPSHOT_TOKEN = '"snapshot"';
/** A real header is a few kB; this much text without one is not a heap snapshot. */
export const HEADER_SEARCH_BYTES = 16 * 1024 * 1024;

export class HeaderGate {
  #held: string[] = [];
  #heldLength = 0;
  #text = '';
  #tokenizer: BalancedJSONTokenizer | undefined;
  #header: string | undefined;
  #open = false;

  constructor(private readonly fileBytes: number) {}

  /**
   * Takes the next chunk; returns the chunks the loader may have now (in order), or throws when
   * the header claims more than the file can hold.
   */
  pass(chunk: string): string[] {
    if (this.#open) {
      return [chunk];
    }
    this.#held.push(chunk);
    this.#heldLength += chunk.length;
    this.#scan(chunk);
    if (this.#header === undefined) {
      if (this.#heldLength > HEADER_SEARCH_BYTES) {
        throw new Error(
          `no complete "snapshot" header in its first ${HEADER_SEARCH_BYTES / 1024 / 1024} MB; it is not a heap snapshot.`,
        );
      }
      return [];
    }
    this.#check(this.#header);
    this.#open = true;
    const held = this.#held;
    this.#held = [];
    this.#text = '';
    return held;
  }

  /** What is still held when the file ends (a file too short for a header: the loader says so). */
  rest(): string[] {
    const held = this.#held;
    this.#held = [];
    return held;
  }

  #scan(chunk: string): void {
    if (this.#tokenizer) {
      this.#tokenizer.write(chunk);
      return;
    }
    this.#text += chunk;
    const index = this.#text.indexOf(SNAPSHOT_TOKEN);
    if (index < 0) {
      // Keep only what a token split across chunks needs.
      this.#text = this.#text.slice(-SNAPSHOT_TOKEN.length);
      return;
    }
    const tokenizer = new BalancedJSONTokenizer(json => {
      this.#header ??= json;
    });
    this.#tokenizer = tokenizer;
    tokenizer.write(this.#text.slice(index + SNAPSHOT_TOKEN.length + 1));
    this.#text = '';
  }

  #check(json: string): void {
    let header: unknown;
    try {
      header = JSON.parse(json);
    } catch {
      // The loader fails on it the same way, before allocating anything.
      return;
    }
    const problem = snapshotHeaderProblem(header, this.fileBytes);
    if (problem !== undefined) {
      throw new Error(problem);
    }
  }
}
