/**
 * A bounded, per-navigation store: the current navigation plus a fixed number of earlier ones,
 * each capped (oldest entries dropped first, and counted). Ids are handed out here, increase
 * monotonically and never repeat for the life of the log, so an id an agent saw stays valid until
 * its entry ages out and is never reused for another entry.
 */

/** Earlier navigations kept besides the current one ("the last 3 navigations"). */
export const PRESERVED_NAVIGATIONS = 3;

export interface Identified {
  readonly id: number;
}

/** One navigation's entries: a ring that drops its oldest entry when full. */
class NavigationBucket<T extends Identified> {
  #items: T[] = [];
  #start = 0;
  /** Entries this navigation dropped because it was full. */
  dropped = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.#items.length - this.#start;
  }

  /** Adds an entry; returns the entry it displaced, if the bucket was full. */
  push(item: T): T | undefined {
    this.#items.push(item);
    if (this.size <= this.limit) {
      return undefined;
    }
    const evicted = this.#items[this.#start];
    this.#start++;
    this.dropped++;
    // Compact now and then instead of shifting on every push: O(1) amortised per entry.
    if (this.#start >= this.limit) {
      this.#items = this.#items.slice(this.#start);
      this.#start = 0;
    }
    return evicted;
  }

  /** The entries, oldest first (a view; do not keep it across pushes). */
  entries(): readonly T[] {
    return this.#start === 0 ? this.#items : this.#items.slice(this.#start);
  }

  /** Binary search: ids within a bucket increase. */
  find(id: number): T | undefined {
    let low = this.#start;
    let high = this.#items.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const item = this.#items[middle];
      if (item === undefined) {
        return undefined;
      }
      if (item.id === id) {
        return item;
      }
      if (item.id < id) {
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return undefined;
  }

  /** Removes and returns the entries from `index` (relative to entries()) to the end. */
  takeFrom(index: number): T[] {
    return this.#items.splice(this.#start + index);
  }
}

export interface NavigationLogOptions<T> {
  /** Most entries one navigation keeps. */
  perNavigationLimit: number;
  /** Earlier navigations kept besides the current one. */
  preservedNavigations: number;
  /**
   * Told about every entry that leaves the log: `full` when its navigation dropped it to make room
   * (its document is usually still alive), `navigation` when its whole navigation aged out.
   */
  onEvict?: (item: T, reason: 'full' | 'navigation') => void;
}

export class NavigationLog<T extends Identified> {
  /** Newest first: index 0 is the current navigation. */
  #buckets: NavigationBucket<T>[];
  #nextId = 1;
  #version = 0;

  constructor(private readonly options: NavigationLogOptions<T>) {
    this.#buckets = [new NavigationBucket<T>(options.perNavigationLimit)];
  }

  /** The id for the next entry; ids are never reused. */
  allocateId(): number {
    return this.#nextId++;
  }

  get #current(): NavigationBucket<T> {
    const current = this.#buckets[0];
    if (current) {
      return current;
    }
    const fresh = new NavigationBucket<T>(this.options.perNavigationLimit);
    this.#buckets = [fresh];
    return fresh;
  }

  /** Changes whenever a listing of this log could read differently (see touch). */
  get version(): number {
    return this.#version;
  }

  /** An entry changed in place (a response arrived, a repeat was counted). */
  touch(): void {
    this.#version++;
  }

  add(item: T): void {
    this.#version++;
    const evicted = this.#current.push(item);
    if (evicted !== undefined) {
      this.options.onEvict?.(evicted, 'full');
    }
  }

  /**
   * Starts a new navigation. `carryFrom` may name the index (in the current entries) from which
   * entries belong to the new navigation already, e.g. the request that loaded the new document.
   */
  startNavigation(carryFrom?: (entries: readonly T[]) => number): void {
    this.#version++;
    const fresh = new NavigationBucket<T>(this.options.perNavigationLimit);
    const current = this.#buckets[0];
    if (current && carryFrom) {
      const index = carryFrom(current.entries());
      if (index >= 0) {
        for (const item of current.takeFrom(index)) {
          fresh.push(item);
        }
      }
    }
    this.#buckets.unshift(fresh);
    const kept = this.options.preservedNavigations + 1;
    if (this.#buckets.length > kept) {
      for (const old of this.#buckets.splice(kept)) {
        if (this.options.onEvict) {
          for (const item of old.entries()) {
            this.options.onEvict(item, 'navigation');
          }
        }
      }
    }
  }

  /** The current navigation's entries, or every kept navigation's (oldest first). */
  entries(includePreserved = false): readonly T[] {
    if (!includePreserved) {
      return this.#current.entries();
    }
    const all: T[] = [];
    for (let index = this.#buckets.length - 1; index >= 0; index--) {
      const bucket = this.#buckets[index];
      if (bucket) {
        all.push(...bucket.entries());
      }
    }
    return all;
  }

  /** Entries dropped from the listed navigations because they were full. */
  dropped(includePreserved = false): number {
    if (!includePreserved) {
      return this.#current.dropped;
    }
    return this.#buckets.reduce((sum, bucket) => sum + bucket.dropped, 0);
  }

  find(id: number): T | undefined {
    for (const bucket of this.#buckets) {
      const found = bucket.find(id);
      if (found !== undefined) {
        return found;
      }
    }
    return undefined;
  }

  /** Navigations kept, the current one included. */
  get navigationCount(): number {
    return this.#buckets.length;
  }

  /** Entries held across all kept navigations (for memory-bound checks). */
  get retainedCount(): number {
    return this.#buckets.reduce((sum, bucket) => sum + bucket.size, 0);
  }

  /** The highest id handed out so far (0 if none). */
  get lastId(): number {
    return this.#nextId - 1;
  }
}
