/** Narrowing what arrives as `unknown`: parsed JSON, CDP replies, thrown values. */

/** A plain object whose keys can be read (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * What a thrown value says: an Error's message; for an error-like object (a WebSocket's error
 * event) its message or inner error; else the value as text.
 */
export function errorText(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  if (isRecord(error)) {
    if (typeof error.message === 'string' && error.message !== '') {
      return error.message;
    }
    if (error.error instanceof Error) {
      return error.error.message;
    }
  }
  return String(error);
}

/** The first line of a message (errors from other programs can run to a stack). */
export function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

function hasEveryKey<K extends string, V>(
  record: Partial<Record<K, V>>,
  keys: readonly K[],
): record is Record<K, V> {
  return keys.every(key => key in record);
}

/** A record with one value for each of `keys` (a list of names made into a typed record). */
export function recordOf<K extends string, V>(
  keys: readonly K[],
  value: (key: K) => V,
): Record<K, V> {
  const record: Partial<Record<K, V>> = {};
  for (const key of keys) {
    record[key] = value(key);
  }
  if (!hasEveryKey(record, keys)) {
    throw new Error('recordOf: a key was left without its value.');
  }
  return record;
}
