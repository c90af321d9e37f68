/** The export formats and the one entry point the CLI and the inspector command share. */
import {EXPORT_FORMATS, type ExportFormat} from '../../../shared/protocol.js';
import type {ParsedRecording} from '../../../shared/recordingFile.js';
import {exportPlaywright, type ExportOptions} from './playwright.js';

export {EXPORT_FORMATS, type ExportFormat};

const EXPORTERS: Record<
  ExportFormat,
  (recording: ParsedRecording, options: ExportOptions) => string
> = {
  playwright: exportPlaywright,
};

/** The file name extension each format's file gets. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {playwright: '.spec.ts'};

export function exportRecording(
  recording: ParsedRecording,
  format: ExportFormat,
  options: ExportOptions = {},
): string {
  return EXPORTERS[format](recording, options);
}
