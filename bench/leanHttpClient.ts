/**
 * A lean MCP client over Streamable HTTP for load runs: the real protocol (initialize, the session
 * id, notifications/initialized, tools/call answered as JSON or as an SSE stream, DELETE at the
 * end) on one keep-alive connection, without the SDK client's web streams and schema checks. Fifty
 * SDK clients in one process cost about 3 ms of CPU per call and queue behind each other on one
 * event loop, which real agents (a process each) never do; this client keeps the bench's own cost
 * out of the latency it reports, as RawStdioClient does for stdio.
 */
import http from 'node:http';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {isRecord} from '../src/shared/values.js';
import {messagesOf, PROTOCOL_VERSION} from '../test/helpers/rawMcp.js';

interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: {message?: unknown};
}

/** The tool result's text items (an answer without them is reported as an error). */
export function toolResult(result: unknown): CallToolResult {
  if (!isRecord(result) || !Array.isArray(result.content)) {
    return {content: [{type: 'text', text: 'The answer had no content.'}], isError: true};
  }
  const content = result.content.flatMap(item =>
    isRecord(item) && item.type === 'text' && typeof item.text === 'string'
      ? [{type: 'text' as const, text: item.text}]
      : [],
  );
  return {content, isError: result.isError === true};
}

/** The JSON-RPC answer with this id in a response body (JSON or an SSE stream). */
function replyIn(body: string, id: number): RpcReply | undefined {
  for (const message of messagesOf(body)) {
    if (isRecord(message) && message.id === id) {
      return message;
    }
  }
  return undefined;
}

export class LeanHttpClient {
  readonly #url: URL;
  readonly #token: string;
  readonly #agent = new http.Agent({keepAlive: true, maxSockets: 1});
  #sessionId: string | undefined;
  #nextId = 1;

  constructor(mcpUrl: string, token: string) {
    this.#url = new URL(mcpUrl);
    this.#token = token;
  }

  #request(method: 'POST' | 'DELETE', body: unknown): Promise<{status: number; text: string}> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: this.#url.hostname,
          port: this.#url.port,
          path: this.#url.pathname,
          method,
          agent: this.#agent,
          headers: {
            Authorization: `Bearer ${this.#token}`,
            Accept: 'application/json, text/event-stream',
            ...(payload ? {'Content-Type': 'application/json'} : {}),
            ...(this.#sessionId === undefined
              ? {}
              : {'Mcp-Session-Id': this.#sessionId, 'Mcp-Protocol-Version': PROTOCOL_VERSION}),
          },
        },
        response => {
          const sessionId = response.headers['mcp-session-id'];
          if (typeof sessionId === 'string') {
            this.#sessionId = sessionId;
          }
          response.setEncoding('utf8');
          let text = '';
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({status: response.statusCode ?? 0, text}));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  async #call(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const answer = await this.#request('POST', {jsonrpc: '2.0', id, method, params});
    const reply = replyIn(answer.text, id);
    if (!reply) {
      throw new Error(
        `${method}: HTTP ${answer.status} without an answer (${answer.text.slice(0, 200)})`,
      );
    }
    if (reply.error) {
      throw new Error(`${method}: ${String(reply.error.message)}`);
    }
    return reply.result;
  }

  async connect(name: string): Promise<void> {
    await this.#call('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: {name, version: '1'},
    });
    const initialized = await this.#request('POST', {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    if (initialized.status !== 202) {
      throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
    }
  }

  async callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<CallToolResult> {
    return toolResult(await this.#call('tools/call', params));
  }

  /** Ends the MCP session (DELETE), as a client that is done does. */
  async close(): Promise<void> {
    if (this.#sessionId !== undefined) {
      await this.#request('DELETE', undefined).catch(() => undefined);
    }
    this.#agent.destroy();
  }
}
