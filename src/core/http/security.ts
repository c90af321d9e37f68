/**
 * The checks every request passes before anything else runs. They fail closed: a Host that is not
 * ours (DNS rebinding) or a foreign Origin (a web page in the user's browser) gets 403, a missing or
 * wrong token 401.
 */
import type {IncomingMessage} from 'node:http';
import {tokensEqual} from '../config/token.js';

export interface SecurityPolicy {
  /** host:port values this server answers to. */
  allowedHosts: ReadonlySet<string>;
  /** Origins allowed to call /mcp and the inspector socket (our own). */
  allowedOrigins: ReadonlySet<string>;
  token: string;
  /** Finishes "the token …" in replies: where this server's token is ("in <file>"). */
  tokenLocation: string;
}

export function buildPolicy(
  boundHost: string,
  port: number,
  token: {value: string; location: string},
  extraHosts: readonly string[] = [],
): SecurityPolicy {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', ...extraHosts]);
  if (boundHost !== '127.0.0.1' && boundHost !== '::1') {
    names.add(boundHost.includes(':') ? `[${boundHost}]` : boundHost);
  }
  const allowedHosts = new Set<string>();
  const allowedOrigins = new Set<string>();
  for (const name of names) {
    allowedHosts.add(`${name}:${port}`);
    allowedOrigins.add(`http://${name}:${port}`);
  }
  return {allowedHosts, allowedOrigins, token: token.value, tokenLocation: token.location};
}

/**
 * One line for a client that did not pass the token gate. Clients such as mcp-remote and the MCP
 * Inspector answer a 401 with OAuth discovery and client registration and show only the reply
 * that failed, so the 401 and those 404s all say how this server wants to be called.
 */
export function bearerHelp(policy: SecurityPolicy): string {
  return `This server uses a bearer token, not OAuth: send the header 'Authorization: Bearer <token>' with the token ${policy.tokenLocation}. OAuth discovery and client registration are not used.`;
}

/** For the OAuth paths, which a client asks for after a 401 from /mcp. */
export function oauthProbeHelp(policy: SecurityPolicy): string {
  return `A 401 from /mcp means the bearer token was missing or wrong. ${bearerHelp(policy)}`;
}

/** Longest Host header repeated back in a 403 (it comes from the client). */
const MAX_SHOWN_HOST = 100;

function hostRefusal(host: string | undefined, policy: SecurityPolicy): string {
  const shown =
    host === undefined
      ? 'A request without a Host header'
      : `Host ${JSON.stringify(host.slice(0, MAX_SHOWN_HOST))}`;
  return `Forbidden: ${shown} is not one this server answers to (${[...policy.allowedHosts].join(', ')}). Connect to one of those.`;
}

export type Verdict = {ok: true} | {ok: false; status: 401 | 403; message: string};

export function checkHostAndOrigin(
  request: IncomingMessage,
  policy: SecurityPolicy,
  originRequired: boolean,
): Verdict {
  const host = request.headers.host?.toLowerCase();
  if (!host || !policy.allowedHosts.has(host)) {
    return {ok: false, status: 403, message: hostRefusal(request.headers.host, policy)};
  }
  const origin = request.headers.origin;
  if (origin === undefined) {
    return originRequired
      ? {ok: false, status: 403, message: 'Forbidden: missing Origin.'}
      : {ok: true};
  }
  if (!policy.allowedOrigins.has(origin.toLowerCase())) {
    return {ok: false, status: 403, message: 'Forbidden: cross-origin requests are not allowed.'};
  }
  return {ok: true};
}

const TOKEN_QUERY_KEYS = ['token', 'access_token', 'auth', 'bearer'];

export function checkBearer(request: IncomingMessage, url: URL, policy: SecurityPolicy): Verdict {
  if (TOKEN_QUERY_KEYS.some(key => url.searchParams.has(key))) {
    return {
      ok: false,
      status: 401,
      message: `Unauthorized: a token in the URL is not accepted. ${bearerHelp(policy)}`,
    };
  }
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    const given = header === undefined ? 'no Authorization header' : 'no bearer token';
    return {ok: false, status: 401, message: `Unauthorized: ${given}. ${bearerHelp(policy)}`};
  }
  if (!tokensEqual(policy.token, match[1])) {
    return {ok: false, status: 401, message: `Unauthorized: wrong token. ${bearerHelp(policy)}`};
  }
  return {ok: true};
}

/** The inspector socket carries the token as a sub-protocol ("bearer.<token>"), since browsers cannot set headers. */
export function tokenFromProtocols(header: string | undefined, prefix: string): string | undefined {
  if (!header) {
    return undefined;
  }
  for (const part of header.split(',')) {
    const value = part.trim();
    if (value.startsWith(prefix)) {
      return value.slice(prefix.length);
    }
  }
  return undefined;
}
