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
}

export function buildPolicy(
  boundHost: string,
  port: number,
  token: string,
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
  return {allowedHosts, allowedOrigins, token};
}

export type Verdict = {ok: true} | {ok: false; status: 401 | 403; message: string};

export function checkHostAndOrigin(
  request: IncomingMessage,
  policy: SecurityPolicy,
  originRequired: boolean,
): Verdict {
  const host = request.headers.host?.toLowerCase();
  if (!host || !policy.allowedHosts.has(host)) {
    return {ok: false, status: 403, message: 'Forbidden: unexpected Host header.'};
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
      message:
        'Unauthorized: a token in the URL is not accepted. Send it as "Authorization: Bearer <token>".',
    };
  }
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    return {
      ok: false,
      status: 401,
      message:
        'Unauthorized: send "Authorization: Bearer <token>". The server printed where to find the token at startup.',
    };
  }
  if (!tokensEqual(policy.token, match[1])) {
    return {ok: false, status: 401, message: 'Unauthorized: wrong token.'};
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
