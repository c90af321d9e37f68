/**
 * The app protocol that serves the built renderer (`app://inspector/…`) instead of file://: only
 * GET/HEAD, only files inside the renderer folder, the CSP sent as a response header. Every path
 * is checked after percent-decoding, so `..`, `%2e%2e`, encoded slashes, backslashes and absolute
 * paths are refused even if a caller hands over a URL that was not normalised.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {contentSecurityPolicy, contentTypeOf} from '../core/http/static.js';

export const APP_SCHEME = 'app';
const APP_HOST = 'inspector';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The same strict policy as web mode, without WebSocket origins: the desktop UI talks over IPC. */
export const APP_CSP = contentSecurityPolicy([]);

/** What `protocol.registerSchemesAsPrivileged` needs, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  // standard: parsed like http (origin, relative URLs); secure: a secure context, like https;
  // corsEnabled: module scripts and module workers are fetched in CORS mode (VS Code's file
  // scheme sets the same); codeCache: V8 keeps compiled code between starts. Never bypassCSP.
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: true,
    corsEnabled: true,
    codeCache: true,
  },
} as const;

/** Scheme://host of a URL, also for custom schemes (whose WHATWG `origin` is the opaque "null"). */
export function originOf(rawUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return undefined;
  }
  // Lower-cased: a custom scheme's host is "opaque" to the WHATWG parser, which keeps its case.
  return url.host === '' ? undefined : `${url.protocol}//${url.host.toLowerCase()}`;
}

export type AppPathResolution =
  {kind: 'file'; file: string} | {kind: 'refused'; status: 400 | 403 | 404 | 405; reason: string};

/**
 * Maps an app-protocol request to a file under `rendererDir`, or says why not. Works on the raw
 * URL text so that a traversal attempt is refused here even when nothing normalised it first.
 */
export function resolveAppPath(
  rawUrl: string,
  method: string,
  rendererDir: string,
): AppPathResolution {
  if (method !== 'GET' && method !== 'HEAD') {
    return {kind: 'refused', status: 405, reason: 'only GET and HEAD'};
  }
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/i.exec(rawUrl);
  if (!match || match[1]?.toLowerCase() !== APP_SCHEME || match[2]?.toLowerCase() !== APP_HOST) {
    return {kind: 'refused', status: 403, reason: 'not the app origin'};
  }
  const rawPath =
    match[3] === undefined || match[3] === '' || match[3] === '/' ? '/index.html' : match[3];
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return {kind: 'refused', status: 400, reason: 'malformed percent-encoding'};
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.includes(':')) {
    return {kind: 'refused', status: 400, reason: 'forbidden character in path'};
  }
  const segments = decoded.split('/').slice(1);
  if (segments.some(segment => segment === '' || segment === '.' || segment === '..')) {
    return {kind: 'refused', status: 403, reason: 'path traversal'};
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, ...segments);
  if (!file.startsWith(root + path.sep)) {
    return {kind: 'refused', status: 403, reason: 'outside the renderer folder'};
  }
  return {kind: 'file', file};
}

/** The part of a protocol request the handler reads (Electron passes a fetch `Request`). */
export interface AppRequest {
  readonly url: string;
  readonly method: string;
}

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': APP_CSP,
};

export function createAppProtocolHandler(
  rendererDir: string,
  readFile: (file: string) => Promise<Uint8Array> = file => fs.readFile(file),
): (request: AppRequest) => Promise<Response> {
  return async request => {
    const resolved = resolveAppPath(request.url, request.method, rendererDir);
    if (resolved.kind === 'refused') {
      return new Response(`Refused: ${resolved.reason}\n`, {
        status: resolved.status,
        headers: {...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8'},
      });
    }
    let data: Uint8Array;
    try {
      data = await readFile(resolved.file);
    } catch {
      return new Response('Not found\n', {
        status: 404,
        headers: {...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8'},
      });
    }
    const contentType = contentTypeOf(resolved.file);
    return new Response(request.method === 'HEAD' ? null : Buffer.from(data), {
      status: 200,
      headers: {...BASE_HEADERS, 'Content-Type': contentType},
    });
  };
}
