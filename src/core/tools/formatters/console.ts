/**
 * Console messages as text for the agent: the list (one bounded line per message, identical
 * neighbours collapsed, optional stacks) and one message's detail (arguments, stack, cause chain).
 * Pure: what the page was asked for comes in as values (tools/console.ts fetches it).
 */
import {
  type ApiMessageEntry,
  ExceptionEntry,
  MAX_MESSAGES_PER_NAVIGATION,
  type ConsoleEntry,
  type IssueEntry,
} from '../../browser/collectors/ConsoleCollector.js';
import {
  STACK_NOTE,
  capStackLines,
  errorHeadline,
  formatRemoteObject,
  stackStringFrames,
  stackTraceLines,
} from '../../browser/collectors/consoleFormat.js';
import {paginationLines, type Paginated} from '../base/pagination.js';
import {oneLine} from '../../../shared/inertText.js';

/** List lines stay one line each and bounded; get_console_message shows the full text. */
const LIST_TEXT_LIMIT = 1_000;
const STACK_LIST_NOTE = 'Note: stack trace line and column numbers use 1-based indexing';

/** A message on one line, shortened for the list (get_console_message shows all). */
export function inlineText(text: string): string {
  const single = oneLine(text);
  if (single.length <= LIST_TEXT_LIMIT) {
    return single;
  }
  return `${single.slice(0, LIST_TEXT_LIMIT)}… (${single.length - LIST_TEXT_LIMIT} more characters; get_console_message shows all)`;
}

// List -----------------------------------------------------------------------------------------

export interface GroupedEntry {
  entry: ConsoleEntry;
  count: number;
}

/** The messages of one listing: all that match, grouped, and the page of them shown. */
export interface ConsoleListing {
  grouped: readonly GroupedEntry[];
  shown: Paginated<GroupedEntry>;
}

/** Consecutive identical messages (type, text, argument count) collapse into one line with a count. */
export function groupConsecutive(entries: readonly ConsoleEntry[]): GroupedEntry[] {
  const grouped: GroupedEntry[] = [];
  let previous: GroupedEntry | undefined;
  for (const entry of entries) {
    if (
      previous &&
      entry.kind !== 'issue' &&
      previous.entry.kind !== 'issue' &&
      previous.entry.type === entry.type &&
      previous.entry.argCount === entry.argCount &&
      previous.entry.text() === entry.text()
    ) {
      previous.count++;
      continue;
    }
    previous = {entry, count: 1};
    grouped.push(previous);
  }
  return grouped;
}

function listStack(entry: ApiMessageEntry | ExceptionEntry): string[] {
  const lines = stackTraceLines(entry.stack);
  if (entry instanceof ExceptionEntry) {
    const cause = entry.previewCause();
    if (cause !== undefined) {
      lines.push(`Caused by: ${cause}`);
    }
  }
  return capStackLines(lines);
}

function conciseLines({entry, count}: GroupedEntry, includeStack: boolean): string[] {
  if (entry.kind === 'issue') {
    return [`msgid=${entry.id} [issue] ${inlineText(entry.title)} (count: ${entry.count})`];
  }
  const repeat = count > 1 ? ` [${count} times]` : '';
  // The argument count only says something when there are several (a plain string is one).
  const args = entry.argCount > 1 ? ` (${entry.argCount} args)` : '';
  const line = `msgid=${entry.id} [${entry.type}] ${inlineText(entry.text())}${args}${repeat}`;
  if (!includeStack) {
    return [line];
  }
  return [line, ...listStack(entry).map(frame => `  ${frame}`)];
}

/** list_console_messages' text; `dropped`: how many older messages the collector let go. */
export function consoleListText(
  {grouped, shown}: ConsoleListing,
  includeStack: boolean,
  dropped: number,
): string {
  const out = ['## Console messages'];
  if (grouped.length === 0) {
    out.push('<no console messages found>');
  } else {
    out.push(...paginationLines(shown, grouped.length));
    let anyStack = false;
    for (const item of shown.items) {
      const lines = conciseLines(item, includeStack);
      anyStack ||= lines.length > 1;
      out.push(...lines);
    }
    if (anyStack) {
      out.push(STACK_LIST_NOTE);
    }
  }
  if (dropped > 0) {
    out.push(
      `Note: ${dropped} older messages were dropped (at most ${MAX_MESSAGES_PER_NAVIGATION} are kept per navigation).`,
    );
  }
  return out.join('\n');
}

/** The structured form of a listing (outputSchema CONSOLE_LIST_OUTPUT). */
export function consoleListStructured({grouped, shown}: ConsoleListing): Record<string, unknown> {
  return {
    total: grouped.length,
    messages: shown.items.map(({entry, count}) => ({
      msgid: entry.id,
      type: entry.type,
      text: inlineText(entry.kind === 'issue' ? entry.title : entry.text()),
      ...(count > 1 ? {count} : {}),
    })),
  };
}

// Detail ---------------------------------------------------------------------------------------

/** An argument object as the page described it: an error's stack strings along its causes, or text. */
export type DescribedValue = {chain: string[]} | {text: string};

/** An error and its causes from stack strings: headline, frames, then `Caused by:` blocks. */
function errorChainLines(chain: readonly string[]): string[] {
  const lines: string[] = [];
  chain.forEach((stack, index) => {
    const headline = oneLine(errorHeadline(stack));
    lines.push(index === 0 ? headline : `Caused by: ${headline}`);
    lines.push(...stackStringFrames(stack));
  });
  return lines;
}

/**
 * Argument texts: the page's descriptions of the object arguments (in their order) where it gave
 * them (`described` undefined: it could not), the previews otherwise.
 */
function argumentTexts(
  entry: ApiMessageEntry,
  described: readonly DescribedValue[] | undefined,
): {texts: string[]; fromPreview: boolean} {
  const texts = entry.args.map(arg => oneLine(formatRemoteObject(arg)));
  const objectIndexes = entry.args.flatMap((arg, index) =>
    arg.objectId === undefined ? [] : [index],
  );
  if (objectIndexes.length === 0) {
    return {texts, fromPreview: false};
  }
  if (described === undefined) {
    return {texts, fromPreview: true};
  }
  objectIndexes.forEach((index, position) => {
    const value = described[position];
    if (value) {
      texts[index] =
        'chain' in value ? errorChainLines(value.chain).join('\n') : oneLine(value.text);
    }
  });
  return {texts, fromPreview: false};
}

function stackSection(lines: readonly string[]): string[] {
  if (lines.length === 0) {
    return [];
  }
  return ['### Stack trace', ...capStackLines(lines), STACK_NOTE];
}

function headerLines(entry: ApiMessageEntry | ExceptionEntry): string[] {
  return [`ID: ${entry.id}`, `Message: ${entry.type}> ${oneLine(entry.text())}`];
}

export function issueDetailText(entry: IssueEntry): string {
  const lines = [
    `ID: ${entry.id}`,
    `Message: issue> ${entry.title}`,
    entry.description,
    `Count: ${entry.count}`,
  ];
  if (entry.resources.length > 0) {
    lines.push('### Affected resources', ...entry.resources.map(resource => `data=${resource}`));
    if (entry.count > entry.resources.length) {
      lines.push(`(${entry.count - entry.resources.length} more not shown)`);
    }
  }
  return lines.join('\n');
}

/** A console call's detail; `described`: the page's descriptions of its object arguments. */
export function messageDetailText(
  entry: ApiMessageEntry,
  described: readonly DescribedValue[] | undefined,
): string {
  const lines = headerLines(entry);
  const {texts, fromPreview} = argumentTexts(entry, described);
  if (texts.length > 0) {
    lines.push('### Arguments', ...texts.map((text, index) => `Arg #${index}: ${text}`));
  }
  if (fromPreview) {
    lines.push(
      'Note: object arguments are shown from their previews; their live values are no longer available (the page navigated or is blocked).',
    );
  }
  lines.push(...stackSection(stackTraceLines(entry.stack)));
  return lines.join('\n');
}

/**
 * An exception's detail; `causeChain`: the stack strings of its causes as the page gave them
 * (undefined: it could not, so the first cause comes from the preview).
 */
export function exceptionDetailText(
  entry: ExceptionEntry,
  causeChain: readonly string[] | undefined,
): string {
  const lines = headerLines(entry);
  let frames = stackTraceLines(entry.stack);
  const description = entry.details.exception?.description;
  if (frames.length === 0 && description !== undefined) {
    frames = stackStringFrames(description);
  }
  lines.push(...stackSection([...frames, ...causeLines(entry, causeChain)]));
  return lines.join('\n');
}

function causeLines(entry: ExceptionEntry, causeChain: readonly string[] | undefined): string[] {
  if (causeChain === undefined) {
    const preview = entry.previewCause();
    return preview === undefined ? [] : [`Caused by: ${preview}`];
  }
  return causeChain.flatMap(stack => [
    `Caused by: ${errorHeadline(stack)}`,
    ...stackStringFrames(stack),
  ]);
}
