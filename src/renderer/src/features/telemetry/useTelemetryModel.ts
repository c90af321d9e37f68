/**
 * The Telemetry panel's hook: the records of the live server or of an opened recording
 * (telemetryModel.ts), and where they are kept (--telemetryLog).
 */
import {useMemo} from 'react';
import {useSnapshot} from '../../context/InspectorContext.js';
import type {TelemetryEntry} from '../../store/telemetryEntry.js';
import {FIELD_HELP, shownRecords, TELEMETRY_SHOWN} from './telemetryModel.js';

export interface TelemetryModel {
  records: readonly TelemetryEntry[];
  total: number;
  /** How many records are drawn at most. */
  shownAtMost: number;
  fieldHelp: readonly {field: string; help: string}[];
  telemetryLogPath: string | undefined;
}

export function useTelemetryModel(): TelemetryModel {
  const telemetry = useSnapshot(snapshot => snapshot.offline?.telemetry ?? snapshot.telemetry);
  const telemetryLogPath = useSnapshot(snapshot => snapshot.server?.telemetryLogPath);
  const records = useMemo(() => shownRecords(telemetry), [telemetry]);
  return {
    records,
    total: telemetry.length,
    shownAtMost: TELEMETRY_SHOWN,
    fieldHelp: FIELD_HELP,
    telemetryLogPath,
  };
}
