/**
 * Decoding server messages: JSON.parse + zod validation, on the main thread. (Measured: a worker
 * costs the main thread more in structured-clone copies than zod's validation does.)
 */
import {type ServerMessage, serverMessageSchema} from '../../../shared/protocol.js';

export type Decoder = (data: string) => ServerMessage | undefined;

export function decodeInline(data: string): ServerMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = serverMessageSchema.safeParse(json);
  if (!parsed.success) {
    console.warn('Ignored a malformed message from the inspector server.', parsed.error.issues);
    return undefined;
  }
  return parsed.data;
}
