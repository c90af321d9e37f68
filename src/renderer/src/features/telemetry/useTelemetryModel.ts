/**
 * The Telemetry panel's hook: the records of the live server or of an opened recording
 * (telemetryModel.ts), each with what its call's status in the log says about it, and where they
 * are kept (--telemetryLog).
 */
import {useMemo} from 'react';
import {useInspector, useSnapshot} from '../../context/InspectorContext.js';
import {
  FIELD_HELP,
  recordsWithNotes,
  shownRecords,
  TELEMETRY_SHOWN,
  type ShownRecord,
} from './telemetryModel.js';

export interface TelemetryModel {
  records: readonly ShownRecord[];
  total: number;
  /** How many records are drawn at most. */
  shownAtMost: number;
  fieldHelp: readonly {field: string; help: string}[];
  telemetryLogPath: string | undefined;
}

export function useTelemetryModel(): TelemetryModel {
  const telemetry = useSnapshot(snapshot => snapshot.offline?.telemetry ?? snapshot.telemetry);
  const telemetryLogPath = useSnapshot(snapshot => snapshot.server?.telemetryLogPath);
  const {store} = useInspector();
  const log = useSnapshot(snapshot => snapshot.offline?.log) ?? store.log;
  // A call's end (its status) may come in a batch after its record.
  const logVersion = useSnapshot(snapshot => snapshot.log.version);
  const records = useMemo(
    () => recordsWithNotes(shownRecords(telemetry), callId => log.byCallId(callId)?.status),
    // logVersion: the log is mutable; its version says when a status may have changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
    [telemetry, log, logVersion],
  );
  return {
    records,
    total: telemetry.length,
    shownAtMost: TELEMETRY_SHOWN,
    fieldHelp: FIELD_HELP,
    telemetryLogPath,
  };
}
