/**
 * Recorded URLs for a server that moved (a dev server on another port, staging instead of local):
 * `--origin OLD=NEW` maps each recorded origin to the one it runs at now, in the recording's
 * arguments, results and page lists alike, before a replay or an export reads it. Only whole
 * origins are replaced (`http://localhost:3000` is not a prefix of `http://localhost:30001`).
 */
import {eventEnvelopeSchema, type EventEnvelope} from '../../shared/protocol.js';
import type {ParsedRecording} from '../../shared/recordingFile.js';

/** Recorded origin → the origin it maps to. */
export type OriginMap = ReadonlyMap<string, string>;

/** The origin of a URL given as an origin (http or https, no path, no credentials). */
function originOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '';
  const plain = url.username === '' && url.password === '';
  return (url.protocol === 'http:' || url.protocol === 'https:') && bare && plain
    ? url.origin
    : undefined;
}

/** `OLD=NEW` as two origins, or a message saying what is wrong with it. */
export function parseOriginMapping(text: string): {from: string; to: string} | {error: string} {
  const split = text.indexOf('=');
  const from = originOf(text.slice(0, split));
  const to = originOf(text.slice(split + 1));
  if (split < 0 || from === undefined || to === undefined) {
    return {
      error: `--origin takes OLD=NEW, two origins such as http://localhost:3000=http://localhost:5173; got ${JSON.stringify(text)}.`,
    };
  }
  return {from, to};
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The recording with every mapped origin replaced (events that would not check stay as they were). */
export function mapRecordingOrigins(
  recording: ParsedRecording,
  origins: OriginMap,
): ParsedRecording {
  if (origins.size === 0) {
    return recording;
  }
  // An origin ends where a URL's path, query, fragment, a quote or the text does.
  const pattern = new RegExp(
    `(${[...origins.keys()].map(escapeRegExp).join('|')})(?=[/?#"'\\s)\\]\\\\,;]|$)`,
    'g',
  );
  const events = recording.events.map((envelope): EventEnvelope => {
    const text = JSON.stringify(envelope);
    const mapped = text.replace(pattern, origin => origins.get(origin) ?? origin);
    if (mapped === text) {
      return envelope;
    }
    const checked = eventEnvelopeSchema.safeParse(JSON.parse(mapped));
    return checked.success ? checked.data : envelope;
  });
  return {...recording, events};
}
