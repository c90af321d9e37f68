/**
 * Where the engine is reached: the one HTTP server on its port (in stdio mode, where HTTP only
 * serves the inspector, a busy port falls back to a free one), each inspector WebSocket on it
 * bridged to the engine's inspector side as its own live-view watcher, and the lines that tell a
 * person where to connect.
 */
import crypto from 'node:crypto';
import type {WebSocket} from 'ws';
import type {InspectorCommand} from '../../shared/protocol.js';
import type {CommandResult} from '../../shared/replies.js';
import type {ServerConfig} from '../config/serverConfig.js';
import {tokenLocation, type ResolvedToken} from '../config/token.js';
import type {InspectorEndpoint} from '../inspector/InspectorPeer.js';
import {attachInspectorSocket} from '../inspector/InspectorSocket.js';
import {HttpServer, type HttpServerOptions} from './HttpServer.js';

export class PortInUseError extends Error {}

/** What an inspector WebSocket talks to; a command carries the socket's live-view watcher. */
export interface SocketInspector extends Omit<InspectorEndpoint, 'handleCommand'> {
  handleCommand(command: InspectorCommand, watcher: string): Promise<CommandResult>;
  /** The socket closed: its watcher stops watching. */
  stopWatching(watcher: string): Promise<void>;
}

export interface HttpEndpointOptions extends Pick<
  HttpServerOptions,
  'createClientSession' | 'onClientSessionReaped' | 'rendererDir' | 'log'
> {
  config: Pick<ServerConfig, 'host' | 'port' | 'clientSessions'>;
  token: ResolvedToken;
  version: string;
  inspector: SocketInspector;
}

export class HttpEndpoint {
  #server: HttpServer | undefined;

  constructor(private readonly options: HttpEndpointOptions) {}

  /** The server once it listens. */
  get server(): HttpServer | undefined {
    return this.#server;
  }

  /**
   * Starts the HTTP server. With `allowPortFallback` (stdio mode, where HTTP only serves the
   * inspector), a busy port falls back to any free one instead of failing.
   */
  async start(allowPortFallback: boolean): Promise<HttpServer> {
    const {config, log} = this.options;
    let server = this.#create(config.port);
    try {
      await server.listen();
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? error.code : undefined;
      if (code === 'EADDRINUSE' && allowPortFallback) {
        log(`Port ${config.port} is busy; the inspector uses a free port instead.`);
        server = this.#create(0);
        await server.listen();
      } else if (code === 'EADDRINUSE') {
        throw new PortInUseError(
          `Port ${config.port} on ${config.host} is already in use (another MCP Browser Inspector?). Stop it, or pass --port 0 for any free port.`,
        );
      } else {
        throw error;
      }
    }
    this.#server = server;
    return server;
  }

  #create(port: number): HttpServer {
    const {config, token, rendererDir, createClientSession, onClientSessionReaped, log} =
      this.options;
    return new HttpServer({
      host: config.host,
      port,
      token,
      rendererDir,
      createClientSession,
      onInspectorSocket: socket => this.#attachSocket(socket),
      log,
      clientSessionLimits: config.clientSessions,
      ...(onClientSessionReaped ? {onClientSessionReaped} : {}),
    });
  }

  #attachSocket(socket: WebSocket): void {
    const {inspector, log} = this.options;
    // Each socket is its own live-view watcher: the screencast stops when the last one goes away.
    const watcher = `socket-${crypto.randomUUID()}`;
    socket.on('close', () => {
      void inspector.stopWatching(watcher).catch(() => undefined);
    });
    attachInspectorSocket(
      socket,
      {
        subscribe: (fromSeq, listener, streamId) =>
          inspector.subscribe(fromSeq, listener, streamId),
        handleCommand: command => inspector.handleCommand(command, watcher),
        onFrame: listener => inspector.onFrame(listener),
      },
      log,
    );
  }

  /** The one line printed at startup: where to connect and how to get the token, never the token. */
  startupLine(): string {
    const {version, token} = this.options;
    const server = this.#server;
    return server
      ? `MCP Browser Inspector ${version}: MCP ${server.mcpUrl} (Authorization: Bearer <token ${tokenLocation(token)}>), inspector ${server.inspectorUrl}#token=<token>`
      : `MCP Browser Inspector ${version}`;
  }

  /** The inspector URL with the token in its fragment: for a terminal only, never for logs. */
  inspectorUrlWithToken(): string | undefined {
    const server = this.#server;
    return server ? `${server.inspectorUrl}#token=${this.options.token.token}` : undefined;
  }

  async close(): Promise<void> {
    await this.#server?.close();
  }
}
