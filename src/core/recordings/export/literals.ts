/**
 * Recorded text (the agent's arguments, the page's names and results) written into generated code
 * only as inert literals: a JS string literal that no quote, backtick, `${`, `*\/`, newline or
 * line separator can end early, and line comments with the same escaping.
 */

/** A JS string literal of any text (JSON escaping, plus the two JS-only line terminators). */
export function jsString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A JS literal of a JSON value (objects, arrays, strings, numbers, booleans, null). */
export function jsValue(value: unknown): string {
  const json = value === undefined ? 'undefined' : JSON.stringify(value);
  return json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const SUMMARY_CHARS = 120;

/**
 * The arguments of a call as one comment line: key=value pairs, values as string literals, long
 * ones cut. Contains no line terminator, so it cannot leave a `//` comment.
 */
export function argsSummary(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([key, value]) => {
    const text = typeof value === 'string' ? value : jsValue(value);
    const cut = text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text;
    return `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : jsString(key)}=${jsString(cut)}`;
  });
  return parts.join(' ');
}

/** One `//` comment line; any line terminator in the text is escaped, never emitted raw. */
export function lineComment(text: string): string {
  return `// ${text.replace(/[\r\n\u2028\u2029]/g, char => jsString(char).slice(1, -1))}`;
}
