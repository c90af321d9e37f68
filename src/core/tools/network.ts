/**
 * Tool family: network. list_network_requests renders from the collector alone; get_network_request
 * reads bodies from the browser once (bounded in time), inline up to 10,000 characters or into a
 * file, and hides sensitive header values with --redactNetworkHeaders.
 */
import type {HTTPRequest} from 'puppeteer-core';
import {z} from 'zod';
import {networkCollectorFeature} from '../browser/collectors/index.js';
import type {NetworkCollector, NetworkEntry} from '../browser/collectors/NetworkCollector.js';
import {abortable, withTimeout} from '../browser/lock.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {FileAccess} from '../files/FileAccess.js';
import {paginate, pagingParams} from './base/pagination.js';
import {NETWORK_LIST_OUTPUT} from './base/outputSchemas.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {definePageTool} from './base/definition.js';
import {LastListing} from './base/lastListing.js';
import {
  networkListStructured,
  networkListText,
  requestDetailText,
  type BodyOutcome,
  type NetworkListing,
} from './formatters/network.js';

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

/** Longest wait for a body the browser already has. */
const BODY_TIMEOUT_MS = 10_000;

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
    () =>
      networkListText(
        selectRequests(collector, options),
        page.url,
        collector.log.dropped(options.includePreservedRequests ?? false),
      ),
  );
}

/** The requests a listing shows: filtered by type, and the page of them asked for. */
function selectRequests(collector: NetworkCollector, options: NetworkListOptions): NetworkListing {
  let entries = collector.entries(options.includePreservedRequests ?? false);
  const types = options.resourceTypes;
  if (types && types.length > 0) {
    const wanted = new Set(types);
    entries = entries.filter(entry => wanted.has(entry.request.resourceType()));
  }
  return {entries, shown: paginate(entries, options)};
}

// Details --------------------------------------------------------------------------------------

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

/** The request's body, inline or saved to requestFilePath; undefined when it has none. */
async function requestBody(
  request: HTTPRequest,
  options: DetailOptions,
): Promise<BodyOutcome | undefined> {
  if (!request.hasPostData()) {
    return undefined;
  }
  // The copy puppeteer kept from the request event survives navigations; fetching may not.
  const data =
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the sync copy is the one that survives
    request.postData() ??
    (await bounded(request.fetchPostData(), options.signal).catch(() => undefined));
  if (data === undefined) {
    return {kind: 'unavailable'};
  }
  if (options.requestFilePath !== undefined) {
    return {kind: 'saved', path: await options.files.writeFile(options.requestFilePath, data)};
  }
  return {kind: 'inline', data: Buffer.from(data, 'utf8')};
}

/** The response's body, inline or saved to responseFilePath; undefined when there is no response. */
async function responseBody(
  entry: NetworkEntry,
  options: DetailOptions,
): Promise<BodyOutcome | undefined> {
  const response = entry.request.response();
  if (!response) {
    return undefined;
  }
  const status = response.status();
  if (status >= 300 && status < 400 && response.headers().location !== undefined) {
    return {kind: 'redirect'};
  }
  if (!entry.settled) {
    return {kind: 'pending'};
  }
  let data: Uint8Array | undefined;
  try {
    data = await bounded(response.buffer(), options.signal);
  } catch {
    options.signal.throwIfAborted();
  }
  if (data === undefined) {
    return {kind: 'unavailable'};
  }
  if (options.responseFilePath !== undefined) {
    return {kind: 'saved', path: await options.files.writeFile(options.responseFilePath, data)};
  }
  return {kind: 'inline', data};
}

async function networkRequestDetail(
  entry: NetworkEntry,
  collector: NetworkCollector,
  options: DetailOptions,
): Promise<string> {
  const request = await requestBody(entry.request, options);
  const response = await responseBody(entry, options);
  return requestDetailText(entry, collector, {
    redact: options.redact,
    requestBody: request,
    responseBody: response,
  });
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
      Object.assign(
        response.structured,
        networkListStructured(selectRequests(networkCollectorFeature.get(page), params)),
      );
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
