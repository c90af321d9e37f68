/** Small guards every side of the app needs (engine, shell, preload, UI). */

/** A plain object: not null, not an array. What a JSON object, or a record read from one, is. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message of a thrown Error, or the thrown value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
