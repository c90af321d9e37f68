/**
 * Recorded page ids → the replay's page ids, by order of creation: the pages a recorded call
 * opened pair with the pages its replay opened (newest with newest, so a fresh browser's first tab,
 * which the recording saw at the first call, is not taken for the page the call opened). Pages
 * that were open before anything ran pair with the pages open when the replay started.
 */
export class ReplayPageMap {
  readonly #map = new Map<number, number>();
  readonly #seen = new Set<number>();
  /** Pages open at the start, not yet paired (a live browser's tabs). */
  readonly #spare: number[];

  constructor(openAtStart: readonly number[], recordedInitial: readonly number[]) {
    this.#spare = [...openAtStart];
    for (const id of openAtStart) {
      this.#seen.add(id);
    }
    for (const recorded of recordedInitial) {
      this.#pairWithSpare(recorded);
    }
  }

  /** The replay's id for a recorded page id, if paired. */
  get(recordedId: number): number | undefined {
    return this.#map.get(recordedId);
  }

  /**
   * A call names a recorded page that nothing paired yet (the browser's first tab, when the
   * recording's first call named it before the replay's browser existed): the pages open now
   * that no call opened are spares, and the first of them is that page.
   */
  pairNamed(recordedId: number, openNow: readonly number[]): number | undefined {
    for (const id of [...openNow].sort((a, b) => a - b)) {
      if (!this.#seen.has(id)) {
        this.#seen.add(id);
        this.#spare.push(id);
      }
    }
    if (!this.#map.has(recordedId)) {
      this.#pairWithSpare(recordedId);
    }
    return this.#map.get(recordedId);
  }

  /** How many of the recorded pages a call opened have no replay page yet. */
  unpaired(recordedNew: readonly number[]): number {
    return recordedNew.filter(id => !this.#map.has(id)).length;
  }

  /** How many open pages the map has not seen yet (opened by the call that just ran). */
  freshCount(openNow: readonly number[]): number {
    return openNow.filter(id => !this.#seen.has(id)).length;
  }

  /** After a call: pairs the recorded pages it opened with the pages that are new now. */
  afterCall(recordedNew: readonly number[], openNow: readonly number[]): void {
    const fresh = openNow.filter(id => !this.#seen.has(id)).sort((a, b) => a - b);
    for (const id of fresh) {
      this.#seen.add(id);
    }
    const unpaired = recordedNew.filter(id => !this.#map.has(id));
    // Right-aligned: the newest recorded page with the newest replay page.
    let replayIndex = fresh.length - 1;
    for (let index = unpaired.length - 1; index >= 0; index--) {
      const recorded = unpaired[index];
      if (recorded === undefined) {
        continue;
      }
      const replayed = replayIndex >= 0 ? fresh[replayIndex] : undefined;
      replayIndex--;
      if (replayed === undefined) {
        this.#pairWithSpare(recorded);
      } else {
        this.#map.set(recorded, replayed);
      }
    }
    // Replay pages nobody asked for (a fresh browser's first tab) can still pair later.
    for (let index = 0; index <= replayIndex; index++) {
      const id = fresh[index];
      if (id !== undefined) {
        this.#spare.push(id);
      }
    }
  }

  #pairWithSpare(recorded: number): void {
    const spare = this.#spare.shift();
    if (spare !== undefined) {
      this.#map.set(recorded, spare);
    }
  }
}
