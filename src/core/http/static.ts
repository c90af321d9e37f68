/**
 * Serves the built inspector UI. Only files under the renderer folder, only GET/HEAD, with a strict
 * CSP. The page holds no secret: the token arrives in the URL fragment, which is never sent here.
 */
import fs from 'node:fs';
import type {ServerResponse} from 'node:http';
import path from 'node:path';
import {findUpward} from '../files/findUpward.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The Content-Type for a file of the built UI, by its extension. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export function contentSecurityPolicy(wsOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // IPv6 literals are not valid CSP host sources (Chromium logs an error and ignores them).
    `connect-src 'self' ${wsOrigins.filter(origin => !origin.includes('[')).join(' ')}`.trim(),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Finds out/renderer by walking up from a start folder (works from out/node/… and out/main/). */
export function findRendererDir(startDir: string): string | undefined {
  return findUpward(
    startDir,
    dir => [path.join(dir, 'out', 'renderer'), path.join(dir, 'renderer')],
    candidate => fs.existsSync(path.join(candidate, 'index.html')),
  );
}

/** Whether `pathname` names a file of the built UI (for 405 versus 404). */
export function isStaticFile(rendererDir: string | undefined, pathname: string): boolean {
  if (pathname === '/') {
    return true;
  }
  if (!rendererDir) {
    return false;
  }
  try {
    const file = path.resolve(rendererDir, `.${decodeURIComponent(pathname)}`);
    return file.startsWith(rendererDir + path.sep) && fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function serveStatic(
  rendererDir: string | undefined,
  pathname: string,
  response: ServerResponse,
  csp: string,
  headOnly: boolean,
): void {
  const baseHeaders = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (!rendererDir) {
    response.writeHead(503, {...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8'});
    response.end('The inspector UI is not built. Run "npm run build" and restart.\n');
    return;
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    response.writeHead(400, baseHeaders).end();
    return;
  }
  const file = path.resolve(rendererDir, `.${relative}`);
  if (!file.startsWith(rendererDir + path.sep) || relative.includes('\0')) {
    response.writeHead(404, baseHeaders).end();
    return;
  }
  let data: Buffer;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      throw new Error('not a file');
    }
    data = fs.readFileSync(file);
  } catch {
    response.writeHead(404, {...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8'});
    response.end('Not found\n');
    return;
  }
  const extension = path.extname(file);
  const isHtml = extension === '.html';
  response.writeHead(200, {
    ...baseHeaders,
    'Content-Type': contentTypeOf(file),
    'Content-Length': data.length,
    'Cache-Control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
    ...(isHtml ? {'Content-Security-Policy': csp} : {}),
  });
  response.end(headOnly ? undefined : data);
}
