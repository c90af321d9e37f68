/**
 * The Telemetry panel's hook: the records of the live server or of an opened recording, as rows in
 * the Log's order and clock, each linked to its call in the Log (telemetryModel.ts), and where
 * they are kept (--telemetryLog).
 */
import {useMemo} from 'react';
import {useInspector, useSnapshot} from '../../context/InspectorContext.js';
import {
  commonFields,
  FIELD_HELP,
  shownRecords,
  TELEMETRY_SHOWN,
  telemetryRows,
  type TelemetryRow,
} from './telemetryModel.js';

export interface TelemetryModel {
  rows: readonly TelemetryRow[];
  total: number;
  /** How many records are drawn at most. */
  shownAtMost: number;
  /** The fields every record repeats, with what their codes mean. */
  common: readonly {field: string; value: string}[];
  fieldHelp: readonly {field: string; help: string}[];
  telemetryLogPath: string | undefined;
  /** Opens the Log with the record's call selected. */
  showInLog: (callId: string) => void;
}

export function useTelemetryModel(): TelemetryModel {
  const telemetry = useSnapshot(snapshot => snapshot.offline?.telemetry ?? snapshot.telemetry);
  const telemetryLogPath = useSnapshot(snapshot => snapshot.server?.telemetryLogPath);
  const {store, ui} = useInspector();
  const log = useSnapshot(snapshot => snapshot.offline?.log) ?? store.log;
  // A call's end (its status) may come in a batch after its record.
  const logVersion = useSnapshot(snapshot => snapshot.log.version);
  const rows = useMemo(
    () => telemetryRows(shownRecords(telemetry), callId => log.byCallId(callId)),
    // logVersion: the log is mutable; its version says when a status may have changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
    [telemetry, log, logVersion],
  );
  return {
    rows,
    total: telemetry.length,
    shownAtMost: TELEMETRY_SHOWN,
    common: useMemo(() => commonFields(telemetry), [telemetry]),
    fieldHelp: FIELD_HELP,
    telemetryLogPath,
    showInLog: callId => {
      ui.selectCall(callId);
      ui.openPanel('log');
    },
  };
}
