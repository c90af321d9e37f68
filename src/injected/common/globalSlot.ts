/**
 * State kept in a document across evaluations: one property of the global object under a
 * registered symbol (`Symbol.for`), non-enumerable and not writable, so the page's own code does
 * not come across it by enumeration. Each evaluation finds it again by its key.
 */

/** The value stored under `key`, if any. */
export function readGlobalSlot(key: string): unknown {
  return Reflect.get(globalThis, Symbol.for(key));
}

/** Stores `value` under `key` for the document's lifetime. */
export function defineGlobalSlot(key: string, value: object): void {
  Object.defineProperty(globalThis, Symbol.for(key), {value});
}
