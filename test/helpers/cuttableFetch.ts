/**
 * A fetch for MCP clients whose TCP connections the test can cut, as a network drop does: every
 * request goes over node:http with an agent that keeps its sockets, and `cut()` destroys them all
 * from the client side (the server sees its connections reset, the client sees its streams fail).
 */
import http from 'node:http';
import type net from 'node:net';
import {Readable} from 'node:stream';
import type {FetchLike} from '@modelcontextprotocol/sdk/shared/transport.js';

export interface CuttableFetch {
  fetch: FetchLike;
  /** Destroys every open connection; returns how many there were. */
  cut(): number;
  /** Connections opened so far. */
  opened(): number;
  /** The requests sent so far: method and Last-Event-ID header. */
  requests(): readonly {method: string; lastEventId: string | undefined}[];
  close(): void;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) {
    return undefined;
  }
  if (typeof body !== 'string') {
    throw new Error('cuttableFetch sends text bodies only (MCP clients send JSON text)');
  }
  return body;
}

export function cuttableFetch(): CuttableFetch {
  const sockets = new Set<net.Socket>();
  let opened = 0;
  const sent: {method: string; lastEventId: string | undefined}[] = [];
  const agent = new http.Agent({keepAlive: true});
  const track = (socket: net.Socket): void => {
    if (!sockets.has(socket)) {
      opened++;
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
  };
  const fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const headers = headerRecord(init?.headers);
      const method = init?.method ?? 'GET';
      sent.push({method, lastEventId: headers['last-event-id']});
      const request = http.request(url, {method, headers, agent});
      request.on('socket', track);
      const abort = (): void => {
        request.destroy(new Error('The operation was aborted.'));
      };
      if (init?.signal?.aborted) {
        abort();
      }
      init?.signal?.addEventListener('abort', abort, {once: true});
      request.on('error', reject);
      request.on('response', response => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) {
            headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
        }
        const status = response.statusCode ?? 500;
        const noBody = status === 204 || status === 304;
        resolve(
          new Response(noBody ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
            status,
            headers,
          }),
        );
      });
      request.end(bodyText(init?.body));
    });
  return {
    fetch,
    cut() {
      const count = sockets.size;
      for (const socket of sockets) {
        socket.destroy();
      }
      return count;
    },
    opened: () => opened,
    requests: () => sent,
    close() {
      agent.destroy();
    },
  };
}
