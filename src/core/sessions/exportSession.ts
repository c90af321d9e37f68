/** The export formats and the one entry point the CLI and the inspector command share. */
import type {ParsedSession} from '../../shared/sessionFile.js';
import {exportPlaywright, type ExportOptions} from './exportPlaywright.js';

export const EXPORT_FORMATS = ['playwright'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXPORTERS: Record<ExportFormat, (session: ParsedSession, options: ExportOptions) => string> =
  {
    playwright: exportPlaywright,
  };

export function exportSession(
  session: ParsedSession,
  format: ExportFormat,
  options: ExportOptions = {},
): string {
  return EXPORTERS[format](session, options);
}
