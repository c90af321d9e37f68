/**
 * What older files wrote differently, read as today's: the Log panel's former export format
 * (`mcp-browser-inspector.session`, with its own header line or none) and events recorded under
 * the names they had before the vocabulary of docs/architecture.md ("Words").
 */
import {z} from 'zod';
import {isRecord} from './values.js';

/** The format value of the Log panel's former export; files in it still open. */
export const LEGACY_LOG_EXPORT_FORMAT = 'mcp-browser-inspector.session';

const legacyHeaderSchema = z.object({
  format: z.literal(LEGACY_LOG_EXPORT_FORMAT),
  version: z.number().int(),
  exportedAt: z.string().optional(),
  serverVersion: z.string().optional(),
});

/** The latest time a Date can hold. */
const MAX_EPOCH_MS = 8.64e15;

export interface LegacyHeader {
  /** Epoch ms, when the header said (and it was a date). */
  exportedAt?: number;
  serverVersion?: string;
}

/** The former Log export's header line, if `firstLine` is one. */
export function legacyHeader(firstLine: unknown): LegacyHeader | undefined {
  const header = legacyHeaderSchema.safeParse(firstLine);
  if (!header.success) {
    return undefined;
  }
  const {exportedAt, serverVersion} = header.data;
  const time = exportedAt === undefined ? Number.NaN : Date.parse(exportedAt);
  return {
    ...(Number.isFinite(time) && time >= 0 && time <= MAX_EPOCH_MS ? {exportedAt: time} : {}),
    ...(serverVersion === undefined ? {} : {serverVersion}),
  };
}

/** Event types recorded under an older name. */
const RENAMED_TYPES = new Map([['sessionExpired', 'clientSessionExpired']]);
/** Fields of an event type recorded under an older name (old → new). */
const RENAMED_FIELDS = new Map([
  ['replayProgress', new Map([['sessionId', 'recordingId']])],
  ['replayFinished', new Map([['sessionId', 'recordingId']])],
]);

/**
 * One envelope as parsed JSON, with an older event type or field name replaced by today's (a
 * shallow copy; anything else is returned as it is, for the event schema to judge).
 */
export function upgradeLegacyEvent(json: unknown): unknown {
  if (!isRecord(json) || !isRecord(json.event)) {
    return json;
  }
  const {event} = json;
  const recordedType = event.type;
  if (typeof recordedType !== 'string') {
    return json;
  }
  const type = RENAMED_TYPES.get(recordedType) ?? recordedType;
  const fields = RENAMED_FIELDS.get(type);
  if (type === recordedType && fields === undefined) {
    return json;
  }
  const entries = Object.entries(event).map(([key, value]): [string, unknown] => {
    const renamed = fields?.get(key);
    return renamed !== undefined && !Object.hasOwn(event, renamed)
      ? [renamed, value]
      : [key, value];
  });
  return {...json, event: {...Object.fromEntries(entries), type}};
}
