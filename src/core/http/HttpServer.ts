/**
 * The one HTTP server: MCP Streamable HTTP at /mcp, the inspector UI at /, and the inspector
 * WebSocket. Host and Origin are checked on every request before routing; /mcp and the socket need
 * the token; request bodies are capped.
 */
import crypto from 'node:crypto';
import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import type {Duplex} from 'node:stream';
import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {isInitializeRequest} from '@modelcontextprotocol/sdk/types.js';
import {WebSocketServer, type WebSocket} from 'ws';
import {
  INSPECTOR_WS_PATH,
  MCP_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
  TOKEN_ENV,
  TOKEN_LOCATION_PATH,
} from '../../shared/constants.js';
import type {TokenLocation} from '../../shared/tokenLocation.js';
import {tokenLocation, tokensEqual, type ResolvedToken} from '../config/token.js';
import type {ClientSession} from '../mcp/ClientSession.js';
import {
  buildPolicy,
  checkBearer,
  checkHostAndOrigin,
  oauthProbeHelp,
  tokenFromProtocols,
  type SecurityPolicy,
} from './security.js';
import {
  ClientSessionTable,
  type ReapReason,
  type TrackedClientSession,
  type ClientSessionLimits,
} from './ClientSessionTable.js';
import {DEFAULT_EVENT_STORE_LIMITS} from './SessionEventStore.js';
import {jsonRpcError, readJsonBody, sendJson} from './requestBody.js';
import {lastEventIdOf, negotiatedVersion, sessionRequestRefusal} from './sessionRequests.js';
import {SessionStreams} from './SessionStreams.js';
import {contentSecurityPolicy, isStaticFile, serveStatic} from './static.js';
import {errorText} from '../../shared/values.js';

/** The SSE `retry` the server suggests: how soon a client whose stream dropped should resume it. */
const SSE_RETRY_MS = 1_000;

export interface HttpServerOptions {
  host: string;
  port: number;
  /** The token, and where a person finds it (named in a 401 and at TOKEN_LOCATION_PATH). */
  token: ResolvedToken;
  rendererDir: string | undefined;
  createClientSession: () => ClientSession;
  onInspectorSocket: (socket: WebSocket) => void;
  log: (line: string) => void;
  /** Idle expiry and cap of client sessions. */
  clientSessionLimits: ClientSessionLimits;
  /** Told when a client session is closed by the server (idle or over the cap). */
  onClientSessionReaped?: (
    clientSession: ClientSession,
    reason: ReapReason,
    idleMs: number,
  ) => void;
}

/** OAuth discovery (RFC 8414, RFC 9728, OpenID) and the default endpoints clients fall back to. */
const OAUTH_PATHS = new Set(['/register', '/authorize', '/token']);

function isOAuthPath(pathname: string): boolean {
  return pathname.startsWith('/.well-known/') || OAUTH_PATHS.has(pathname);
}

/** RFC 6750 challenge; the description says what is wrong in words a person can act on. */
function bearerChallenge(description: string): string {
  const quoted = description.replace(/["\\]/g, "'");
  return `Bearer realm="mcp-browser-inspector", error="invalid_token", error_description="${quoted}"`;
}

export class HttpServer {
  readonly #server: http.Server;
  readonly #wss: WebSocketServer;
  readonly #table: ClientSessionTable;
  #policy: SecurityPolicy;
  #csp = '';
  #port = 0;

  constructor(private readonly options: HttpServerOptions) {
    this.#policy = buildPolicy(options.host, options.port, this.#tokenOfPolicy());
    this.#table = new ClientSessionTable(
      options.clientSessionLimits,
      (clientSession, reason, idleMs) => {
        options.log(
          `Closed the client session of ${clientSession.client.name} (${reason === 'idle' ? `idle for ${Math.round(idleMs / 1000)} s` : `over the limit of ${options.clientSessionLimits.max} client sessions`}).`,
        );
        options.onClientSessionReaped?.(clientSession, reason, idleMs);
      },
    );
    this.#server = http.createServer((request, response) => {
      void this.#handle(request, response).catch((error: unknown) => {
        options.log(`HTTP handler error: ${errorText(error)}`);
        if (!response.headersSent) {
          sendJson(response, 500, {error: 'Internal server error'});
        } else {
          response.end();
        }
      });
    });
    this.#server.keepAliveTimeout = 65_000;
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: 1024 * 1024,
      handleProtocols: protocols => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
    });
    this.#server.on('upgrade', (request, socket, head) => this.#upgrade(request, socket, head));
  }

  #tokenOfPolicy(): {value: string; location: string} {
    return {value: this.options.token.token, location: tokenLocation(this.options.token)};
  }

  get port(): number {
    return this.#port;
  }

  get urlHost(): string {
    const host = this.options.host;
    return host.includes(':') ? `[${host}]` : host;
  }

  get mcpUrl(): string {
    return `http://${this.urlHost}:${this.#port}${MCP_PATH}`;
  }

  get inspectorUrl(): string {
    return `http://${this.urlHost}:${this.#port}/`;
  }

  get clientSessions(): ClientSession[] {
    return this.#table.clientSessions();
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => {
        this.#server.off('listening', onListening);
        reject(error);
      };
      const onListening = (): void => {
        this.#server.off('error', onError);
        resolve();
      };
      this.#server.once('error', onError);
      this.#server.once('listening', onListening);
      this.#server.listen(this.options.port, this.options.host);
    });
    const address = this.#server.address();
    this.#port = typeof address === 'object' && address ? address.port : this.options.port;
    this.#policy = buildPolicy(this.options.host, this.#port, this.#tokenOfPolicy());
    this.#csp = contentSecurityPolicy(
      [...this.#policy.allowedOrigins].map(origin => origin.replace(/^http/, 'ws')),
    );
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    const isMcp = url.pathname === MCP_PATH;
    const gate = checkHostAndOrigin(request, this.#policy, false);
    if (!gate.ok) {
      // The body was not read: do not let the client reuse this connection.
      sendJson(response, gate.status, {error: gate.message}, {Connection: 'close'});
      return;
    }
    if (isMcp) {
      await this.#handleMcp(request, response, url);
      return;
    }
    if (isOAuthPath(url.pathname)) {
      // Clients that got a 401 look for OAuth here and show the reply that failed: say why.
      sendJson(
        response,
        404,
        {error: 'not_found', error_description: oauthProbeHelp(this.#policy)},
        {Connection: 'close'},
      );
      return;
    }
    if (url.pathname === TOKEN_LOCATION_PATH && request.method === 'GET') {
      // For the inspector page opened without its token: where to find it, never the token.
      const {file} = this.options.token;
      const location: TokenLocation =
        file === undefined ? {source: 'flag-or-env', env: TOKEN_ENV} : {source: 'file', file};
      sendJson(response, 200, location, {'Cache-Control': 'no-store'});
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      // Only the UI's own files exist besides /mcp and the OAuth paths above.
      const known = isStaticFile(this.options.rendererDir, url.pathname);
      sendJson(
        response,
        known ? 405 : 404,
        {error: known ? 'Method not allowed' : 'Not found'},
        known ? {Allow: 'GET, HEAD', Connection: 'close'} : {Connection: 'close'},
      );
      return;
    }
    serveStatic(
      this.options.rendererDir,
      url.pathname,
      response,
      this.#csp,
      request.method === 'HEAD',
    );
  }

  /**
   * A request of a known client session. Its streams are resumable (SessionStreams): a closed one
   * cancels the tool calls it carried unless the client resumes it in time.
   */
  async #dispatch(
    entry: TrackedClientSession,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const {streams} = entry;
    const refusal = sessionRequestRefusal(
      {...entry, eventStore: streams.eventStore, maxEvents: DEFAULT_EVENT_STORE_LIMITS.maxEvents},
      request,
      body,
    );
    if (refusal) {
      jsonRpcError(response, refusal.status, refusal.code, refusal.message);
      return;
    }
    // A GET is the client's own stream (server-sent events outside any request).
    this.#table.track(entry, response, request.method === 'GET' ? 'stream' : 'request');
    await streams.handle(response, body, lastEventIdOf(request), () =>
      entry.transport.handleRequest(request, response, body),
    );
  }

  async #handleMcp(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const auth = checkBearer(request, url, this.#policy);
    if (!auth.ok) {
      sendJson(
        response,
        auth.status,
        {error: 'invalid_token', error_description: auth.message},
        {'WWW-Authenticate': bearerChallenge(auth.message), Connection: 'close'},
      );
      return;
    }
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request, response);
      if (!read.ok) {
        return;
      }
      body = read.body;
    }
    const sessionIdHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionIdHeader) ? sessionIdHeader[0] : sessionIdHeader;
    if (sessionId !== undefined) {
      const existing = this.#table.get(sessionId);
      if (!existing) {
        jsonRpcError(response, 404, -32001, 'Session not found. Initialize a new session.');
        return;
      }
      await this.#dispatch(existing, request, response, body);
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      jsonRpcError(
        response,
        400,
        -32000,
        'Bad request: no Mcp-Session-Id header, and the body is not an initialize request.',
      );
      return;
    }
    if (!(await this.#table.makeRoom())) {
      jsonRpcError(
        response,
        503,
        -32000,
        `Too many client sessions: all ${this.options.clientSessionLimits.max} are busy. Retry when one finishes, or restart the server with a larger --maxSessions.`,
      );
      return;
    }
    const clientSession = this.options.createClientSession();
    const streams = new SessionStreams({
      resumeWindowMs: this.options.clientSessionLimits.resumeWindowMs,
      cancel: (ids, reason) => ids.forEach(id => clientSession.cancelRequest(id, reason)),
    });
    const protocolVersion = negotiatedVersion(body);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      // Every message gets an event id, and (protocol 2025-11-25) each stream a priming event
      // with this retry, so a client whose connection dropped resumes with Last-Event-ID.
      eventStore: streams.eventStore,
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: id => {
        const entry = this.#table.add(id, {transport, clientSession, streams, protocolVersion});
        this.#table.track(entry, response);
      },
      onsessionclosed: id => {
        this.#table.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) {
        this.#table.delete(transport.sessionId);
      }
    };
    await clientSession.connect(transport);
    await streams.handle(response, body, undefined, () =>
      transport.handleRequest(request, response, body),
    );
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const reject = (status: number, message: string): void => {
      socket.write(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${message}\n`,
      );
      socket.destroy();
    };
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (url.pathname !== INSPECTOR_WS_PATH) {
      reject(404, 'Not found');
      return;
    }
    const gate = checkHostAndOrigin(request, this.#policy, true);
    if (!gate.ok) {
      reject(gate.status, gate.message);
      return;
    }
    const token = tokenFromProtocols(
      request.headers['sec-websocket-protocol'],
      WS_TOKEN_PROTOCOL_PREFIX,
    );
    if (token === undefined || !tokensEqual(this.#policy.token, token)) {
      reject(401, 'Unauthorized: wrong or missing inspector token.');
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, ws => this.options.onInspectorSocket(ws));
  }

  async close(): Promise<void> {
    await this.#table.closeAll();
    for (const client of this.#wss.clients) {
      client.terminate();
    }
    this.#wss.close();
    await new Promise<void>(resolve => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}
