/**
 * What each inspector command answers: one zod schema per command. The engine's handlers are typed
 * from these (a handler must return its command's reply), and a UI checks every reply against the
 * schema of the command it sent, so the two cannot drift apart unnoticed.
 */
import {z} from 'zod';
import {holdReplySchemas} from './hold.js';
import {runningServerSchema} from './runningServers.js';
import {
  categoryStateSchema,
  conditionStateSchema,
  inspectorStateSchema,
  toolResultSchema,
  webmcpDoctorReportSchema,
  webmcpInvocationSchema,
  webmcpToolSchema,
  exportFormatSchema,
  type InspectorCommand,
  type InspectorCommandType,
} from './protocol.js';

// --- Recordings ---

export const recordingSummarySchema = z.object({
  id: z.string(),
  /** A replay's own recording: the id (file name) of the recording it replayed. */
  replayOf: z.string().optional(),
  startedAt: z.number(),
  durationMs: z.number().nonnegative(),
  /** Client names that made calls (or connected). */
  clients: z.array(z.string()),
  calls: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** The recording's file plus its images. */
  bytes: z.number().int().nonnegative(),
  /** The recording this server is writing now (cannot be deleted). */
  current: z.boolean(),
  /** Lines read past without being read: longer than a recording's lines can be. */
  skippedLines: z.number().int().nonnegative().optional(),
  /** The user starred it: retention never removes it. */
  starred: z.boolean(),
});
export type RecordingSummary = z.infer<typeof recordingSummarySchema>;

/** A file of the recordings folder that was not read, and why (shown, so nothing is hidden). */
export const unreadRecordingSchema = z.object({
  id: z.string(),
  bytes: z.number().int().nonnegative(),
  reason: z.string(),
});
export type UnreadRecording = z.infer<typeof unreadRecordingSchema>;

export const recordingListSchema = z.object({
  recording: z.boolean(),
  retention: z.object({
    /** A recording last written longer ago than this is removed (unless starred). */
    maxAgeMs: z.number().int().positive(),
    maxBytes: z.number().int().positive(),
    /** A bound on how many the folder holds (far above a day of short runs). */
    maxRecordings: z.number().int().positive(),
    totalBytes: z.number().int().nonnegative(),
    /** Recordings removed by retention since this server started. */
    removed: z.number().int().nonnegative(),
  }),
  recordings: z.array(recordingSummarySchema),
  /** Files not listed: too large to read. */
  notListed: z.array(unreadRecordingSchema).optional(),
});
export type RecordingList = z.infer<typeof recordingListSchema>;

export const recordingSearchHitSchema = z.object({
  recordingId: z.string(),
  recordingStartedAt: z.number(),
  callId: z.string(),
  tool: z.string(),
  seq: z.number().int(),
  field: z.enum(['tool', 'url', 'error']),
  /** The matching text (bounded). Untrusted: from a page or a client. */
  text: z.string(),
});
export type RecordingSearchHit = z.infer<typeof recordingSearchHitSchema>;

/** One tool as an MCP client receives it in tools/list: shown as is; only its name is read. */
const listedToolSchema = z.object({name: z.string()}).loose();

const replySchemaTable = {
  getState: inspectorStateSchema,
  setCategoryEnabled: z.array(categoryStateSchema),
  setConditionEnabled: z.array(conditionStateSchema),
  /** Exactly the tools/list result an MCP client receives now. */
  getToolsList: z.object({tools: z.array(listedToolSchema)}),
  /** The tool's result as the log shows it, and whether the tool reported an error. */
  runTool: toolResultSchema.extend({isError: z.boolean()}),
  getToken: z.object({token: z.string()}),
  setIsolateClients: z.object({enabled: z.boolean()}),
  /** The page the live view watches now (null: no page to watch yet). */
  startLiveView: z.object({pageId: z.number().nullable()}),
  stopLiveView: z.null(),
  webmcpListTools: z.array(webmcpToolSchema),
  /** The invocation started; its progress arrives as webmcpInvocation events. */
  webmcpExecute: z.object({invocationId: z.string()}),
  /** The invocation as it is after the cancel was sent. */
  webmcpCancel: webmcpInvocationSchema,
  /** Where the form is outlined, in CSS pixels of its frame. */
  webmcpHighlightForm: z.object({
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
  }),
  webmcpDoctor: webmcpDoctorReportSchema,
  // Hold rules: every hold command answers the hold state after it.
  ...holdReplySchemas,
  // --- Recordings ---
  recordingsList: recordingListSchema,
  recordingRead: z.object({
    text: z.string(),
    /** Where the next chunk starts; equals `size` at the end. */
    nextOffset: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
    done: z.boolean(),
    /** Lines in this chunk read past: longer than a recording's lines can be. */
    skippedLines: z.number().int().nonnegative().optional(),
  }),
  recordingImage: z.object({mimeType: z.string(), data: z.string()}),
  recordingDelete: z.object({id: z.string()}),
  recordingsSearch: z.object({
    hits: z.array(recordingSearchHitSchema),
    truncated: z.boolean(),
    /** Files not searched (too large), and recordings with lines read past. */
    notSearched: z.array(unreadRecordingSchema).optional(),
  }),
  recordingStar: z.object({id: z.string(), starred: z.boolean()}),
  listServers: z.object({servers: z.array(runningServerSchema)}),
  // Replay and export of recordings.
  /** The replay started; its calls arrive as replayProgress events, then replayFinished. */
  replayRecording: z.object({replayId: z.string(), total: z.number().int()}),
  /** The test file's text, and a file name to save it under. */
  exportRecording: z.object({text: z.string(), fileName: z.string(), format: exportFormatSchema}),
};

/** The reply value of each command type. */
export type ReplyMap = {
  [K in keyof typeof replySchemaTable]: z.infer<(typeof replySchemaTable)[K]>;
};

/** The reply schema of each command type (typed so that `commandReplySchemas[type]` keeps `type`). */
export const commandReplySchemas: {[K in InspectorCommandType]: z.ZodType<ReplyMap[K]>} =
  replySchemaTable;

/** The command of one type. */
export type CommandOf<K extends InspectorCommandType> = Extract<InspectorCommand, {type: K}>;

/** What a command of type K answers across the boundary: its reply, or an error for the user. */
export type CommandResult<K extends InspectorCommandType = InspectorCommandType> =
  {ok: true; value: ReplyMap[K]} | {ok: false; error: string};
