/**
 * How much browser work one call may ask for. The browser, its DevTools pipe and the page are
 * shared: 200,000 characters typed in one write were 400,000 key events queued ahead of every
 * other client's messages (another page's script waited 32 s). So every input a call turns into
 * browser work is bounded — text typed key by key, key combinations, values filled, lists of
 * elements, files and texts, paths, and any one string argument — and a call over a bound is
 * refused before it starts, with the bound and what to do instead.
 */
import {z} from 'zod';

/** Any one string argument of any tool (a script, a URL, a WebMCP tool's input). */
export const ARGUMENT_TEXT_LIMIT = 1_000_000;
/** type_text: typed key by key (two key events per character), in slices. */
export const TYPED_TEXT_LIMIT = 10_000;
/** press_key and type_text's submitKey: one key combination. */
export const KEY_COMBO_LIMIT = 100;
/** A value fill, fill_form or handle_dialog puts in a field (inserted as one edit past 256). */
export const FILLED_TEXT_LIMIT = 100_000;
/** fill_form's elements: each is found, waited for and filled in turn. */
export const FORM_ELEMENTS_LIMIT = 100;
/** upload_file's files: each is checked and copied. */
export const UPLOAD_FILES_LIMIT = 100;
/** evaluate_script's element arguments: each is resolved in the page. */
export const SCRIPT_ELEMENTS_LIMIT = 100;
/** wait_for's texts (each searched on every check) and the characters of each. */
export const WAIT_TEXTS_LIMIT = 50;
export const WAIT_TEXT_CHARS_LIMIT = 1_000;
/** A file path argument (Linux's PATH_MAX). */
export const PATH_CHARS_LIMIT = 4_096;

/** A string argument of at most `limit` characters; the error names the bound and the remedy. */
export function boundedText(limit: number, remedy: string): z.ZodString {
  return z.string().max(limit, {
    error: issue =>
      `${typeof issue.input === 'string' ? issue.input.length : 'more than'} characters, over the limit of ${limit}. ${remedy}`,
  });
}

/** A list argument of at most `limit` items; the error names the bound and the remedy. */
export function boundedList<T extends z.ZodType>(
  item: T,
  limit: number,
  remedy: string,
): z.ZodArray<T> {
  return z.array(item).max(limit, {
    error: issue =>
      `${Array.isArray(issue.input) ? issue.input.length : 'more than'} items, over the limit of ${limit}. ${remedy}`,
  });
}

/**
 * The first string in `args` longer than `limit` (its dotted path and length), if any. The walk is
 * bounded by the value count the pipeline checked before.
 */
export function overlongArgument(
  args: Record<string, unknown>,
  limit: number,
): {path: string; length: number} | undefined {
  const pending: {value: unknown; path: string}[] = Object.entries(args).map(([key, value]) => ({
    value,
    path: key,
  }));
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const {value, path} = item;
    if (typeof value === 'string') {
      if (value.length > limit) {
        return {path, length: value.length};
      }
    } else if (Array.isArray(value)) {
      value.forEach((child: unknown, index) =>
        pending.push({value: child, path: `${path}.${index}`}),
      );
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        pending.push({value: child, path: `${path}.${key}`});
      }
    }
  }
  return undefined;
}
