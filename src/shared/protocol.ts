/**
 * The inspector protocol: what the engine tells a UI (events) and what a UI may ask of the engine
 * (commands). What each command answers is in replies.ts; the one envelope that carries all of it,
 * over the WebSocket (web mode) and IPC (desktop) alike, is in wire.ts.
 */
import {z} from 'zod';
import {TOOL_CATEGORIES, TOOL_CONDITIONS} from './categories.js';
import {holdCommandSchemas, holdEventSchemas} from './hold.js';
import {telemetryRecordSchema} from './telemetry.js';
import {
  callActivityItemSchema,
  callImageSchema,
  exportFormatSchema,
  recordedElementSchema,
  replayCallReportSchema,
  replaySummarySchema,
  recordingIdSchema,
  recordingImageFileSchema,
} from './recordingSchemas.js';

import {
  clientEndReasonSchema,
  clientRefSchema,
  closedClientSchema,
  connectedClientSchema,
} from './clients.js';
import {webmcpInvocationSchema, webmcpToolSchema} from './webmcpSchemas.js';

export * from './recordingSchemas.js';
export * from './clients.js';
export * from './webmcpSchemas.js';

const categorySchema = z.enum(TOOL_CATEGORIES);
const conditionSchema = z.enum(TOOL_CONDITIONS);

const imageContentSchema = z.object({
  mimeType: z.string(),
  data: z.string(),
  /** In a recording: the image's file in the recording's images folder (data is then ''). */
  file: z.string().optional(),
});

export const toolResultSchema = z.object({
  text: z.string(),
  images: z.array(imageContentSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  /** Set when `text` is a preview (the inspector and the recording keep one): the full length. */
  textChars: z.number().int().nonnegative().optional(),
  /** Set when structuredContent is a preview: markers stand where parts were cut. */
  structuredCut: z.boolean().optional(),
});
export type ToolResult = z.infer<typeof toolResultSchema>;

/** `held`: waiting for a person in the inspector (hold rules) before it runs. */
const callStatusSchema = z.enum(['running', 'held', 'ok', 'error', 'cancelled']);
export type CallStatus = z.infer<typeof callStatusSchema>;

/** Where the tool acted, so the live view can outline it for a moment. */
const actedOnSchema = z.object({
  pageId: z.number(),
  rect: z.object({x: z.number(), y: z.number(), width: z.number(), height: z.number()}),
});

const toolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  category: categorySchema,
  /** Feature flags the tool needs besides its category. */
  conditions: z.array(conditionSchema).optional(),
  readOnly: z.boolean(),
  enabled: z.boolean(),
  /** Why the tool is not offered to clients, naming the switch that turns it on. */
  disabledReason: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  /** Characters of the tool's definition as a client receives it in tools/list. */
  definitionChars: z.number(),
  estimatedTokens: z.number(),
});
export type ToolInfo = z.infer<typeof toolInfoSchema>;

export const categoryStateSchema = z.object({
  id: categorySchema,
  label: z.string(),
  enabled: z.boolean(),
  offByDefault: z.boolean(),
  flag: z.string(),
});
export type CategoryState = z.infer<typeof categoryStateSchema>;

/** A feature flag that gates single tools (--memoryDebugging, --experimentalVision, …). */
export const conditionStateSchema = z.object({
  id: conditionSchema,
  label: z.string(),
  enabled: z.boolean(),
  /** The flag that turns it on (or, for javascriptEvaluation, off). */
  flag: z.string(),
  /** Whether the inspector may switch it at run time. */
  switchable: z.boolean(),
});
export type ConditionState = z.infer<typeof conditionStateSchema>;

const pageInfoSchema = z.object({
  id: z.number(),
  url: z.string(),
  title: z.string(),
  /** For an agent: its own selection. For the inspector: the Run panel's own selection. */
  selected: z.boolean(),
  isolatedContext: z.string().optional(),
  /** The page that opened this one (a popup: window.open, a target=_blank link). */
  openedBy: z.number().optional(),
  /** Inspector only: the client session that opened the page (absent: the person or the browser). */
  owner: z.object({id: z.string(), name: z.string(), isolated: z.boolean()}).optional(),
  /** Inspector only: the client sessions that have this page selected. */
  selectedBy: z.array(z.string()).optional(),
});
export type PageInfo = z.infer<typeof pageInfoSchema>;

const browserStatusSchema = z.object({
  state: z.enum(['idle', 'starting', 'running', 'disconnected', 'error']),
  mode: z.enum(['launch', 'connect']),
  version: z.string().optional(),
  headless: z.boolean().optional(),
  note: z.string().optional(),
  error: z.string().optional(),
  webmcp: z.object({available: z.boolean(), reason: z.string().optional()}).optional(),
});
export type BrowserStatus = z.infer<typeof browserStatusSchema>;

// --- Events ---------------------------------------------------------------------------------

export const inspectorEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('toolCallStarted'),
    callId: z.string(),
    tool: z.string(),
    args: z.record(z.string(), z.unknown()),
    client: clientRefSchema,
    pageId: z.number().optional(),
  }),
  z.object({
    type: z.literal('toolCallEnded'),
    callId: z.string(),
    tool: z.string(),
    status: callStatusSchema,
    durationMs: z.number(),
    result: toolResultSchema,
    errorText: z.string().optional(),
    pageId: z.number().optional(),
    actedOn: actedOnSchema.optional(),
    telemetry: telemetryRecordSchema.optional(),
  }),
  z.object({
    type: z.literal('toolsChanged'),
    slim: z.boolean(),
    categories: z.array(categoryStateSchema),
    conditions: z.array(conditionStateSchema).optional(),
    tools: z.array(toolInfoSchema),
  }),
  z.object({type: z.literal('pagesChanged'), pages: z.array(pageInfoSchema)}),
  z.object({type: z.literal('browserStatus'), status: browserStatusSchema}),
  z.object({type: z.literal('clientConnected'), client: clientRefSchema}),
  z.object({
    type: z.literal('clientDisconnected'),
    clientId: z.string(),
    /** Older recordings have neither. */
    reason: clientEndReasonSchema.optional(),
    at: z.number().optional(),
  }),
  /** A client became live (a stream or request opened) or stopped being live (none for a while). */
  z.object({
    type: z.literal('clientActivity'),
    clientId: z.string(),
    live: z.boolean(),
    lastActivityAt: z.number(),
  }),
  /** Client sessions started from now on get (or no longer get) a browser context of their own. */
  z.object({type: z.literal('isolateClientsChanged'), enabled: z.boolean()}),
  /** The server closed a client session: idle past the expiry, or the oldest idle over the cap. */
  z.object({
    type: z.literal('clientSessionExpired'),
    client: clientRefSchema,
    reason: z.enum(['idle', 'limit']),
    idleMs: z.number(),
  }),
  z.object({
    type: z.literal('telemetry'),
    callId: z.string().optional(),
    record: telemetryRecordSchema,
  }),
  /**
   * A page's tools: the whole list (it replaces what was known), or with `delta` only what changed
   * (`tools` added or changed, `removed` gone), so a page registering many tools costs each once.
   */
  z.object({
    type: z.literal('webmcpToolsChanged'),
    pageId: z.number(),
    tools: z.array(webmcpToolSchema),
    delta: z.literal(true).optional(),
    removed: z.array(z.object({frameId: z.string(), name: z.string()})).optional(),
  }),
  z.object({type: z.literal('webmcpInvocation'), invocation: webmcpInvocationSchema}),
  /**
   * Who the element arguments (uids) of a call were when it started: role, name and ancestry from
   * the snapshot the agent acted on, so a replay can find the same element in a fresh snapshot and
   * an export can write role-based locators.
   */
  z.object({
    type: z.literal('callElements'),
    callId: z.string(),
    elements: z.array(recordedElementSchema),
  }),
  // Hold rules: the queue of held calls and how each one left it (hold.ts).
  ...holdEventSchemas,
  /** An event that could not be kept as it was (malformed or past every bound): what it was. */
  z.object({type: z.literal('eventOmitted'), omittedType: z.string(), reason: z.string()}),
  // --- Recording ---
  /** What happened on the call's page while it ran (sent right after its toolCallEnded). */
  z.object({
    type: z.literal('callActivity'),
    callId: z.string(),
    pageId: z.number(),
    items: z.array(callActivityItemSchema),
    /** Items left out to keep one call's record bounded. */
    dropped: z.number().int().nonnegative(),
  }),
  /** The call's page before and after it ran (from the live view's frames, or one small capture). */
  z.object({
    type: z.literal('callScreenshots'),
    callId: z.string(),
    pageId: z.number(),
    before: callImageSchema.optional(),
    after: callImageSchema.optional(),
  }),
  // Replay of a recording into the live browser: one event per replayed call,
  // then one when the replay is over.
  z.object({
    type: z.literal('replayProgress'),
    replayId: z.string(),
    recordingId: z.string(),
    /** How many calls this replay runs. */
    total: z.number().int(),
    call: replayCallReportSchema,
  }),
  z.object({
    type: z.literal('replayFinished'),
    replayId: z.string(),
    recordingId: z.string(),
    summary: replaySummarySchema,
    /** Set when the replay stopped early (the browser went away, the recording is unreadable). */
    error: z.string().optional(),
  }),
]);
export type InspectorEvent = z.infer<typeof inspectorEventSchema>;

export const eventEnvelopeSchema = z.object({
  seq: z.number().int(),
  time: z.number(),
  event: inspectorEventSchema,
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/** State that is not a stream: what a UI needs to draw before any event arrives. */
export const inspectorStateSchema = z.object({
  serverVersion: z.string(),
  mcpUrl: z.string().optional(),
  inspectorUrl: z.string().optional(),
  telemetryLogPath: z.string().optional(),
  slim: z.boolean(),
  categories: z.array(categoryStateSchema),
  conditions: z.array(conditionStateSchema).optional(),
  tools: z.array(toolInfoSchema),
  pages: z.array(pageInfoSchema),
  browser: browserStatusSchema,
  clients: z.array(connectedClientSchema),
  /** Client sessions that ended, newest first (bounded). */
  closedClients: z.array(closedClientSchema).optional(),
  /** New client sessions get a browser context of their own (--isolateClients or the switch). */
  isolateClients: z.boolean().optional(),
  webmcpTools: z.array(webmcpToolSchema),
});
export type InspectorState = z.infer<typeof inspectorStateSchema>;

// --- Commands -------------------------------------------------------------------------------

export const inspectorCommandSchema = z.discriminatedUnion('type', [
  z.object({type: z.literal('getState')}),
  z.object({type: z.literal('setCategoryEnabled'), category: categorySchema, enabled: z.boolean()}),
  z.object({
    type: z.literal('setConditionEnabled'),
    condition: conditionSchema,
    enabled: z.boolean(),
  }),
  /** Exactly the tools/list result an MCP client receives now. */
  z.object({type: z.literal('getToolsList')}),
  z.object({
    type: z.literal('runTool'),
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
  }),
  z.object({type: z.literal('getToken')}),
  /** Client sessions started after this get (or no longer get) a browser context of their own. */
  z.object({type: z.literal('setIsolateClients'), enabled: z.boolean()}),
  z.object({type: z.literal('startLiveView'), pageId: z.number().int().optional()}),
  z.object({type: z.literal('stopLiveView')}),
  z.object({type: z.literal('webmcpListTools'), pageId: z.number().int().optional()}),
  z.object({
    type: z.literal('webmcpExecute'),
    pageId: z.number().int(),
    frameId: z.string(),
    toolName: z.string(),
    input: z.string(),
    /** Cancel after this long (default 120 s). */
    timeoutMs: z.number().int().positive().optional(),
  }),
  z.object({type: z.literal('webmcpCancel'), invocationId: z.string()}),
  z.object({
    type: z.literal('webmcpHighlightForm'),
    pageId: z.number().int(),
    frameId: z.string(),
    toolName: z.string(),
  }),
  z.object({type: z.literal('webmcpDoctor'), pageId: z.number().int().optional()}),
  // Hold rules: set them, decide on held calls (hold.ts).
  ...holdCommandSchemas,
  // --- Recordings: addressed by id (their file name), never by path.
  z.object({type: z.literal('recordingsList')}),
  /** One chunk of a recording's text, from `offset` (bytes) to a line end. */
  z.object({
    type: z.literal('recordingRead'),
    id: recordingIdSchema,
    offset: z.number().int().nonnegative().optional(),
    /** Smaller first chunks show the first rows sooner (default and cap: 4 MiB). */
    maxBytes: z.number().int().positive().optional(),
  }),
  z.object({
    type: z.literal('recordingImage'),
    id: recordingIdSchema,
    file: recordingImageFileSchema,
  }),
  z.object({type: z.literal('recordingDelete'), id: recordingIdSchema}),
  /** A starred recording is never removed by retention. */
  z.object({type: z.literal('recordingStar'), id: recordingIdSchema, starred: z.boolean()}),
  /** Calls across all recordings whose tool, URL or error text contains the query. */
  z.object({type: z.literal('recordingsSearch'), query: z.string().trim().min(1).max(200)}),
  /** Every MCP Browser Inspector running for this user on this machine (the runtime folder). */
  z.object({type: z.literal('listServers')}),
  // Replay and export of recordings.
  /** Replays the recording into the live browser; progress arrives as replayProgress events. */
  z.object({
    type: z.literal('replayRecording'),
    recordingId: recordingIdSchema,
    /** Replay calls 1..untilCall only ("replay up to here"). */
    untilCall: z.number().int().positive().optional(),
  }),
  z.object({
    type: z.literal('exportRecording'),
    recordingId: recordingIdSchema,
    format: exportFormatSchema,
    untilCall: z.number().int().positive().optional(),
  }),
]);
export type InspectorCommand = z.infer<typeof inspectorCommandSchema>;
export type InspectorCommandType = InspectorCommand['type'];

// --- Streams -------------------------------------------------------------------------------

export const eventBatchSchema = z.object({
  events: z.array(eventEnvelopeSchema),
  /** Events evicted from the bounded store since the server started. */
  dropped: z.number().int(),
  /** The sequence id the next event will get. */
  nextSeq: z.number().int(),
  /**
   * Random id of this event stream (one per server run). A new id after a reconnect means the
   * server restarted and its sequence ids started over.
   */
  streamId: z.string().optional(),
});
export type EventBatch = z.infer<typeof eventBatchSchema>;

export const liveFrameSchema = z.object({
  pageId: z.number(),
  mimeType: z.string(),
  data: z.string(),
  /** Size of the page's viewport in CSS pixels, to place the acted-on outline over the image. */
  viewport: z.object({width: z.number(), height: z.number()}).optional(),
});
export type LiveFrame = z.infer<typeof liveFrameSchema>;
