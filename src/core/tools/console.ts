/**
 * Tool family: console. list_console_messages renders from the collector alone (no browser round
 * trip, whatever the count); get_console_message fetches argument values and cause chains from the
 * page once, bounded in time.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {
  ApiMessageEntry,
  ExceptionEntry,
  MAX_MESSAGES_PER_NAVIGATION,
  type ConsoleCollector,
  type ConsoleEntry,
  type IssueEntry,
} from '../browser/collectors/ConsoleCollector.js';
import {
  STACK_NOTE,
  capStackLines,
  errorHeadline,
  formatRemoteObject,
  stackStringFrames,
  stackTraceLines,
} from '../browser/collectors/consoleFormat.js';
import {consoleCollectorFeature} from '../browser/collectors/index.js';
import {inPage} from '../browser/evaluation.js';
import type {PageState} from '../browser/pages/PageState.js';
import {paginate, paginationLines, pagingParams, type Paginated} from './base/pagination.js';
import {CONSOLE_LIST_OUTPUT} from './base/outputSchemas.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {definePageTool} from './base/definition.js';
import {LastListing} from './base/lastListing.js';
import {
  inlineText,
  renderWorkerConsole,
  structuredWorkerMessages,
  type ConsoleListOptions,
} from './workerConsole.js';
import {oneLine} from '../../shared/inertText.js';

const MESSAGE_TYPES = [
  'log',
  'debug',
  'info',
  'error',
  'warn',
  'dir',
  'dirxml',
  'table',
  'trace',
  'clear',
  'startGroup',
  'startGroupCollapsed',
  'endGroup',
  'assert',
  'profile',
  'profileEnd',
  'count',
  'timeEnd',
  'verbose',
  'issue',
] as const;

/** List lines stay one line each and bounded; get_console_message shows the full text. */
/** Longest wait for the page to describe argument values. */
const DETAIL_TIMEOUT_MS = 5_000;
const STACK_LIST_NOTE = 'Note: stack trace line and column numbers use 1-based indexing';

interface GroupedEntry {
  entry: ConsoleEntry;
  count: number;
}

/** Consecutive identical messages (type, text, argument count) collapse into one line with a count. */
function groupConsecutive(entries: readonly ConsoleEntry[]): GroupedEntry[] {
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

const lastListing = new LastListing<ConsoleCollector>();

function renderConsoleList(page: PageState, options: ConsoleListOptions): string {
  const collector = consoleCollectorFeature.get(page);
  return lastListing.text(
    collector,
    [
      collector.log.version,
      options.pageSize,
      options.pageIdx,
      options.types,
      options.includePreservedMessages,
      options.includeStackTraces,
    ],
    () => renderConsoleListNow(collector, options),
  );
}

/** The messages a listing shows: filtered, grouped, and the page of them asked for. */
function selectMessages(
  collector: ConsoleCollector,
  options: ConsoleListOptions,
): {grouped: GroupedEntry[]; shown: Paginated<GroupedEntry>} {
  let entries = collector.entries(options.includePreservedMessages ?? false);
  const types = options.types;
  if (types && types.length > 0) {
    const wanted = new Set(types);
    entries = entries.filter(entry => wanted.has(entry.type));
  }
  const grouped = groupConsecutive(entries);
  return {grouped, shown: paginate(grouped, options)};
}

/** The structured form of a listing (outputSchema CONSOLE_LIST_OUTPUT). */
function structuredMessages(page: PageState, options: ConsoleListOptions): Record<string, unknown> {
  const {grouped, shown} = selectMessages(consoleCollectorFeature.get(page), options);
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

function renderConsoleListNow(collector: ConsoleCollector, options: ConsoleListOptions): string {
  const includePreserved = options.includePreservedMessages ?? false;
  const {grouped, shown} = selectMessages(collector, options);
  const out = ['## Console messages'];
  if (grouped.length === 0) {
    out.push('<no console messages found>');
  } else {
    out.push(...paginationLines(shown, grouped.length));
    const includeStack = options.includeStackTraces ?? false;
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
  const dropped = collector.log.dropped(includePreserved);
  if (dropped > 0) {
    out.push(
      `Note: ${dropped} older messages were dropped (at most ${MAX_MESSAGES_PER_NAVIGATION} are kept per navigation).`,
    );
  }
  return out.join('\n');
}

// Details --------------------------------------------------------------------------------------

/**
 * Runs in the page over the argument objects: errors as their stack strings along the cause chain,
 * DOM nodes as markup, everything else as JSON (cycles and bigints handled). Bounded output.
 */
const DESCRIBE_VALUES = `function (...values) {
  const LIMIT = 10000;
  const cap = text => (text.length > LIMIT ? text.slice(0, LIMIT) + '... <truncated>' : text);
  const json = value => {
    const seen = new WeakSet();
    try {
      const text = JSON.stringify(value, (key, item) => {
        if (typeof item === 'bigint') return item.toString() + 'n';
        if (typeof item === 'function') return 'ƒ ' + (item.name || 'anonymous');
        if (typeof item === 'symbol') return item.toString();
        if (item instanceof Map) return {['Map(' + item.size + ')']: Array.from(item.entries())};
        if (item instanceof Set) return {['Set(' + item.size + ')']: Array.from(item.values())};
        if (typeof Node === 'function' && item instanceof Node) return item.nodeName;
        if (item !== null && typeof item === 'object') {
          if (seen.has(item)) return '[Circular]';
          seen.add(item);
        }
        return item;
      });
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const chainOf = error => {
    const chain = [];
    const seen = new Set();
    let current = error;
    while (current !== undefined && current !== null && !seen.has(current) && chain.length < 20) {
      seen.add(current);
      chain.push(current instanceof Error ? String(current.stack || current) : (typeof current === 'object' ? json(current) : String(current)));
      current = typeof current === 'object' || typeof current === 'function' ? current.cause : undefined;
    }
    return chain.map(cap);
  };
  return values.map(value => {
    if (value instanceof Error) return {chain: chainOf(value)};
    if (typeof Node === 'function' && value instanceof Node) {
      return {text: cap(value.outerHTML ?? value.nodeValue ?? value.nodeName)};
    }
    if (typeof value === 'function') return {text: cap(String(value))};
    return {text: cap(json(value))};
  });
}`;

/** Runs on an exception object: the stack strings of its causes (not of itself). */
const CAUSE_CHAIN = `function () {
  const chain = [];
  const seen = new Set([this]);
  let current = this.cause;
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < 20) {
    seen.add(current);
    let text;
    if (current instanceof Error) {
      text = String(current.stack || current);
    } else {
      try { text = typeof current === 'object' ? JSON.stringify(current) : String(current); } catch (error) { text = String(current); }
    }
    chain.push(text.length > 10000 ? text.slice(0, 10000) + '... <truncated>' : text);
    current = typeof current === 'object' || typeof current === 'function' ? current.cause : undefined;
  }
  return chain;
}`;

const describedSchema = z.array(
  z.union([z.object({chain: z.array(z.string())}), z.object({text: z.string()})]),
);

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

interface PageCallOptions {
  page: PageState;
  signal: AbortSignal;
}

async function callInPage(
  client: CDPSession,
  params: Protocol.Runtime.CallFunctionOnRequest,
  {page, signal}: PageCallOptions,
): Promise<unknown> {
  const result = await inPage(
    page,
    () => client.send('Runtime.callFunctionOn', {...params, returnByValue: true}),
    {timeoutMs: DETAIL_TIMEOUT_MS, signal, cdp: client, what: 'The page'},
  );
  if (result.exceptionDetails) {
    throw new Error(result.exceptionDetails.text);
  }
  const value: unknown = result.result.value;
  return value;
}

/** Argument texts; objects are described by the page, falling back to their previews. */
async function argumentTexts(
  entry: ApiMessageEntry,
  options: PageCallOptions,
): Promise<{texts: string[]; fromPreview: boolean}> {
  const texts = entry.args.map(arg => oneLine(formatRemoteObject(arg)));
  const objects = entry.args.flatMap((arg, index) =>
    arg.objectId === undefined ? [] : [{index, objectId: arg.objectId}],
  );
  const first = objects[0];
  if (!first) {
    return {texts, fromPreview: false};
  }
  if (!entry.client || options.page.dialog) {
    return {texts, fromPreview: true};
  }
  try {
    const described = describedSchema.parse(
      await callInPage(
        entry.client,
        {
          functionDeclaration: DESCRIBE_VALUES,
          objectId: first.objectId,
          arguments: objects.map(object => ({objectId: object.objectId})),
        },
        options,
      ),
    );
    objects.forEach((object, position) => {
      const value = described[position];
      if (value) {
        texts[object.index] =
          'chain' in value ? errorChainLines(value.chain).join('\n') : oneLine(value.text);
      }
    });
    return {texts, fromPreview: false};
  } catch {
    return {texts, fromPreview: true};
  }
}

async function causeChain(entry: ExceptionEntry, options: PageCallOptions): Promise<string[]> {
  const objectId = entry.details.exception?.objectId;
  const preview = entry.previewCause();
  const fallback = preview === undefined ? [] : [`Caused by: ${preview}`];
  if (objectId === undefined || !entry.client || options.page.dialog) {
    return fallback;
  }
  try {
    const chain = z
      .array(z.string())
      .parse(await callInPage(entry.client, {functionDeclaration: CAUSE_CHAIN, objectId}, options));
    return chain.flatMap(stack => [
      `Caused by: ${errorHeadline(stack)}`,
      ...stackStringFrames(stack),
    ]);
  } catch {
    return fallback;
  }
}

function stackSection(lines: readonly string[]): string[] {
  if (lines.length === 0) {
    return [];
  }
  return ['### Stack trace', ...capStackLines(lines), STACK_NOTE];
}

function issueDetail(entry: IssueEntry): string {
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

async function consoleMessageDetail(
  entry: ConsoleEntry,
  options: PageCallOptions,
): Promise<string> {
  if (entry.kind === 'issue') {
    return issueDetail(entry);
  }
  const lines = [`ID: ${entry.id}`, `Message: ${entry.type}> ${oneLine(entry.text())}`];
  if (entry instanceof ApiMessageEntry) {
    const {texts, fromPreview} = await argumentTexts(entry, options);
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
  let frames = stackTraceLines(entry.stack);
  const description = entry.details.exception?.description;
  if (frames.length === 0 && description !== undefined) {
    frames = stackStringFrames(description);
  }
  lines.push(...stackSection([...frames, ...(await causeChain(entry, options))]));
  return lines.join('\n');
}

// Tools ----------------------------------------------------------------------------------------

const listConsoleMessages = definePageTool({
  name: 'list_console_messages',
  description:
    'List console messages of the page since its last navigation: console calls, uncaught errors and DevTools issues.',
  category: 'debugging',
  readOnly: true,
  outputSchema: CONSOLE_LIST_OUTPUT,
  schema: {
    ...pagingParams('messages'),
    types: z
      .array(z.enum(MESSAGE_TYPES))
      .optional()
      .describe('Only messages of these types. When omitted or empty, returns all messages.'),
    includePreservedMessages: z
      .boolean()
      .default(false)
      .optional()
      .describe('Set to true to return the preserved messages over the last 3 navigations.'),
    includeStackTraces: z
      .boolean()
      .default(false)
      .optional()
      .describe('Include each message stack trace when available. Increases the response size.'),
    serviceWorkerId: z
      .string()
      .optional()
      .describe('Only messages of this extension service worker (needs --categoryExtensions).'),
  },
  handler: ({page, params, browser}, response) => {
    if (params.serviceWorkerId !== undefined) {
      const problem = browser.extensionSupportProblem();
      const messages = problem
        ? undefined
        : browser.extensionWorkers.consoleOf(browser.chromium, params.serviceWorkerId);
      if (messages === undefined) {
        return Promise.reject(
          new Error(
            problem ??
              `No extension service worker ${params.serviceWorkerId}. Call list_pages (with the Extensions category on) to see the worker ids, or omit serviceWorkerId for the page messages.`,
          ),
        );
      }
      const text = renderWorkerConsole(messages, params);
      Object.assign(response.structured, structuredWorkerMessages(messages, params));
      response.addSection(SECTION_ORDER.consoleList, () => text);
      return Promise.resolve();
    }
    response.addSection(SECTION_ORDER.consoleList, () => {
      // At render time, like the text, so both show the same messages.
      Object.assign(response.structured, structuredMessages(page, params));
      return renderConsoleList(page, params);
    });
    return Promise.resolve();
  },
});

const getConsoleMessage = definePageTool({
  name: 'get_console_message',
  description:
    'Get one console message by msgid (from list_console_messages): arguments, stack trace, cause chain.',
  category: 'debugging',
  readOnly: true,
  schema: {
    msgid: z
      .number()
      .describe('The msgid of a console message on the page from the listed console messages'),
  },
  handler: async ({page, params, signal}, response) => {
    const entry = consoleCollectorFeature.get(page).find(params.msgid);
    if (!entry) {
      throw new Error(
        `No console message with msgid ${params.msgid} on page ${page.id}. Messages are kept for the current and last 3 navigations; call list_console_messages to see the msgids.`,
      );
    }
    const detail = await consoleMessageDetail(entry, {page, signal});
    response.addSection(SECTION_ORDER.detail, () => detail);
  },
});

export const consoleTools = [listConsoleMessages, getConsoleMessage];
