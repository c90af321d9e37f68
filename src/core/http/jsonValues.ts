/**
 * How many values a JSON body holds, counted on its bytes before it is parsed: V8 parses an object
 * with 200,000 keys in about a second, and every walk after that (the transport's schema, the
 * call's checks, the inspector's copy) takes as long again, so a body with that many is refused
 * before any of it. Counted are the commas and the opening brackets outside strings: each value
 * after the first in an array or object needs a comma, and each container a bracket. UTF-8 never
 * puts a quote or backslash byte inside a multi-byte character, so bytes suffice.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;

/** Whether the JSON text in `bytes` holds more than `maxValues` values (as counted above). */
export function jsonHoldsMoreValuesThan(bytes: Uint8Array, maxValues: number): boolean {
  let count = 1;
  let inString = false;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) {
        index++;
      } else if (byte === QUOTE) {
        inString = false;
      }
      continue;
    }
    if (byte === QUOTE) {
      inString = true;
    } else if (byte === COMMA || byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++count > maxValues) {
        return true;
      }
    }
  }
  return false;
}
