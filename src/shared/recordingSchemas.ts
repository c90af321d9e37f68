/**
 * The schemas of recordings the inspector protocol carries: who an element argument was,
 * what a call did on its page, replay reports, export formats, and how recordings are addressed
 * (by file name, never by path). protocol.ts re-exports them.
 */
import {z} from 'zod';

/** A recording's id: its file name in the recordings folder (no folders, no dot-dot). */
export const recordingIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.jsonl$/)
  .max(160);
/** An image's file name inside a recording's images folder. */
export const recordingImageFileSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*\.(?:jpeg|jpg|png|webp)$/)
  .max(120);

/** One snapshot node as a replay or an export finds it again: by role and name, not by uid. */
export const recordedElementSchema = z.object({
  /** The argument that named it (uid, from_uid, to_uid, elements[i].uid, args[i]). */
  param: z.string(),
  uid: z.string(),
  role: z.string(),
  name: z.string(),
  /** A field: chooses an option (`select`), is typed into (`text`), reacts to each key (`keys`). */
  field: z.enum(['select', 'text', 'keys']).optional(),
  /** Nearest named ancestors first (role and name), for telling same-named elements apart. */
  ancestry: z.array(z.object({role: z.string(), name: z.string()})),
  /** Which of the snapshot's nodes with the same role and name it was (0-based), as a last resort. */
  nth: z.number().int().nonnegative(),
});
export type RecordedElement = z.infer<typeof recordedElementSchema>;

// --- Recording: what each call did ---------------------------------------------------------------

/** One thing that happened on the call's page while it ran. `time` is epoch milliseconds. */
export const callActivityItemSchema = z.discriminatedUnion('kind', [
  z.object({kind: z.literal('navigation'), time: z.number(), url: z.string()}),
  z.object({
    kind: z.literal('dialog'),
    time: z.number(),
    dialogType: z.string(),
    message: z.string(),
  }),
  z.object({kind: z.literal('console'), time: z.number(), level: z.string(), text: z.string()}),
  z.object({
    kind: z.literal('request'),
    time: z.number(),
    method: z.string(),
    url: z.string(),
    /** `200`, the failure text, or `pending` when the call ended first. */
    status: z.string(),
  }),
  /** The call's changes to the page's document (counted when the call ends). */
  z.object({
    kind: z.literal('dom'),
    time: z.number(),
    /** Nodes added, removed, or whose text or attributes changed. */
    nodes: z.number().int().nonnegative(),
    /** The first few texts that appeared (and are still there). */
    texts: z.array(z.string()),
  }),
  z.object({
    kind: z.literal('webmcp'),
    time: z.number(),
    invocationId: z.string(),
    toolName: z.string(),
    status: z.string(),
  }),
]);
export type CallActivityItem = z.infer<typeof callActivityItemSchema>;

/** A small screenshot of the call's page; `data` live, `file` (and data '') in a recording. */
export const callImageSchema = z.object({
  mimeType: z.string(),
  data: z.string(),
  file: z.string().optional(),
  time: z.number(),
  /** The page's viewport in CSS pixels, to place the acted-on outline over the image. */
  viewport: z.object({width: z.number(), height: z.number()}).optional(),
});
export type CallImage = z.infer<typeof callImageSchema>;

// --- Replay and export of recordings -------------------------------------------------------------

/** How one replayed call compared with its recording. */
export const replayCallReportSchema = z.object({
  /** 1-based position among the recording's calls. */
  index: z.number().int().positive(),
  tool: z.string(),
  /** Name of the client that made the recorded call. */
  client: z.string(),
  outcome: z.enum(['same', 'different', 'failed']),
  recordedStatus: z.string(),
  replayedStatus: z.string(),
  /** Why the call failed, or what differs. */
  reason: z.string().optional(),
  /** A short line diff of the normalised text results. */
  diff: z.string().optional(),
  recordedMs: z.number().optional(),
  replayMs: z.number(),
});
export type ReplayCallReport = z.infer<typeof replayCallReportSchema>;

export const replaySummarySchema = z.object({
  total: z.number().int(),
  same: z.number().int(),
  different: z.number().int(),
  failed: z.number().int(),
  recordedMs: z.number(),
  replayMs: z.number(),
  /** Why the replay ended before its last call (an origin it could not reach). */
  stopped: z.string().optional(),
});
export type ReplaySummary = z.infer<typeof replaySummarySchema>;

export const EXPORT_FORMATS = ['playwright'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;
