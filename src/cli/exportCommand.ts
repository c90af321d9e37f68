/**
 * `mcp-browser-inspector export RECORDING.jsonl --format playwright [--out F] [--until N]
 * [--origin OLD=NEW] [--workspace DIR]`: writes the recording as a test file (to F, or to stdout).
 * The recording's paths are untrusted: only files inside a --workspace folder are read or handed
 * to a page (export/files.ts). Exit 0 on success, 2 on a usage error.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  exportRecording,
  EXPORT_FORMATS,
  type ExportFormat,
} from '../core/recordings/export/exportRecording.js';
import {exportFilesFor} from '../core/recordings/export/files.js';
import {MalformedRecordingError} from '../core/recordings/export/steps.js';
import {userConfigDir} from '../core/config/paths.js';
import {errorText} from '../shared/values.js';
import {mapRecordingOrigins} from '../core/recordings/origins.js';
import {recordedCalls} from '../core/recordings/replay/calls.js';
import {originMap, readRecording, UnusableRecordingFile, type CommandIo} from './replayCommand.js';
import {parseSubcommandArgs, positiveInteger, UsageError} from './subcommandArgs.js';

export const EXPORT_USAGE = [
  'Usage: mcp-browser-inspector export RECORDING.jsonl --format playwright [--out F] [--until N]',
  '                                    [--origin OLD=NEW] [--workspace DIR]',
  '',
  "Writes the recording's page actions as a Playwright Test file (@playwright/test, TypeScript)",
  'with role-based locators and assertions of what the agent saw change: focus, values, enabled',
  'or disabled, states (expanded, checked, selected, pressed, current…), texts that appeared or',
  'went, the URL, dialogs.',
  '',
  '  --format F         playwright (the default and, for now, the only format).',
  '  --out F            Write to this file instead of stdout (never the recording itself).',
  '  --until N          Export calls 1 to N only.',
  '  --origin OLD=NEW   Write URLs of origin OLD with origin NEW. Repeatable.',
  '  --workspace DIR    Let the test use files in DIR (repeatable): evaluate_script sourcePath',
  '                     files (read now, written into the test), uploads, file: URLs. Without',
  '                     it, steps that name a local file are left out with a note.',
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

function isFolder(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** The --workspace folders (or --filesystemRoot, its alias), each an existing folder. */
function workspaceFolders(values: readonly string[]): string[] {
  for (const folder of values) {
    if (!isFolder(folder)) {
      throw new UsageError(`--workspace ${folder} is not a folder. Name an existing folder.`);
    }
  }
  return [...values];
}

export async function runExport(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.includes('--help')) {
    io.out(`${EXPORT_USAGE}\n`);
    return 0;
  }
  const args = parseSubcommandArgs('export', argv, [
    'format',
    'out',
    'until',
    'origin',
    'workspace',
    'filesystemRoot',
  ]);
  const folders = workspaceFolders([
    ...(args.repeated.get('workspace') ?? []),
    ...(args.repeated.get('filesystemRoot') ?? []),
  ]);
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
  const {calls} = recordedCalls(recording.events);
  if (untilCall !== undefined && untilCall > calls.length) {
    throw new UsageError(
      `--until ${untilCall}: the recording has ${calls.length} call(s). Pass 1 to ${calls.length}.`,
    );
  }
  // The config folder holds the token: never read into a test, whatever folder is named.
  const files = await exportFilesFor(calls, folders, [userConfigDir(io.env)]);
  let text: string;
  try {
    text = exportRecording(recording, format, {
      files,
      ...(untilCall === undefined ? {} : {untilCall}),
    });
  } catch (error) {
    if (error instanceof MalformedRecordingError) {
      throw new UnusableRecordingFile(`${args.file}: ${error.message}.`, {cause: error});
    }
    throw error;
  }
  if (out === undefined) {
    io.out(text);
    return 0;
  }
  try {
    fs.writeFileSync(out, text);
  } catch (error) {
    throw new UsageError(`Cannot write --out ${out}: ${errorText(error)}`, {cause: error});
  }
  io.log(`Wrote ${out}.`);
  return 0;
}
