/**
 * In-page side of evaluate_script (src/core/tools/script.ts) for a classic script whose
 * completion value is an object: its JSON text, made where the object lives (a page or an
 * extension service worker).
 */

/** Called on the completion value: JSON.stringify of it (undefined when it has no JSON). */
export function jsonOfThis(this: unknown): string | undefined {
  return JSON.stringify(this);
}
