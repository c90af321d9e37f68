/**
 * Network requests as text for the agent: the list (one bounded line per request, paths on the
 * page's own origin) and one request's detail (headers, optionally redacted; bodies fenced or
 * marked; failure; redirect chain). Pure: the bodies come in as outcomes (tools/network.ts reads
 * them).
 */
import {isUtf8} from 'node:buffer';
import type {HTTPRequest} from 'puppeteer-core';
import {
  MAX_REQUESTS_PER_NAVIGATION,
  requestStatus,
  type NetworkCollector,
  type NetworkEntry,
} from '../../browser/collectors/NetworkCollector.js';
import {paginationLines, type Paginated} from '../base/pagination.js';
import {oneLine} from '../../../shared/inertText.js';

const BODY_INLINE_LIMIT = 10_000;
const URL_LIST_LIMIT = 255;

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

// List -----------------------------------------------------------------------------------------

/** The requests of one listing: all that match, and the page of them shown. */
export interface NetworkListing {
  entries: readonly NetworkEntry[];
  shown: Paginated<NetworkEntry>;
}

/** list_network_requests' text; `dropped`: how many older requests the collector let go. */
export function networkListText(
  {entries, shown}: NetworkListing,
  pageUrl: string,
  dropped: number,
): string {
  const out = ['## Network requests'];
  if (entries.length === 0) {
    out.push('No requests found.');
  } else {
    out.push(...paginationLines(shown, entries.length));
    const pageOrigin = originOf(pageUrl);
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
  if (dropped > 0) {
    out.push(
      `Note: ${dropped} older requests were dropped (at most ${MAX_REQUESTS_PER_NAVIGATION} are kept per navigation).`,
    );
  }
  return out.join('\n');
}

/** The structured form of a listing (outputSchema NETWORK_LIST_OUTPUT): full URLs. */
export function networkListStructured({entries, shown}: NetworkListing): Record<string, unknown> {
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

// Detail ---------------------------------------------------------------------------------------

/** What became of a body asked for: its bytes, the file it went to, or why there are none. */
export type BodyOutcome =
  | {kind: 'inline'; data: Uint8Array}
  | {kind: 'saved'; path: string}
  | {kind: 'unavailable'}
  | {kind: 'redirect'}
  | {kind: 'pending'};

export interface RequestDetailParts {
  redact: boolean;
  /** Undefined: the request has no body (no section). */
  requestBody: BodyOutcome | undefined;
  /** Undefined: no response yet (no section). */
  responseBody: BodyOutcome | undefined;
}

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

function bodyText(which: 'Request' | 'Response', outcome: BodyOutcome): string {
  switch (outcome.kind) {
    case 'inline':
      return inlineBody(outcome.data);
    case 'saved':
      return `Saved to ${outcome.path}.`;
    case 'unavailable':
      return `<${which} body not available anymore>`;
    case 'redirect':
      return '<no body: redirect response>';
    case 'pending':
      return '<pending: the body is still loading. Call get_network_request again once the request has finished.>';
  }
}

function bodySection(which: 'Request' | 'Response', outcome: BodyOutcome | undefined): string[] {
  return outcome === undefined ? [] : [`### ${which} Body`, bodyText(which, outcome)];
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

/** get_network_request's text. */
export function requestDetailText(
  entry: NetworkEntry,
  collector: NetworkCollector,
  {redact, requestBody, responseBody}: RequestDetailParts,
): string {
  const request = entry.request;
  const response = request.response();
  const lines = [
    `## Request ${oneLine(request.url())}`,
    `Status: ${oneLine(entry.status())}`,
    '### Request Headers',
    ...headerLines(request.headers(), redact),
    ...bodySection('Request', requestBody),
  ];
  if (response) {
    lines.push('### Response Headers', ...headerLines(response.headers(), redact));
  }
  lines.push(...bodySection('Response', responseBody));
  const failure = request.failure();
  if (failure) {
    lines.push('### Request failed with', oneLine(failure.errorText));
  }
  lines.push(...redirectLines(request, collector));
  return lines.join('\n');
}
