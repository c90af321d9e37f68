/**
 * A running FNV-1a hash of texts (32 bits), each text ended by a newline: what the tree probe's
 * reading and the style sheets' key are made of. Equal inputs give equal values across calls.
 */
export interface FnvHash {
  /** Mixes in `text` as a string, then a newline. */
  mix(text: unknown): void;
  /** The hash so far, unsigned. */
  value(): number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;
const NEWLINE = 10;

export function fnvHash(): FnvHash {
  let h = FNV_OFFSET;
  return {
    mix(text) {
      const s = String(text);
      for (let i = 0; i < s.length; i++) {
        h ^= s.charCodeAt(i);
        h = Math.imul(h, FNV_PRIME);
      }
      h ^= NEWLINE;
      h = Math.imul(h, FNV_PRIME);
    },
    value() {
      return h >>> 0;
    },
  };
}
