/**
 * Requests of an open client session that are refused before the transport sees them: JSON-RPC
 * batches on protocol versions that removed them, and a Last-Event-ID this session never gave out.
 */
import type {IncomingMessage} from 'node:http';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {MAX_EVENT_ID_CHARS, type SessionEventStore} from './SessionEventStore.js';

/** The first protocol version without JSON-RPC batching (the specification's changelog). */
const BATCHES_REMOVED_IN = '2025-06-18';

/** The version the SDK's server answers an initialize with: the client's if supported, else the latest. */
export function negotiatedVersion(initialize: InitializeRequest): string {
  const requested = initialize.params.protocolVersion;
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export function lastEventIdOf(request: IncomingMessage): string | undefined {
  const header = request.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return request.method === 'GET' && value !== undefined && value !== '' ? value : undefined;
}

export interface Refusal {
  status: number;
  code: number;
  message: string;
}

export function sessionRequestRefusal(
  session: {protocolVersion: string; eventStore: SessionEventStore; maxEvents: number},
  request: IncomingMessage,
  body: unknown,
): Refusal | undefined {
  // Version strings are dates: they compare as text.
  if (Array.isArray(body) && session.protocolVersion >= BATCHES_REMOVED_IN) {
    return {
      status: 400,
      code: -32600,
      message: `Invalid Request: JSON-RPC batches were removed in MCP protocol version ${BATCHES_REMOVED_IN}, and this session uses ${session.protocolVersion}. Send each message in its own POST.`,
    };
  }
  const lastEventId = lastEventIdOf(request);
  if (lastEventId !== undefined && session.eventStore.knownStream(lastEventId) === undefined) {
    const shown = JSON.stringify(lastEventId.slice(0, MAX_EVENT_ID_CHARS));
    return {
      status: 400,
      code: -32000,
      message: `Last-Event-ID ${shown} is not an event of a stream this session can resume: a stream is forgotten once its answer was delivered, and a session remembers its last ${session.maxEvents} streams and events (${session.eventStore.dropped} events dropped so far). Send the request again.`,
    };
  }
  return undefined;
}
