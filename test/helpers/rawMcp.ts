/**
 * MCP over plain HTTP requests, for what an SDK client would not send (hand-built JSON, a stream
 * cut or resumed by hand): the headers a client sends with the bearer token, one POST, a client
 * session initialized by hand and one request whose body is given as text.
 */
import type {McpEndpoint} from './httpClient.js';

export const PROTOCOL_VERSION = '2025-06-18';

/** The bearer token and the content types a Streamable HTTP client sends, then `extra`. */
export function mcpHeaders(
  server: McpEndpoint,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    Authorization: `Bearer ${server.token}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...extra,
  };
}

/** POSTs `body` (JSON-RPC as text) to /mcp with mcpHeaders; `signal` can abort it. */
export function postMcp(
  server: McpEndpoint,
  body: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(server.mcpUrl, {method: 'POST', headers: mcpHeaders(server, headers), body, signal});
}

function initializeParamsOf(name: string): string {
  return JSON.stringify({
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: {name, version: '1'},
  });
}

/**
 * Sends the initialize request by hand and returns the new client session's id (the session is
 * not told it was initialized); `initializeParams` (JSON text) replaces the usual params.
 */
export async function rawInitialize(
  server: McpEndpoint,
  name: string,
  initializeParams?: string,
): Promise<string> {
  const params = initializeParams ?? initializeParamsOf(name);
  const response = await postMcp(
    server,
    `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${params}}`,
  );
  await response.text();
  const id = response.headers.get('mcp-session-id');
  if (!id) {
    throw new Error(`no Mcp-Session-Id (HTTP ${response.status})`);
  }
  return id;
}

/** The notification that ends a client's handshake, as text. */
export const INITIALIZED = JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'});

/**
 * Initializes a client session by hand and returns its id; `initializeParams` (JSON text) replaces
 * the usual params, for hand-built client info and capabilities.
 */
export async function rawClientSession(
  server: McpEndpoint,
  name: string,
  initializeParams?: string,
): Promise<string> {
  const id = await rawInitialize(server, name, initializeParams);
  await (await postMcp(server, INITIALIZED, {'mcp-session-id': id})).text();
  return id;
}

/** The JSON-RPC messages of a response, whether sent as JSON or as an event stream. */
export function messagesOf(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    return [JSON.parse(trimmed)];
  }
  return trimmed
    .split('\n')
    .filter(line => line.startsWith('data: '))
    .map(line => JSON.parse(line.slice('data: '.length)) as unknown);
}

/** The headers of a request in client session `sessionId`, on PROTOCOL_VERSION. */
export function sessionHeaders(sessionId: string): Record<string, string> {
  return {'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION};
}

/** Sends `body` (a whole JSON-RPC request, as text) and returns the status and the messages. */
export async function rawRequest(
  server: McpEndpoint,
  sessionId: string,
  body: string,
): Promise<{status: number; messages: unknown[]}> {
  const response = await postMcp(server, body, sessionHeaders(sessionId));
  return {status: response.status, messages: messagesOf(await response.text())};
}
