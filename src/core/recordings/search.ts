/**
 * Search across recordings: calls whose tool name, URL (the call's url argument, the
 * navigations and requests it caused) or error text contains the query, case-insensitively.
 * Lines are tested as text before any parse, so a search reads files at disk speed; hits are
 * bounded overall and per recording.
 */
import type {RecordingSearchHit, ReplyMap, UnreadRecording} from '../../shared/replies.js';
import {MAX_RECORDING_LINE_BYTES, type LineWalk} from './lineReader.js';
import {walkRecording} from './scan.js';
import {MAX_READ_RECORDING_BYTES, tooLargeReason, type StoredRecording} from './recordingFiles.js';

export const MAX_SEARCH_HITS = 200;
const MAX_HITS_PER_RECORDING = 50;
const MAX_HIT_TEXT = 300;

function clip(text: string): string {
  return text.length > MAX_HIT_TEXT ? `${text.slice(0, MAX_HIT_TEXT)}…` : text;
}

const SEARCHED_TYPES = ['"toolCallStarted"', '"toolCallEnded"', '"callActivity"'];

async function searchOne(
  recording: StoredRecording,
  needle: string,
  room: number,
  walk: LineWalk,
): Promise<RecordingSearchHit[]> {
  const hits: RecordingSearchHit[] = [];
  const tools = new Map<string, string>();
  const seen = new Set<string>();
  let startedAt = 0;
  const limit = Math.min(room, MAX_HITS_PER_RECORDING);
  const add = (hit: Omit<RecordingSearchHit, 'recordingId' | 'recordingStartedAt'>): void => {
    const key = `${hit.callId}:${hit.field}`;
    if (!seen.has(key) && hit.text.toLowerCase().includes(needle)) {
      seen.add(key);
      hits.push({
        ...hit,
        recordingId: recording.id,
        recordingStartedAt: startedAt,
        text: clip(hit.text),
      });
    }
  };
  await walkRecording(
    recording,
    // Started lines are always read (they name each call's tool); others only when they match.
    line =>
      line.includes('"toolCallStarted"') ||
      (SEARCHED_TYPES.some(type => line.includes(type)) && line.toLowerCase().includes(needle)),
    ({seq, event}) => {
      if (event.type === 'toolCallStarted') {
        tools.set(event.callId, event.tool);
        add({callId: event.callId, tool: event.tool, seq, field: 'tool', text: event.tool});
        const url = event.args.url;
        if (typeof url === 'string') {
          add({callId: event.callId, tool: event.tool, seq, field: 'url', text: url});
        }
      } else if (event.type === 'toolCallEnded' && event.errorText !== undefined) {
        add({callId: event.callId, tool: event.tool, seq, field: 'error', text: event.errorText});
      } else if (event.type === 'callActivity') {
        const tool = tools.get(event.callId) ?? '';
        for (const item of event.items) {
          if (item.kind === 'navigation' || item.kind === 'request') {
            add({callId: event.callId, tool, seq, field: 'url', text: item.url});
          }
        }
      }
      return hits.length < limit;
    },
    header => {
      startedAt = header.startedAt;
    },
    walk,
  );
  return hits;
}

/**
 * Hits across `recordings` (newest first), at most MAX_SEARCH_HITS; what was not searched (a file
 * too large to read, lines longer than a recording's) is named.
 */
export async function searchRecordings(
  recordings: readonly StoredRecording[],
  query: string,
): Promise<ReplyMap['recordingsSearch']> {
  const needle = query.trim().toLowerCase();
  const hits: RecordingSearchHit[] = [];
  const notSearched: UnreadRecording[] = [];
  const answer = (truncated: boolean): ReplyMap['recordingsSearch'] => ({
    hits,
    truncated,
    ...(notSearched.length > 0 ? {notSearched} : {}),
  });
  for (const recording of recordings) {
    if (hits.length >= MAX_SEARCH_HITS) {
      return answer(true);
    }
    const {id, bytes} = recording;
    if (recording.fileBytes > MAX_READ_RECORDING_BYTES) {
      notSearched.push({id, bytes, reason: tooLargeReason(recording.fileBytes)});
      continue;
    }
    const walk: LineWalk = {overlongLines: 0};
    try {
      hits.push(...(await searchOne(recording, needle, MAX_SEARCH_HITS - hits.length, walk)));
    } catch {
      // Removed or unreadable meanwhile: the other recordings still answer.
    }
    if (walk.overlongLines > 0) {
      const reason = `${walk.overlongLines} line(s) longer than ${MAX_RECORDING_LINE_BYTES / (1024 * 1024)} MB, which no recorder writes, were not searched`;
      notSearched.push({id, bytes, reason});
    }
  }
  return answer(hits.length >= MAX_SEARCH_HITS);
}
