/**
 * Tool family: network. list_network_requests renders from the collector alone; get_network_request
 * reads bodies from the browser once (bounded in time), inline up to 10,000 characters or into a
 * file, and hides sensitive header values with --redactNetworkHeaders.
 */
import {isUtf8} from 'node:buffer';
import type {HTTPRequest} from 'puppeteer-core';
import {z} from 'zod';
import {networkCollectorFeature} from '../browser/collectors/index.js';
import {
  MAX_REQUESTS_PER_NAVIGATION,
  requestStatus,
  type NetworkCollector,
  type NetworkEntry,
} from '../browser/collectors/NetworkCollector.js';
import {abortable, withTimeout} from '../browser/lock.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {FileAccess} from '../files/FileAccess.js';
import {paginate, paginationLines, pagingParams, type Paginated} from './base/pagination.js';
import {NETWORK_LIST_OUTPUT} from './base/outputSchemas.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {definePageTool} from './base/definition.js';
import {LastListing} from './base/lastListing.js';
import {oneLine} from '../../shared/inertText.js';

const RESOURCE_TYPES = [
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'texttrack',
  'xhr',
  'fetch',
  'prefetch',
  'eventsource',
  'websocket',
  'manifest',
  'signedexchange',
  'ping',
  'cspviolationreport',
  'preflight',
  'fedcm',
  'other',
] as const;

const BODY_INLINE_LIMIT = 10_000;
const URL_LIST_LIMIT = 255;
/** Longest wait for a body the browser already has. */
const BODY_TIMEOUT_MS = 10_000;

function capped(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}... <truncated>` : text;
}

function requestLine(
  id: number | undefined,
  request: HTTPRequest,
  status: string,
  pageOrigin?: string,
): string {
  const url = request.url();
  // Requests to the page's own origin print as paths: the list header names the origin once.
  const shown =
    pageOrigin !== undefined && url.startsWith(`${pageOrigin}/`)
      ? url.slice(pageOrigin.length)
      : url;
  return `reqid=${id ?? '?'} ${oneLine(request.method())} ${oneLine(capped(shown, URL_LIST_LIMIT))} [${oneLine(status)}]`;
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

interface NetworkListOptions {
  pageSize?: number | undefined;
  pageIdx?: number | undefined;
  resourceTypes?: readonly string[] | undefined;
  includePreservedRequests?: boolean | undefined;
}

const lastListing = new LastListing<NetworkCollector>();

function renderNetworkList(page: PageState, options: NetworkListOptions): string {
  const collector = networkCollectorFeature.get(page);
  return lastListing.text(
    collector,
    [
      collector.log.version,
      page.url,
      options.pageSize,
      options.pageIdx,
      options.resourceTypes,
      options.includePreservedRequests,
    ],
    () => renderNetworkListNow(page, collector, options),
  );
}

/** The requests a listing shows: filtered by type, and the page of them asked for. */
function selectRequests(
  collector: NetworkCollector,
  options: NetworkListOptions,
): {entries: readonly NetworkEntry[]; shown: Paginated<NetworkEntry>} {
  let entries = collector.entries(options.includePreservedRequests ?? false);
  const types = options.resourceTypes;
  if (types && types.length > 0) {
    const wanted = new Set(types);
    entries = entries.filter(entry => wanted.has(entry.request.resourceType()));
  }
  return {entries, shown: paginate(entries, options)};
}

/** The structured form of a listing (outputSchema NETWORK_LIST_OUTPUT): full URLs. */
function structuredRequests(page: PageState, options: NetworkListOptions): Record<string, unknown> {
  const {entries, shown} = selectRequests(networkCollectorFeature.get(page), options);
  return {
    total: entries.length,
    requests: shown.items.map(entry => ({
      reqid: entry.id,
      method: entry.request.method(),
      url: capped(entry.request.url(), URL_LIST_LIMIT),
      status: entry.status(),
    })),
  };
}

function renderNetworkListNow(
  page: PageState,
  collector: NetworkCollector,
  options: NetworkListOptions,
): string {
  const includePreserved = options.includePreservedRequests ?? false;
  const {entries, shown} = selectRequests(collector, options);
  const out = ['## Network requests'];
  if (entries.length === 0) {
    out.push('No requests found.');
  } else {
    out.push(...paginationLines(shown, entries.length));
    const pageOrigin = originOf(page.url);
    if (
      pageOrigin !== undefined &&
      shown.items.some(entry => entry.request.url().startsWith(`${pageOrigin}/`))
    ) {
      out.push(`Paths below without an origin are on ${pageOrigin}.`);
    }
    for (const entry of shown.items) {
      out.push(requestLine(entry.id, entry.request, entry.status(), pageOrigin));
    }
  }
  const dropped = collector.log.dropped(includePreserved);
  if (dropped > 0) {
    out.push(
      `Note: ${dropped} older requests were dropped (at most ${MAX_REQUESTS_PER_NAVIGATION} are kept per navigation).`,
    );
  }
  return out.join('\n');
}

// Details --------------------------------------------------------------------------------------

/** Header names whose values are safe to show with --redactNetworkHeaders (all others are hidden). */
const NON_SENSITIVE_HEADERS = new Set([
  ':authority',
  ':method',
  ':path',
  ':scheme',
  ':status',
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'accept-patch',
  'accept-ranges',
  'access-control-allow-credentials',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-max-age',
  'access-control-request-headers',
  'access-control-request-method',
  'age',
  'allow',
  'alt-svc',
  'cache-control',
  'connection',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-length',
  'content-location',
  'content-range',
  'content-security-policy',
  'content-type',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'date',
  'dnt',
  'etag',
  'expect',
  'expires',
  'host',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'keep-alive',
  'last-modified',
  'link',
  'location',
  'origin',
  'permissions-policy',
  'pragma',
  'priority',
  'range',
  'referer',
  'referrer-policy',
  'retry-after',
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
  'sec-fetch-dest',
  'sec-fetch-mode',
  'sec-fetch-site',
  'sec-fetch-user',
  'server',
  'server-timing',
  'status',
  'strict-transport-security',
  'timing-allow-origin',
  'transfer-encoding',
  'upgrade-insecure-requests',
  'user-agent',
  'vary',
  'via',
  'x-content-type-options',
  'x-frame-options',
  'x-powered-by',
  'x-request-id',
  'x-requested-with',
  'x-xss-protection',
]);

function headerLines(headers: Record<string, string>, redact: boolean): string[] {
  return Object.entries(headers).map(([name, value]) => {
    const shown =
      redact && !NON_SENSITIVE_HEADERS.has(name.toLowerCase().trim()) ? '<redacted>' : value;
    return `- ${oneLine(name)}:${oneLine(shown)}`;
  });
}

/**
 * A body is the page's document, not a line: it keeps its lines, inside a fence longer than any
 * run of backticks in it, so no line of it can pass for a line of the reply or close the fence.
 */
function fenced(text: string): string {
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) {
    longest = Math.max(longest, run[0].length);
  }
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** Body bytes as inline text: UTF-8 up to the limit (fenced), otherwise a marker. */
function inlineBody(data: Uint8Array): string {
  if (data.length === 0) {
    return '<empty response>';
  }
  if (!isUtf8(data)) {
    return `<binary data, ${data.length} bytes>`;
  }
  const text = Buffer.from(data).toString('utf8');
  if (text.length <= BODY_INLINE_LIMIT) {
    return fenced(text);
  }
  return `${fenced(text.slice(0, BODY_INLINE_LIMIT))}\n... <truncated: ${text.length} characters in total; pass requestFilePath or responseFilePath to save the whole body>`;
}

interface DetailOptions {
  requestFilePath?: string | undefined;
  responseFilePath?: string | undefined;
  redact: boolean;
  files: FileAccess;
  signal: AbortSignal;
}

function bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return abortable(
    withTimeout(work, BODY_TIMEOUT_MS, 'The browser did not return the body in time.'),
    signal,
  );
}

async function requestBodyLines(request: HTTPRequest, options: DetailOptions): Promise<string[]> {
  if (!request.hasPostData()) {
    return [];
  }
  // The copy puppeteer kept from the request event survives navigations; fetching may not.
  const data =
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the sync copy is the one that survives
    request.postData() ??
    (await bounded(request.fetchPostData(), options.signal).catch(() => undefined));
  if (data === undefined) {
    return ['### Request Body', '<Request body not available anymore>'];
  }
  if (options.requestFilePath !== undefined) {
    const saved = await options.files.writeFile(options.requestFilePath, data);
    return ['### Request Body', `Saved to ${saved}.`];
  }
  return ['### Request Body', inlineBody(Buffer.from(data, 'utf8'))];
}

async function responseBodyLines(entry: NetworkEntry, options: DetailOptions): Promise<string[]> {
  const response = entry.request.response();
  if (!response) {
    return [];
  }
  const status = response.status();
  if (status >= 300 && status < 400 && response.headers().location !== undefined) {
    return ['### Response Body', '<no body: redirect response>'];
  }
  if (!entry.settled) {
    return [
      '### Response Body',
      '<pending: the body is still loading. Call get_network_request again once the request has finished.>',
    ];
  }
  let data: Uint8Array | undefined;
  try {
    data = await bounded(response.buffer(), options.signal);
  } catch {
    options.signal.throwIfAborted();
  }
  if (data === undefined) {
    return ['### Response Body', '<Response body not available anymore>'];
  }
  if (options.responseFilePath !== undefined) {
    const saved = await options.files.writeFile(options.responseFilePath, data);
    return ['### Response Body', `Saved to ${saved}.`];
  }
  return ['### Response Body', inlineBody(data)];
}

/** Chronological hops that led to this request, indented one step per hop. */
function redirectLines(request: HTTPRequest, collector: NetworkCollector): string[] {
  const chain = request.redirectChain();
  if (chain.length === 0) {
    return [];
  }
  return [
    '### Redirect chain',
    ...chain.map(
      (hop, index) =>
        `${'  '.repeat(index)}${requestLine(collector.idOf(hop), hop, requestStatus(hop))}`,
    ),
  ];
}

async function networkRequestDetail(
  entry: NetworkEntry,
  collector: NetworkCollector,
  options: DetailOptions,
): Promise<string> {
  const request = entry.request;
  const response = request.response();
  const lines = [
    `## Request ${oneLine(request.url())}`,
    `Status: ${oneLine(entry.status())}`,
    '### Request Headers',
    ...headerLines(request.headers(), options.redact),
    ...(await requestBodyLines(request, options)),
  ];
  if (response) {
    lines.push('### Response Headers', ...headerLines(response.headers(), options.redact));
  }
  lines.push(...(await responseBodyLines(entry, options)));
  const failure = request.failure();
  if (failure) {
    lines.push('### Request failed with', oneLine(failure.errorText));
  }
  lines.push(...redirectLines(request, collector));
  return lines.join('\n');
}

// Tools ----------------------------------------------------------------------------------------

const listNetworkRequests = definePageTool({
  name: 'list_network_requests',
  description: 'List the requests of the page since its last navigation (newest last).',
  category: 'network',
  readOnly: true,
  outputSchema: NETWORK_LIST_OUTPUT,
  schema: {
    ...pagingParams('requests'),
    resourceTypes: z
      .array(z.enum(RESOURCE_TYPES))
      .optional()
      .describe(
        'Only requests of these resource types. When omitted or empty, returns all requests.',
      ),
    includePreservedRequests: z
      .boolean()
      .default(false)
      .optional()
      .describe('Set to true to return the preserved requests over the last 3 navigations.'),
  },
  handler: ({page, params}, response) => {
    response.addSection(SECTION_ORDER.networkList, () => {
      // At render time, like the text, so both show the same requests.
      Object.assign(response.structured, structuredRequests(page, params));
      return renderNetworkList(page, params);
    });
    return Promise.resolve();
  },
});

const getNetworkRequest = definePageTool({
  name: 'get_network_request',
  description:
    "Get one request by reqid (from list_network_requests): headers (incl. 'Cookie', 'Set-Cookie'), bodies, failure, redirect chain. Bodies over 10,000 characters are truncated unless saved to a file.",
  category: 'network',
  readOnly: false,
  readOnlyWithout: ['requestFilePath', 'responseFilePath'],
  blockedByDialog: true,
  filePaths: [
    {param: 'requestFilePath', scope: 'always'},
    {param: 'responseFilePath', scope: 'always'},
  ],
  schema: {
    reqid: z
      .number()
      .optional()
      .describe('The reqid of the network request, from list_network_requests.'),
    requestFilePath: z
      .string()
      .optional()
      .describe('Save the request body to this file (.network-request) instead of inline.'),
    responseFilePath: z
      .string()
      .optional()
      .describe('Save the response body to this file (.network-response) instead of inline.'),
  },
  handler: async ({page, params, config, files, signal}, response) => {
    if (params.reqid === undefined) {
      response.appendLine(
        'Nothing is currently selected in the DevTools Network panel. Pass a reqid from list_network_requests.',
      );
      return;
    }
    const collector = networkCollectorFeature.get(page);
    const entry = collector.find(params.reqid);
    if (!entry) {
      throw new Error(
        `No request with reqid ${params.reqid} on page ${page.id}. Requests are kept for the current and last 3 navigations; call list_network_requests to see the reqids.`,
      );
    }
    const detail = await networkRequestDetail(entry, collector, {
      requestFilePath: params.requestFilePath,
      responseFilePath: params.responseFilePath,
      redact: config.redactNetworkHeaders,
      files,
      signal,
    });
    response.addSection(SECTION_ORDER.detail, () => detail);
  },
});

export const networkTools = [listNetworkRequests, getNetworkRequest];
