/**
 * View model of the Telemetry panel: the records exactly as produced (newest first, a bounded
 * window), the field help, and where they are kept (--telemetryLog).
 */
import {useMemo} from 'react';
import {TELEMETRY_FIELD_HELP} from '../../../../shared/telemetry.js';
import {useSnapshot} from '../../app/InspectorContext.js';
import type {TelemetryEntry} from '../../store/InspectorStore.js';

/** Records rendered at once; older ones stay in the export. */
export const TELEMETRY_SHOWN = 200;

export interface TelemetryModel {
  records: readonly TelemetryEntry[];
  total: number;
  fieldHelp: readonly {field: string; help: string}[];
  telemetryLogPath: string | undefined;
}

export function useTelemetryModel(): TelemetryModel {
  const telemetry = useSnapshot(snapshot => snapshot.offline?.telemetry ?? snapshot.telemetry);
  const telemetryLogPath = useSnapshot(snapshot => snapshot.server?.telemetryLogPath);
  const records = useMemo(() => telemetry.slice(-TELEMETRY_SHOWN).reverse(), [telemetry]);
  const fieldHelp = useMemo(
    () => Object.entries(TELEMETRY_FIELD_HELP).map(([field, help]) => ({field, help})),
    [],
  );
  return {records, total: telemetry.length, fieldHelp, telemetryLogPath};
}
