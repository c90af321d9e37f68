/**
 * MCP over plain HTTP requests, for bodies an SDK client would not send (hand-built JSON): a
 * client session initialized by hand and one tools/call whose body is given as text.
 */
import type {TestEngine} from './engine.js';

/** Where the server listens and its token. */
type Server = Pick<TestEngine, 'mcpUrl' | 'token'>;

export const PROTOCOL_VERSION = '2025-06-18';

function post(engine: Server, body: string, headers: Record<string, string> = {}) {
  return fetch(engine.mcpUrl, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${engine.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}

/**
 * Initializes a client session by hand and returns its id; `initializeParams` (JSON text) replaces the
 * usual params, for hand-built client info and capabilities.
 */
export async function rawClientSession(
  engine: Server,
  name: string,
  initializeParams?: string,
): Promise<string> {
  const params =
    initializeParams ??
    JSON.stringify({
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: {name, version: '1'},
    });
  const response = await post(
    engine,
    `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${params}}`,
  );
  await response.text();
  const id = response.headers.get('mcp-session-id');
  if (!id) {
    throw new Error(`no Mcp-Session-Id (HTTP ${response.status})`);
  }
  const initialized = JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'});
  await (await post(engine, initialized, {'mcp-session-id': id})).text();
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

/** Sends `body` (a whole JSON-RPC request, as text) and returns the status and the messages. */
export async function rawRequest(
  engine: Server,
  sessionId: string,
  body: string,
): Promise<{status: number; messages: unknown[]}> {
  const response = await post(engine, body, {
    'mcp-session-id': sessionId,
    'mcp-protocol-version': PROTOCOL_VERSION,
  });
  return {status: response.status, messages: messagesOf(await response.text())};
}
