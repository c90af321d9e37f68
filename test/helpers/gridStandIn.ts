/**
 * A local stand-in for a browser grid such as browserless, on 127.0.0.1: a WebSocket endpoint that
 * checks a token (`?token=` or `Authorization: Bearer`), answers 401 without one, 403 for a wrong
 * one and 404 for an unknown path, and otherwise relays the DevTools protocol to a real Chromium.
 * Like a grid, it ends sessions: after `sessionTimeoutMs`, or when the test says so; the browser's
 * pages are closed after the socket (a grid's browser goes away with its session).
 */
import http from 'node:http';
import type {Duplex} from 'node:stream';
import {WebSocket, WebSocketServer, type RawData} from 'ws';
import {waitFor} from './engine.js';

export interface GridStandIn {
  /** The endpoint, with `token` in its query when given, at `path` (default `/`). */
  wsEndpoint(options?: {token?: string; path?: string}): string;
  /** Sessions opened so far (accepted handshakes). */
  sessionsOpened(): number;
  /** Sessions open now. */
  sessionsOpen(): number;
  /** Ends every open session as a grid's time limit does: pages closed, then the socket. */
  endSessions(): Promise<void>;
  close(): Promise<void>;
}

const KNOWN_PATHS = new Set(['/', '/chromium']);
/** The close code browserless uses when a session runs out of time is not specified: a normal close. */
const SESSION_END_CODE = 1000;

function reject(socket: Duplex, status: number): void {
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );
}

/** Closes every page target of the browser over a connection of its own (bounded). */
async function closePages(browserWsEndpoint: string): Promise<void> {
  const cdp = new WebSocket(browserWsEndpoint);
  await new Promise<void>((resolve, fail) => {
    cdp.once('open', () => resolve());
    cdp.once('error', fail);
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  cdp.on('message', data => {
    const chunks = Array.isArray(data) ? data : [Buffer.isBuffer(data) ? data : Buffer.from(data)];
    const text = Buffer.concat(chunks).toString();
    const message = JSON.parse(text) as {id?: number; result?: unknown};
    if (message.id !== undefined) {
      pending.get(message.id)?.(message.result);
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise(resolve => {
      const id = nextId++;
      pending.set(id, resolve);
      cdp.send(JSON.stringify({id, method, params}));
    });
  try {
    const targets = (await send('Target.getTargets')) as {
      targetInfos: {targetId: string; type: string}[];
    };
    for (const target of targets.targetInfos.filter(info => info.type === 'page')) {
      await send('Target.closeTarget', {targetId: target.targetId});
    }
  } finally {
    cdp.close();
  }
}

export async function startGridStandIn(options: {
  /** The real Chromium's browser WebSocket (DebuggableChromium.wsEndpoint). */
  upstream: string;
  token: string;
  sessionTimeoutMs?: number;
}): Promise<GridStandIn> {
  const wss = new WebSocketServer({noServer: true});
  const open = new Set<{client: WebSocket; upstream: WebSocket; timer?: NodeJS.Timeout}>();
  let opened = 0;

  const endSession = async (session: {client: WebSocket; upstream: WebSocket}): Promise<void> => {
    // The socket first, as when a grid's browser goes away: the client sees no page close.
    session.client.close(SESSION_END_CODE, 'session timed out');
    session.upstream.close();
    await closePages(options.upstream).catch(() => undefined);
  };

  const relay = (client: WebSocket): void => {
    opened++;
    const upstream = new WebSocket(options.upstream, {perMessageDeflate: false});
    const queued: RawData[] = [];
    const session: {client: WebSocket; upstream: WebSocket; timer?: NodeJS.Timeout} = {
      client,
      upstream,
    };
    open.add(session);
    if (options.sessionTimeoutMs !== undefined) {
      session.timer = setTimeout(() => void endSession(session), options.sessionTimeoutMs);
    }
    client.on('message', data => {
      if (upstream.readyState === WebSocket.OPEN) {
        upstream.send(data, {binary: false});
      } else {
        queued.push(data);
      }
    });
    upstream.on('open', () => {
      for (const data of queued.splice(0)) {
        upstream.send(data, {binary: false});
      }
    });
    upstream.on('message', data => client.send(data, {binary: false}));
    const end = (): void => {
      clearTimeout(session.timer);
      open.delete(session);
      client.close();
      upstream.close();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  };

  const server = http.createServer((_request, response) => {
    response.writeHead(404).end();
  });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (!KNOWN_PATHS.has(url.pathname)) {
      reject(socket, 404);
      return;
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const token = url.searchParams.get('token') ?? bearer;
    if (token === undefined) {
      reject(socket, 401);
      return;
    }
    if (token !== options.token) {
      reject(socket, 403);
      return;
    }
    wss.handleUpgrade(request, socket, head, relay);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    wsEndpoint({token, path = '/'} = {}) {
      const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
      return `ws://127.0.0.1:${port}${path}${query}`;
    },
    sessionsOpened: () => opened,
    sessionsOpen: () => open.size,
    async endSessions() {
      await Promise.all([...open].map(session => endSession(session)));
      await waitFor(() => open.size === 0, 10_000, 'the grid sessions to close');
    },
    async close() {
      for (const session of open) {
        session.client.terminate();
        session.upstream.terminate();
      }
      wss.close();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
