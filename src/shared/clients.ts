/**
 * The clients of the inspector protocol: who made a call (a client session over HTTP, the stdio
 * peer, or an inspector UI), the client sessions as the Connection panel lists them, and the ones
 * that ended. protocol.ts re-exports them.
 */
import {z} from 'zod';

export const clientRefSchema = z.object({
  /** Stable id of the connection (one client session over HTTP, the stdio peer, or an inspector UI). */
  id: z.string(),
  name: z.string(),
  version: z.string(),
  transport: z.enum(['http', 'stdio', 'inspector']),
});
export type ClientRef = z.infer<typeof clientRefSchema>;

export const connectedClientSchema = clientRefSchema.extend({
  connectedAt: z.number(),
  calls: z.number(),
  /** An open stream or a request in flight, or one in the last few seconds. */
  live: z.boolean().optional(),
  /** When its last request or stream started or ended. */
  lastActivityAt: z.number().optional(),
  /** It has a browser context of its own (--isolateClients when it started). */
  isolated: z.boolean().optional(),
});
export type ConnectedClient = z.infer<typeof connectedClientSchema>;

/** Why a client session ended: the client closed it, it expired idle, or the cap evicted it. */
export const clientEndReasonSchema = z.enum(['closed', 'idle', 'limit']);
export type ClientEndReason = z.infer<typeof clientEndReasonSchema>;

export const closedClientSchema = clientRefSchema.extend({
  connectedAt: z.number(),
  calls: z.number(),
  lastActivityAt: z.number().optional(),
  closedAt: z.number(),
  reason: clientEndReasonSchema,
});
export type ClosedClient = z.infer<typeof closedClientSchema>;
