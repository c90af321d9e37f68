/**
 * A filtered view of a CallLog, kept up to date incrementally: new calls are checked once as they
 * arrive, and calls that changed (ended) are re-checked from the log's update list. Only a filter
 * change (or a trim of the log) rescans everything, so 100k rows cost nothing per batch.
 */
import type {CallStatus} from '../../../shared/protocol.js';
import type {CallLog, CallRecord} from './CallLog.js';
import {callLine} from './callLine.js';

export interface LogFilter {
  tool: string;
  status: CallStatus | '';
  clientId: string;
  text: string;
}

export const CALL_STATUSES: readonly CallStatus[] = ['running', 'held', 'ok', 'error', 'cancelled'];

export const EMPTY_FILTER: LogFilter = {tool: '', status: '', clientId: '', text: ''};

export function isEmptyFilter(filter: LogFilter): boolean {
  return filter.tool === '' && filter.status === '' && filter.clientId === '' && filter.text === '';
}

/** Lower-cased searchable text of a call, built lazily once per record object. */
const searchText = new WeakMap<CallRecord, string>();

function textOf(record: CallRecord): string {
  let text = searchText.get(record);
  if (text === undefined) {
    text = [
      // The line says what it acted on (`click button "Press me"`): searchable as shown.
      callLine(record),
      record.client.name,
      record.status,
      JSON.stringify(record.args),
      record.errorText ?? '',
      record.result?.text.slice(0, 4_000) ?? '',
    ]
      .join('\n')
      .toLowerCase();
    searchText.set(record, text);
  }
  return text;
}

export function matches(record: CallRecord, filter: LogFilter): boolean {
  if (filter.tool !== '' && record.tool !== filter.tool) {
    return false;
  }
  if (filter.status !== '' && record.status !== filter.status) {
    return false;
  }
  if (filter.clientId !== '' && record.client.id !== filter.clientId) {
    return false;
  }
  const needle = filter.text.trim().toLowerCase();
  return needle === '' || textOf(record).includes(needle);
}

export interface LogQueryResult {
  /** Ordinals of matching calls, ascending. Do not mutate. */
  ordinals: readonly number[];
  version: number;
}

export class LogQuery {
  #ordinals: number[] = [];
  #scannedTo = 0;
  #updatesCursor = 0;
  #firstOrdinal = 0;
  #logVersion = -1;
  #result: LogQueryResult = {ordinals: [], version: -1};

  constructor(
    readonly log: CallLog,
    readonly filter: LogFilter,
  ) {}

  /** Brings the result up to date with the log; returns the same object while nothing changed. */
  current(): LogQueryResult {
    const log = this.log;
    if (log.version === this.#logVersion) {
      return this.#result;
    }
    const updates = log.updatesSince(this.#updatesCursor);
    if (
      this.#logVersion === -1 ||
      updates === undefined ||
      log.firstOrdinal !== this.#firstOrdinal ||
      this.#scannedTo < log.firstOrdinal
    ) {
      this.#rescan();
    } else {
      this.#apply(updates);
    }
    this.#logVersion = log.version;
    this.#result = {ordinals: this.#ordinals, version: log.version};
    return this.#result;
  }

  #rescan(): void {
    const log = this.log;
    this.#ordinals = [];
    for (const record of log.records()) {
      if (matches(record, this.filter)) {
        this.#ordinals.push(record.ordinal);
      }
    }
    this.#scannedTo = log.nextOrdinal;
    this.#updatesCursor = log.updatesEnd;
    this.#firstOrdinal = log.firstOrdinal;
  }

  #apply(updates: readonly number[]): void {
    const log = this.log;
    // Only a filter that depends on what changes when a call ends (status, text) can flip a row.
    const sensitive = this.filter.status !== '' || this.filter.text.trim() !== '';
    if (sensitive) {
      for (const ordinal of new Set(updates)) {
        if (ordinal >= this.#scannedTo) {
          continue;
        }
        const record = log.at(ordinal);
        const included = binarySearch(this.#ordinals, ordinal);
        const match = record !== undefined && matches(record, this.filter);
        if (match && included < 0) {
          this.#ordinals.splice(-included - 1, 0, ordinal);
        } else if (!match && included >= 0) {
          this.#ordinals.splice(included, 1);
        }
      }
    }
    this.#updatesCursor = log.updatesEnd;
    for (let ordinal = this.#scannedTo; ordinal < log.nextOrdinal; ordinal++) {
      const record = log.at(ordinal);
      if (record && matches(record, this.filter)) {
        this.#ordinals.push(ordinal);
      }
    }
    this.#scannedTo = log.nextOrdinal;
  }
}

/** Index of `value`, or -(insertion point) - 1 when absent. */
function binarySearch(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = sorted[middle] ?? 0;
    if (candidate < value) {
      low = middle + 1;
    } else if (candidate > value) {
      high = middle - 1;
    } else {
      return middle;
    }
  }
  return -low - 1;
}
