/**
 * Fixture pages served from 127.0.0.1 (WebMCP needs a secure context, which data: URLs are not).
 * Files come from test/fixtures/pages, and under /libraries/ from test/fixtures/libraries (pages
 * built from npm component libraries; their bundles are made by scripts/build-library-fixtures.mjs,
 * which test/globalSetup.ts runs); tests add dynamic routes (redirects, slow answers, JSON).
 */
import fs from 'node:fs';
import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import path from 'node:path';

export type RouteHandler = (request: IncomingMessage, response: ServerResponse) => void;

const PAGES = path.resolve(import.meta.dirname, '../fixtures/pages');
const LIBRARIES = path.resolve(import.meta.dirname, '../fixtures/libraries');
const LIBRARIES_PREFIX = '/libraries/';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The file a path names, inside the folder it is served from; undefined for a path outside. */
function fileFor(pathname: string): string | undefined {
  const [folder, rest] = pathname.startsWith(LIBRARIES_PREFIX)
    ? [LIBRARIES, pathname.slice(LIBRARIES_PREFIX.length - 1)]
    : [PAGES, pathname === '/' ? '/index.html' : pathname];
  const file = path.resolve(folder, `.${rest}`);
  return file.startsWith(folder + path.sep) ? file : undefined;
}

export class FixtureServer {
  readonly #server: http.Server;
  readonly #routes = new Map<string, RouteHandler>();
  #port = 0;

  constructor() {
    this.#server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const route = this.#routes.get(url.pathname);
      if (route) {
        route(request, response);
        return;
      }
      const file = fileFor(url.pathname);
      if (file === undefined || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        response.writeHead(404, {'Content-Type': 'text/plain'}).end('not found');
        return;
      }
      response.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      });
      response.end(fs.readFileSync(file));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>(resolve => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.#port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  url(pathname: string): string {
    return `${this.origin}${pathname.startsWith('/') ? '' : '/'}${pathname}`;
  }

  route(pathname: string, handler: RouteHandler): void {
    this.#routes.set(pathname, handler);
  }

  /** Serves an HTML string at a path. */
  html(pathname: string, body: string): string {
    this.route(pathname, (_request, response) => {
      response.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      response.end(body);
    });
    return this.url(pathname);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>(resolve => this.#server.close(() => resolve()));
  }
}
