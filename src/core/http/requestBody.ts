/**
 * A request's body and the JSON replies of the HTTP server: a body is read up to a cap (past it,
 * the rest is drained, bounded, so the client can read the 413), counted for JSON values before
 * anything parses it, then parsed; a refusal goes out as a JSON-RPC error.
 */
import type {IncomingMessage, ServerResponse} from 'node:http';
import {REQUEST_VALUE_LIMIT} from '../../shared/boundedValue.js';
import {jsonHoldsMoreValuesThan} from './jsonValues.js';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

class BodyTooLargeError extends Error {}

/**
 * An oversized body is still read (and thrown away) up to this much, so the client finishes
 * sending and can read the 413; closing while it still sends would give it EPIPE instead.
 */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_TIMEOUT_MS = 10_000;

/** Reads the body up to `limit`; past it, discards the rest (bounded) and then rejects. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? '0');
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > limit;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = (): void => {
      request.off('data', onData);
      clearTimeout(timer);
      reject(new BodyTooLargeError());
    };
    const startDiscarding = (): void => {
      tooLarge = true;
      chunks.length = 0;
      timer = setTimeout(giveUp, DISCARD_TIMEOUT_MS);
      timer.unref();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (tooLarge) {
        if (size > MAX_DISCARD_BYTES) {
          giveUp();
        }
        return;
      }
      if (size > limit) {
        startDiscarding();
        return;
      }
      chunks.push(chunk);
    };
    if (tooLarge) {
      if (declared > MAX_DISCARD_BYTES) {
        reject(new BodyTooLargeError());
        return;
      }
      startDiscarding();
    }
    request.on('data', onData);
    request.on('end', () => {
      clearTimeout(timer);
      if (tooLarge) {
        reject(new BodyTooLargeError());
      } else {
        resolve(Buffer.concat(chunks));
      }
    });
    request.on('error', error => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export function jsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, {jsonrpc: '2.0', error: {code, message}, id: null}, headers);
}

/**
 * The JSON body of an MCP POST, or an error already sent: too large, holding too many values (see
 * jsonValues.ts), or not JSON.
 */
export async function readJsonBody(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ok: true; body: unknown} | {ok: false}> {
  let raw: Buffer;
  try {
    raw = await readBody(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      jsonRpcError(response, 413, -32600, `Request body larger than ${MAX_BODY_BYTES} bytes.`, {
        Connection: 'close',
      });
      return {ok: false};
    }
    throw error;
  }
  // Before anything parses or walks it.
  if (jsonHoldsMoreValuesThan(raw, REQUEST_VALUE_LIMIT)) {
    jsonRpcError(
      response,
      413,
      -32600,
      `Request holds more than ${REQUEST_VALUE_LIMIT} JSON values (items, keys and containers); nothing ran. Send smaller arguments.`,
    );
    return {ok: false};
  }
  try {
    return {ok: true, body: JSON.parse(raw.toString('utf8'))};
  } catch {
    jsonRpcError(response, 400, -32700, 'Parse error: the body is not valid JSON.');
    return {ok: false};
  }
}
