/**
 * `mcp-browser-inspector export RECORDING.jsonl --format playwright [--out F] [--until N]
 * [--origin OLD=NEW]`: writes the recording as a test file (to F, or to stdout). Exit 0 on
 * success, 2 on a usage error.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  exportRecording,
  EXPORT_FORMATS,
  type ExportFormat,
} from '../core/recordings/exportRecording.js';
import {MalformedRecordingError} from '../core/recordings/exportSteps.js';
import {errorText} from '../shared/values.js';
import {mapRecordingOrigins} from '../core/recordings/origins.js';
import {recordedCalls} from '../core/recordings/replayCalls.js';
import {originMap, readRecording, UnusableRecordingFile, type CommandIo} from './replayCommand.js';
import {parseSubcommandArgs, positiveInteger, UsageError} from './subcommandArgs.js';

export const EXPORT_USAGE = [
  'Usage: mcp-browser-inspector export RECORDING.jsonl --format playwright [--out F] [--until N]',
  '                                    [--origin OLD=NEW]',
  '',
  "Writes the recording's page actions as a Playwright Test file (@playwright/test, TypeScript)",
  'with role-based locators and assertions of what the agent saw change: states (expanded,',
  'checked, selected, pressed, current), values, texts that appeared or went, the URL, dialogs.',
  '',
  '  --format F         playwright (the default and, for now, the only format).',
  '  --out F            Write to this file instead of stdout (never the recording itself).',
  '  --until N          Export calls 1 to N only.',
  '  --origin OLD=NEW   Write URLs of origin OLD with origin NEW. Repeatable.',
].join('\n');

/** Whether two paths name one file (the same path, or links to one file). */
function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) {
    return true;
  }
  try {
    const [first, second] = [fs.statSync(a), fs.statSync(b)];
    return first.dev === second.dev && first.ino === second.ino;
  } catch {
    return false;
  }
}

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
  const args = parseSubcommandArgs('export', argv, ['format', 'out', 'until', 'origin']);
  if (args.rest.length > 0) {
    throw new UsageError(`export does not take ${args.rest.join(' ')}.`);
  }
  const format = formatOf(args.options.get('format'));
  const untilCall = positiveInteger('until', args.options.get('until'));
  const out = args.options.get('out');
  if (out !== undefined && sameFile(out, args.file)) {
    throw new UsageError(`--out ${out} is the recording itself; write the test to another file.`);
  }
  const recording = mapRecordingOrigins(
    readRecording(args.file),
    originMap(args.repeated.get('origin')),
  );
  const calls = recordedCalls(recording.events).calls.length;
  if (untilCall !== undefined && untilCall > calls) {
    throw new UsageError(
      `--until ${untilCall}: the recording has ${calls} call(s). Pass 1 to ${calls}.`,
    );
  }
  let text: string;
  try {
    text = exportRecording(recording, format, untilCall === undefined ? {} : {untilCall});
  } catch (error) {
    if (error instanceof MalformedRecordingError) {
      throw new UnusableRecordingFile(`${args.file}: ${error.message}.`, {cause: error});
    }
    throw error;
  }
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
