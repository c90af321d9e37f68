/**
 * The one envelope between the engine and a UI, the same on both transports: the inspector
 * WebSocket carries each message as JSON text; IPC carries it as the payload of the channel named
 * after its kind (IPC_CHANNELS in connection.ts), a command through invoke, which answers with its
 * reply message. Both ends check every message they receive with these schemas.
 *
 * One flow-control scheme for both: a UI acknowledges each batch and each live frame once it has
 * handled it. The engine keeps at most `STREAM_LIMITS.batchesInFlight` unacknowledged batches per
 * stream (a busy UI slows its stream instead of growing a queue; the stream catches up from the
 * hub's store) and one frame in flight per connection (a newer frame replaces the pending one).
 */
import {z} from 'zod';
import {eventBatchSchema, inspectorCommandSchema, liveFrameSchema} from './protocol.js';

export const STREAM_LIMITS = {
  /** Event streams one UI connection may hold open; one more closes the oldest. */
  subscriptions: 8,
  /** Batches sent and not yet acknowledged, per stream. */
  batchesInFlight: 4,
} as const;

/** Names one event stream of a connection (the UI picks it). */
const subscriptionIdSchema = z.number().int().min(0);

// --- UI → engine ------------------------------------------------------------------------------

export const subscribeMessageSchema = z.strictObject({
  kind: z.literal('subscribe'),
  id: subscriptionIdSchema,
  fromSeq: z.number().int().min(0),
  /** The event stream `fromSeq` belongs to; from another one (a restarted server) it starts over. */
  streamId: z.string().max(100).optional(),
});
export const unsubscribeMessageSchema = z.strictObject({
  kind: z.literal('unsubscribe'),
  id: subscriptionIdSchema,
});
/** The UI has handled one batch of stream `id`. */
export const batchAckMessageSchema = z.strictObject({
  kind: z.literal('batchAck'),
  id: subscriptionIdSchema,
});
/** Whether this UI wants live-view frames. */
export const framesMessageSchema = z.strictObject({
  kind: z.literal('frames'),
  enabled: z.boolean(),
});
/** The UI has drawn the last frame; the engine may send the next one. */
export const frameAckMessageSchema = z.strictObject({kind: z.literal('frameAck')});
/** A new document took over the connection (a reload): drop what the previous one asked for. */
export const resetMessageSchema = z.strictObject({kind: z.literal('reset')});
export const commandMessageSchema = z.strictObject({
  kind: z.literal('command'),
  id: z.number().int(),
  command: inspectorCommandSchema,
});

export const clientMessageSchema = z.discriminatedUnion('kind', [
  subscribeMessageSchema,
  unsubscribeMessageSchema,
  batchAckMessageSchema,
  framesMessageSchema,
  frameAckMessageSchema,
  resetMessageSchema,
  commandMessageSchema,
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type CommandMessage = z.infer<typeof commandMessageSchema>;
/** Everything but commands: the messages that steer streams and frames. */
export type StreamMessage = Exclude<ClientMessage, CommandMessage>;

// --- engine → UI ------------------------------------------------------------------------------

/**
 * Every command answers with this union, never a thrown error across the boundary. `value` is
 * checked against the command's own reply schema (replies.ts) by the side that sent it.
 */
const commandReplySchema = z.union([
  z.object({ok: z.literal(true), value: z.unknown()}),
  z.object({ok: z.literal(false), error: z.string()}),
]);
export type CommandReply = z.infer<typeof commandReplySchema>;

const batchMessageSchema = z.object({
  kind: z.literal('batch'),
  id: subscriptionIdSchema,
  batch: eventBatchSchema,
});
const frameMessageSchema = z.object({kind: z.literal('frame'), frame: liveFrameSchema});
const replyMessageSchema = z.object({
  kind: z.literal('reply'),
  id: z.number().int(),
  reply: commandReplySchema,
});

/**
 * The desktop shell asks its window to show a panel: the person clicked the system notification
 * of a held call. Only IPC carries it; the engine never sends it over the WebSocket.
 */
const showMessageSchema = z.object({kind: z.literal('show'), panel: z.literal('hold')});

export const serverMessageSchema = z.discriminatedUnion('kind', [
  batchMessageSchema,
  frameMessageSchema,
  replyMessageSchema,
  showMessageSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type BatchMessage = z.infer<typeof batchMessageSchema>;
export type FrameMessage = z.infer<typeof frameMessageSchema>;
export type ReplyMessage = z.infer<typeof replyMessageSchema>;
export type ShowMessage = z.infer<typeof showMessageSchema>;
