/**
 * A closed HTTP stream cancels the tool calls it carried: when a client drops the POST whose
 * response stream was to bring a tools/call answer (a killed agent, a user's Esc that only aborts
 * the fetch), nobody can read the answer any more, so the call is cancelled as if the client had
 * sent notifications/cancelled (page tools get WebMCP.cancelInvocation, locks are freed).
 */
import type {ServerResponse} from 'node:http';
import {z} from 'zod';
import type {ClientSession} from '../mcp/ClientSession.js';

const toolCallSchema = z.object({
  method: z.literal('tools/call'),
  id: z.union([z.string(), z.number()]),
});

/** The ids of the tools/call requests in a JSON-RPC body (one message or a batch). */
export function toolCallIds(body: unknown): (string | number)[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap(message => {
    const parsed = toolCallSchema.safeParse(message);
    return parsed.success ? [parsed.data.id] : [];
  });
}

export function cancelOnClosedStream(
  response: ServerResponse,
  body: unknown,
  clientSession: ClientSession,
): void {
  const ids = toolCallIds(body);
  if (ids.length === 0) {
    return;
  }
  response.once('close', () => {
    if (response.writableFinished) {
      return;
    }
    for (const id of ids) {
      clientSession.cancelRequest(id, 'The client closed the HTTP stream before the answer came.');
    }
  });
}
