/**
 * list_console_messages for an extension service worker (serviceWorkerId): the messages the
 * engine collected from the worker, in the same line form as a page's list.
 */
import type {WorkerConsoleEntry} from '../browser/launch/extensionWorkers.js';
import {paginate, paginationLines, type Paginated} from './base/pagination.js';
import {inlineText} from './formatters/console.js';

export interface ConsoleListOptions {
  pageSize?: number | undefined;
  pageIdx?: number | undefined;
  types?: readonly string[] | undefined;
  includePreservedMessages?: boolean | undefined;
  includeStackTraces?: boolean | undefined;
}

/** The worker messages a listing shows: filtered by type, and the page of them asked for. */
export function selectWorkerMessages(
  messages: readonly WorkerConsoleEntry[],
  options: ConsoleListOptions,
): {entries: readonly WorkerConsoleEntry[]; shown: Paginated<WorkerConsoleEntry>} {
  const types = options.types;
  const entries =
    types && types.length > 0 ? messages.filter(entry => types.includes(entry.type)) : messages;
  return {entries, shown: paginate(entries, options)};
}

/** The structured form of a worker listing (outputSchema CONSOLE_LIST_OUTPUT). */
export function structuredWorkerMessages(
  messages: readonly WorkerConsoleEntry[],
  options: ConsoleListOptions,
): Record<string, unknown> {
  const {entries, shown} = selectWorkerMessages(messages, options);
  return {
    total: entries.length,
    messages: shown.items.map(({id, type, text}) => ({msgid: id, type, text: inlineText(text)})),
  };
}

/** An extension service worker's console, in the page list's form. */
export function renderWorkerConsole(
  messages: readonly WorkerConsoleEntry[],
  options: ConsoleListOptions,
): string {
  const {entries, shown} = selectWorkerMessages(messages, options);
  if (entries.length === 0) {
    return '## Console messages\n<no console messages found>';
  }
  return [
    '## Console messages',
    ...paginationLines(shown, entries.length),
    ...shown.items.map(entry => {
      const args = entry.argCount > 1 ? ` (${entry.argCount} args)` : '';
      return `msgid=${entry.id} [${entry.type}] ${inlineText(entry.text)}${args}`;
    }),
  ].join('\n');
}
