/**
 * What an attached browser (--browserUrl, or a grid's --wsEndpoint such as browserless) tells us
 * when it fails, in words that point at the flag to fix: a refused handshake names the flag that
 * carries the credentials, a 404 the path, a refused connection the address; the
 * --remote-debugging-port advice is for --browserUrl only. And when the remote end closes the
 * session (grids end sessions after a time limit), the note each client gets with its next call.
 */
import http from 'node:http';
import {cutText} from '../../../shared/boundedValue.js';
import {isRecord} from '../../../shared/values.js';
import type {PageOwner} from '../pages/PageState.js';

export interface AttachFlags {
  browserUrl?: string | undefined;
  wsEndpoint?: string | undefined;
  wsHeaders?: Record<string, string> | undefined;
}

/** What went wrong, as far as the error says. */
type Failure =
  | {kind: 'status'; status: number}
  | {kind: 'refused'}
  | {kind: 'dns'; code: string}
  | {kind: 'other'};

/** Depth of `cause` chains looked into (undici puts the socket error in `cause`). */
const CAUSE_DEPTH = 4;

const STATUS_BY_TEXT = new Map(
  Object.entries(http.STATUS_CODES).map(([code, text]) => [text ?? '', Number(code)]),
);

/** The codes and messages of an error and its causes, bounded. */
function errorChain(error: unknown): {codes: string[]; messages: string[]} {
  const codes: string[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < CAUSE_DEPTH && isRecord(current); depth++) {
    if (typeof current.code === 'string') {
      codes.push(current.code);
    }
    if (typeof current.message === 'string') {
      messages.push(current.message);
    }
    current = current.cause;
  }
  return {codes, messages};
}

export function classifyAttachError(error: unknown): Failure {
  const {codes, messages} = errorChain(error);
  for (const message of messages) {
    // The WebSocket handshake (ws): "Unexpected server response: 401".
    const handshake = /Unexpected server response: (\d{3})/.exec(message);
    if (handshake) {
      return {kind: 'status', status: Number(handshake[1])};
    }
    // --browserUrl's /json/version fetch (puppeteer): "...: HTTP Not Found" (the status text).
    const fetched = /: HTTP ([A-Za-z' -]{2,40})$/.exec(message.split('\n')[0] ?? '');
    const status = fetched ? STATUS_BY_TEXT.get(fetched[1] ?? '') : undefined;
    if (status !== undefined) {
      return {kind: 'status', status};
    }
  }
  const all = [...codes, ...messages].join(' ');
  if (all.includes('ECONNREFUSED')) {
    return {kind: 'refused'};
  }
  const dns = /\b(ENOTFOUND|EAI_AGAIN)\b/.exec(all);
  if (dns) {
    return {kind: 'dns', code: dns[1] ?? 'ENOTFOUND'};
  }
  return {kind: 'other'};
}

const CHROME_ADVICE =
  'Start Chrome with --remote-debugging-port=9222 --user-data-dir=<a non-default profile> and check the address.';
const HEADERS_EXAMPLE = `--wsHeaders '{"Authorization":"Bearer <token>"}'`;

function parsed(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** Where the credentials travel, and what to do about a refusal. */
function credentialsAdvice(flags: AttachFlags): string {
  const headers = Object.keys(flags.wsHeaders ?? {});
  if (headers.length > 0) {
    return `They are sent from --wsHeaders (${headers.slice(0, 5).join(', ')}): check the token there, e.g. ${HEADERS_EXAMPLE}.`;
  }
  const url = parsed(flags.wsEndpoint ?? flags.browserUrl ?? '');
  if (url && (url.search !== '' || url.username !== '' || url.password !== '')) {
    const flag = flags.wsEndpoint === undefined ? '--browserUrl' : '--wsEndpoint';
    return `They are sent in the ${flag} URL (its query or user:password): check the token there, or pass it with ${HEADERS_EXAMPLE}.`;
  }
  return `No credentials were sent: pass them with ${HEADERS_EXAMPLE}, or in the --wsEndpoint URL (browserless: ?token=<token>).`;
}

function statusAdvice(status: number, flags: AttachFlags): string {
  const label = `HTTP ${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
  const viaBrowserUrl = flags.wsEndpoint === undefined;
  if (status === 401 || status === 403) {
    if (viaBrowserUrl) {
      return `the endpoint refused the request for /json/version (${label}); --browserUrl sends no credentials there. For an endpoint that needs them, attach with --wsEndpoint and ${HEADERS_EXAMPLE}.`;
    }
    return `the endpoint refused the credentials (${label}). ${credentialsAdvice(flags)}`;
  }
  if (status === 404) {
    if (viaBrowserUrl) {
      return `nothing answers at /json/version there (${label}), so it is not a Chrome DevTools HTTP endpoint. ${CHROME_ADVICE} For a grid's ws:// address use --wsEndpoint.`;
    }
    const path = parsed(flags.wsEndpoint ?? '')?.pathname ?? '/';
    return `nothing answers at the path ${cutText(path, 200)} (${label}). Check the path in --wsEndpoint: Chrome serves /devtools/browser/<id> (its current id is at http://HOST:PORT/json/version; --browserUrl http://HOST:PORT looks it up for you); a grid serves the path its documentation gives.`;
  }
  if (status === 429 || status === 503) {
    return `the endpoint is busy (${label}): a grid answers so when all its sessions are in use and its queue is full. Retry later, or raise the grid's limits (README: "Remote browsers and grids").`;
  }
  return `the endpoint answered ${label} instead of opening a DevTools WebSocket. Check ${viaBrowserUrl ? '--browserUrl' : '--wsEndpoint'} and the endpoint's own log.`;
}

/**
 * Why attaching failed and what to do, after "Could not connect to the browser at <endpoint>: ".
 * `detail` is the error's first line, already without secrets.
 */
export function attachFailureAdvice(error: unknown, flags: AttachFlags, detail: string): string {
  const failure = classifyAttachError(error);
  const viaBrowserUrl = flags.wsEndpoint === undefined;
  const url = parsed(flags.wsEndpoint ?? flags.browserUrl ?? '');
  const address = url ? url.host : 'the address';
  switch (failure.kind) {
    case 'status':
      return statusAdvice(failure.status, flags);
    case 'refused':
      return viaBrowserUrl
        ? `nothing accepts connections at ${address} (connection refused). ${CHROME_ADVICE}`
        : `nothing accepts connections at ${address} (connection refused). Check the address in --wsEndpoint and that the browser or grid there is running.`;
    case 'dns':
      return `the host ${url?.hostname ?? ''} was not found (${failure.code}). Check the address in ${viaBrowserUrl ? '--browserUrl' : '--wsEndpoint'}.`;
    case 'other':
      return viaBrowserUrl
        ? `${detail}. ${CHROME_ADVICE}`
        : `${detail}. Check --wsEndpoint (and --wsHeaders) and that the browser or grid there is running.`;
  }
}

/** A page open when the remote session ended: what its client is told. */
export interface LostPage {
  id: number;
  url: string;
  owner: PageOwner | undefined;
}

/** Lost pages named in a note, and characters of each URL. */
const LOST_PAGES_SHOWN = 10;
const LOST_URL_CHARS = 300;

/**
 * The one-time note for a client whose remote browser session ended since its last call: who ended
 * it, the pages it could see that were lost (with their last URLs), and that a new session began.
 */
function remoteSessionEndedNote(endpoint: string, lost: readonly LostPage[]): string {
  const shown = lost
    .slice(0, LOST_PAGES_SHOWN)
    .map(page => `${page.id} (${cutText(page.url, LOST_URL_CHARS)})`);
  const more = lost.length > LOST_PAGES_SHOWN ? ` and ${lost.length - LOST_PAGES_SHOWN} more` : '';
  const pages =
    lost.length === 0
      ? 'None of your pages was open then.'
      : `Its open pages were lost: ${shown.join(', ')}${more}.`;
  return `Note: the remote browser at ${endpoint} ended the session since your last call (a grid ends sessions after its time limit, e.g. browserless after 30 s by default; README: "Remote browsers and grids" says how to raise it). ${pages} Reconnected to a new session: page ids have changed. Call list_pages to see open pages.`;
}

/** Remote sessions that ended, remembered for the clients' notes (the latest few generations). */
const ENDED_SESSIONS_KEPT = 4;

/** The remote sessions that ended, each with the pages open then. */
export class EndedSessions {
  readonly #ended = new Map<number, {endpoint: string; lost: LostPage[]}>();

  /** Session `generation` ended with these pages open; returns the lines for the log and status. */
  ended(
    generation: number,
    pages: readonly LostPage[],
    endpoint: string | undefined,
  ): {log: string; note: string} {
    const lost = pages.map(page => ({id: page.id, url: page.url, owner: page.owner}));
    const shown = endpoint ?? 'the remote endpoint';
    this.#ended.set(generation, {endpoint: shown, lost});
    for (const old of this.#ended.keys()) {
      if (this.#ended.size > ENDED_SESSIONS_KEPT) {
        this.#ended.delete(old);
      }
    }
    const what = `The remote browser at ${shown} ended the session (${lost.length} open page${lost.length === 1 ? '' : 's'} lost)`;
    return {
      log: `${what}; the next tool call connects again.`,
      note: `${what}. The next tool call connects again.`,
    };
  }

  /** The note for a client that last saw session `generation`, if that session was ended remotely. */
  noteFor(generation: number, sees: (page: LostPage) => boolean): string | undefined {
    const ended = this.#ended.get(generation);
    return ended && remoteSessionEndedNote(ended.endpoint, ended.lost.filter(sees));
  }
}
