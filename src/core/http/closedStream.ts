/**
 * The tools/call requests a POST carried: when its stream closes before their answer and the
 * client does not resume it (SessionStreams), nobody can read the answer any more, so the calls are
 * cancelled as if the client had sent notifications/cancelled.
 */
import {z} from 'zod';

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
