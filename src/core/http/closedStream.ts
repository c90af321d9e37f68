/**
 * A client that closes the HTTP stream of a tools/call before the answer came (it gave up, or
 * its process went away) gets the call cancelled as if it had sent `notifications/cancelled`, so
 * a call waiting for something (a hold for approval, a lock) stops at once instead of running for
 * nobody. The SDK itself aborts requests only when the whole session closes.
 */
import type {ServerResponse} from 'node:http';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {z} from 'zod';

const toolCallSchema = z.object({
  method: z.literal('tools/call'),
  id: z.union([z.string(), z.number()]),
});

/** Ids of the tools/call requests in a POST body (one message or a batch). */
export function toolCallIds(body: unknown): (string | number)[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap(message => {
    const parsed = toolCallSchema.safeParse(message);
    return parsed.success ? [parsed.data.id] : [];
  });
}

export function cancelOnClosedStream(
  transport: Transport,
  body: unknown,
  response: ServerResponse,
): void {
  const ids = toolCallIds(body);
  if (ids.length === 0) {
    return;
  }
  response.once('close', () => {
    if (response.writableFinished) {
      return;
    }
    for (const requestId of ids) {
      transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: {requestId, reason: 'The client closed the stream before the answer.'},
      });
    }
  });
}
