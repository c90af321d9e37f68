/**
 * `mcp-browser-inspector export RECORDING.jsonl --format playwright [--out F] [--until N]`: writes the
 * recording as a test file (to F, or to stdout). Exit 0 on success, 2 on a usage error.
 */
import fs from 'node:fs';
import {
  exportRecording,
  EXPORT_FORMATS,
  type ExportFormat,
} from '../core/recordings/exportRecording.js';
import {MalformedRecordingError} from '../core/recordings/exportSteps.js';
import {errorText} from '../shared/values.js';
import {readRecording, UnusableRecordingFile, type CommandIo} from './replayCommand.js';
import {parseSubcommandArgs, positiveInteger, UsageError} from './subcommandArgs.js';

export const EXPORT_USAGE = [
  'Usage: mcp-browser-inspector export RECORDING.jsonl --format playwright [--out F] [--until N]',
  '',
  "Writes the recording's page actions as a Playwright Test file (@playwright/test) with role-based",
  'locators and assertions of what the agent checked.',
  '',
  '  --format F   playwright (the default and, for now, the only format).',
  '  --out F      Write to this file instead of stdout.',
  '  --until N    Export calls 1 to N only.',
].join('\n');

function formatOf(value: string | undefined): ExportFormat {
  const format = value ?? 'playwright';
  const known = EXPORT_FORMATS.find(candidate => candidate === format);
  if (known === undefined) {
    throw new UsageError(
      `--format ${JSON.stringify(format)} is not known. Use one of: ${EXPORT_FORMATS.join(', ')}.`,
    );
  }
  return known;
}

export function runExport(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.includes('--help')) {
    io.out(`${EXPORT_USAGE}\n`);
    return Promise.resolve(0);
  }
  const args = parseSubcommandArgs('export', argv, ['format', 'out', 'until']);
  if (args.rest.length > 0) {
    throw new UsageError(`export does not take ${args.rest.join(' ')}.`);
  }
  const format = formatOf(args.options.get('format'));
  const untilCall = positiveInteger('until', args.options.get('until'));
  const recording = readRecording(args.file);
  let text: string;
  try {
    text = exportRecording(recording, format, untilCall === undefined ? {} : {untilCall});
  } catch (error) {
    if (error instanceof MalformedRecordingError) {
      throw new UnusableRecordingFile(`${args.file}: ${error.message}.`, {cause: error});
    }
    throw error;
  }
  const out = args.options.get('out');
  if (out === undefined) {
    io.out(text);
    return Promise.resolve(0);
  }
  try {
    fs.writeFileSync(out, text);
  } catch (error) {
    throw new UsageError(`Cannot write --out ${out}: ${errorText(error)}`, {cause: error});
  }
  io.log(`Wrote ${out}.`);
  return Promise.resolve(0);
}
