/**
 * Tool family: console. list_console_messages renders from the collector alone (no browser round
 * trip, whatever the count); get_console_message fetches argument values and cause chains from the
 * page once, bounded in time.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {
  ApiMessageEntry,
  type ConsoleCollector,
  type ConsoleEntry,
  type ExceptionEntry,
} from '../browser/collectors/ConsoleCollector.js';
import {consoleCollectorFeature} from '../browser/collectors/index.js';
import {inPage} from '../browser/evaluation.js';
import {CAUSE_CHAIN, DESCRIBE_VALUES} from '../browser/injectedSources.generated.js';
import type {PageState} from '../browser/pages/PageState.js';
import {paginate, pagingParams} from './base/pagination.js';
import {CONSOLE_LIST_OUTPUT} from './base/outputSchemas.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {definePageTool} from './base/definition.js';
import {LastListing} from './base/lastListing.js';
import {
  consoleListStructured,
  consoleListText,
  exceptionDetailText,
  groupConsecutive,
  issueDetailText,
  messageDetailText,
  type ConsoleListing,
  type DescribedValue,
} from './formatters/console.js';
import {
  renderWorkerConsole,
  structuredWorkerMessages,
  type ConsoleListOptions,
} from './workerConsole.js';

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

/** Longest wait for the page to describe argument values. */
const DETAIL_TIMEOUT_MS = 5_000;

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
    () =>
      consoleListText(
        selectMessages(collector, options),
        options.includeStackTraces ?? false,
        collector.log.dropped(options.includePreservedMessages ?? false),
      ),
  );
}

/** The messages a listing shows: filtered, grouped, and the page of them asked for. */
function selectMessages(collector: ConsoleCollector, options: ConsoleListOptions): ConsoleListing {
  let entries = collector.entries(options.includePreservedMessages ?? false);
  const types = options.types;
  if (types && types.length > 0) {
    const wanted = new Set(types);
    entries = entries.filter(entry => wanted.has(entry.type));
  }
  const grouped = groupConsecutive(entries);
  return {grouped, shown: paginate(grouped, options)};
}

// Details --------------------------------------------------------------------------------------

/**
 * What DESCRIBE_VALUES answers for a message's argument objects (it and CAUSE_CHAIN run in the
 * page: src/injected/consoleValues.ts).
 */
const describedSchema = z.array(
  z.union([z.object({chain: z.array(z.string())}), z.object({text: z.string()})]),
);

interface PageCallOptions {
  page: PageState;
  signal: AbortSignal;
}

async function callInPage(
  cdp: CDPSession,
  params: Protocol.Runtime.CallFunctionOnRequest,
  {page, signal}: PageCallOptions,
): Promise<unknown> {
  const result = await inPage(
    page,
    () => cdp.send('Runtime.callFunctionOn', {...params, returnByValue: true}),
    {timeoutMs: DETAIL_TIMEOUT_MS, signal, cdp, what: 'The page'},
  );
  if (result.exceptionDetails) {
    throw new Error(result.exceptionDetails.text);
  }
  const value: unknown = result.result.value;
  return value;
}

/**
 * The page's descriptions of a message's object arguments, in their order; undefined when the
 * page cannot give them (gone, blocked by a dialog, too slow): the previews stand in.
 */
async function describeArguments(
  entry: ApiMessageEntry,
  options: PageCallOptions,
): Promise<DescribedValue[] | undefined> {
  const objectIds = entry.args.flatMap(arg => (arg.objectId === undefined ? [] : [arg.objectId]));
  const first = objectIds[0];
  if (first === undefined) {
    return [];
  }
  if (!entry.cdp || options.page.dialog) {
    return undefined;
  }
  try {
    return describedSchema.parse(
      await callInPage(
        entry.cdp,
        {
          functionDeclaration: DESCRIBE_VALUES,
          objectId: first,
          arguments: objectIds.map(objectId => ({objectId})),
        },
        options,
      ),
    );
  } catch {
    return undefined;
  }
}

/** The stack strings of an exception's causes; undefined when the page cannot give them. */
async function causeChain(
  entry: ExceptionEntry,
  options: PageCallOptions,
): Promise<string[] | undefined> {
  const objectId = entry.details.exception?.objectId;
  if (objectId === undefined || !entry.cdp || options.page.dialog) {
    return undefined;
  }
  try {
    return z
      .array(z.string())
      .parse(await callInPage(entry.cdp, {functionDeclaration: CAUSE_CHAIN, objectId}, options));
  } catch {
    return undefined;
  }
}

async function consoleMessageDetail(
  entry: ConsoleEntry,
  options: PageCallOptions,
): Promise<string> {
  if (entry.kind === 'issue') {
    return issueDetailText(entry);
  }
  if (entry instanceof ApiMessageEntry) {
    return messageDetailText(entry, await describeArguments(entry, options));
  }
  return exceptionDetailText(entry, await causeChain(entry, options));
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
      Object.assign(
        response.structured,
        consoleListStructured(selectMessages(consoleCollectorFeature.get(page), params)),
      );
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
