/**
 * The Telemetry panel's view model, pure: the records exactly as produced, newest first and
 * bounded to what is drawn at once (older ones stay in the export), and the field help.
 */
import {TELEMETRY_FIELD_HELP} from '../../../../shared/telemetry.js';
import type {TelemetryEntry} from '../../store/telemetryEntry.js';

/** Records rendered at once; older ones stay in the export. */
export const TELEMETRY_SHOWN = 200;

/** What each field of a record means, in the order of the record. */
export const FIELD_HELP: readonly {field: string; help: string}[] = Object.entries(
  TELEMETRY_FIELD_HELP,
).map(([field, help]) => ({field, help}));

/** The newest records first, at most TELEMETRY_SHOWN of them. */
export function shownRecords(entries: readonly TelemetryEntry[]): TelemetryEntry[] {
  return entries.slice(-TELEMETRY_SHOWN).reverse();
}
