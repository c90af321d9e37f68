/**
 * `mcp-browser-inspector replay RECORDING.jsonl [--until N] [--origin OLD=NEW] [server flags]`: a
 * fresh engine (the same one `serve` runs, with its own browser and the recording's own flags
 * unless the command line says otherwise) re-runs the recording's calls; one line per call on
 * stdout, the summary last. Its own run is recorded as a replay of that recording, which retention
 * never removes while it runs. Exit 0 when every call had the same outcome, 1 when any did not, 2
 * on usage errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import {detectDisplay, parseFlags} from '../core/config/flags.js';
import {pathFlagProblem} from '../core/config/pathFlags.js';
import {Engine} from '../core/Engine.js';
import {
  mapRecordingOrigins,
  parseOriginMapping,
  type OriginMap,
} from '../core/recordings/origins.js';
import {recordedCalls} from '../core/recordings/replay/calls.js';
import {formatCallReport, formatSummary} from '../core/recordings/replay/report.js';
import {
  replayRecordedCalls,
  REPLAY_CLIENT_NAME,
} from '../core/recordings/replay/replayRecording.js';
import {parseRecordingText, type ParsedRecording} from '../shared/recordingFile.js';
import type {ClientRef} from '../shared/protocol.js';
import {errorText} from '../shared/values.js';
import {recordedFlags, refusedFlagsLine} from './replayFlags.js';
import {parseSubcommandArgs, positiveInteger, UsageError} from './subcommandArgs.js';

export const REPLAY_USAGE = [
  'Usage: mcp-browser-inspector replay RECORDING.jsonl [--until N] [--origin OLD=NEW] [server flags]',
  '',
  'Re-runs the tool calls of the recording, in order, in a fresh browser, and reports per call:',
  'same outcome, different (with every changed hunk of the text result), or failed.',
  'Exit code 0 when every call had the same outcome, 1 otherwise, 2 on a usage error.',
  '',
  '  --until N          Replay calls 1 to N only.',
  '  --origin OLD=NEW   Run what the recording did at origin OLD at origin NEW instead (a dev',
  '                     server on another port, staging instead of local). Repeatable.',
  "  The recording's own flags (viewport, categories, --slim, --experimentalVision, screenshot",
  '  settings, Chromium arguments that change only what the page sees) are used again; others it',
  '  names are refused. Server flags given here override them and shape the new browser as they',
  '  do for the server; see mcp-browser-inspector --help.',
].join('\n');

export interface CommandIo {
  version: string;
  out: (text: string) => void;
  log: (line: string) => void;
  env: Record<string, string | undefined>;
  /** stdout is a terminal (a person reads it, not a log). */
  terminal?: boolean;
}

/** The recording cannot be used as it is: said in one line (the options are not the problem). */
export class UnusableRecordingFile extends UsageError {
  override name = 'UnusableRecordingFile';
}

/**
 * Reads and parses a recording; a missing or unusable file, or one with a line no recorder
 * writes (a hand-made or damaged file), is a usage error.
 */
export function readRecording(file: string): ReturnType<typeof parseRecordingText> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UnusableRecordingFile(`Cannot read ${file}: ${errorText(error)}`, {cause: error});
  }
  let recording: ReturnType<typeof parseRecordingText>;
  try {
    recording = parseRecordingText(text);
  } catch (error) {
    throw new UnusableRecordingFile(`${file}: ${errorText(error)}`, {cause: error});
  }
  if (recording.malformed !== undefined) {
    throw new UnusableRecordingFile(
      `${file}: line ${recording.malformed.line} ${recording.malformed.reason}, which no recording has; the file was changed by hand or damaged. Use a recording as the server wrote it.`,
    );
  }
  return recording;
}

/** `--origin OLD=NEW` (repeatable) as a map; a malformed one is a usage error. */
export function originMap(values: readonly string[] | undefined): OriginMap {
  const map = new Map<string, string>();
  for (const value of values ?? []) {
    const parsed = parseOriginMapping(value);
    if ('error' in parsed) {
      throw new UsageError(parsed.error);
    }
    map.set(parsed.from, parsed.to);
  }
  return map;
}

function replayConfig(rest: string[], recording: ParsedRecording, io: CommandIo): Engine['config'] {
  const environment = {env: io.env, hasDisplay: detectDisplay(io.env, process.platform)};
  const defaults = parseFlags([], environment);
  const recorded =
    defaults.kind === 'config'
      ? recordedFlags(recording.header.flags, rest, defaults.config)
      : {argv: [], refused: []};
  const reused = recorded.argv;
  if (recorded.refused.length > 0) {
    io.log(refusedFlagsLine(recorded.refused));
  }
  if (reused.length > 0) {
    io.log(`Using the recording's flags: ${reused.join(' ')} (flags given here override them).`);
  }
  const parsed = parseFlags([...reused, ...rest], environment);
  if (parsed.kind === 'error') {
    throw new UsageError(parsed.message);
  }
  if (parsed.kind !== 'config') {
    throw new UsageError('Use `mcp-browser-inspector replay --help` for the replay options.');
  }
  if (parsed.unknown.length > 0) {
    throw new UsageError(`replay does not take ${parsed.unknown.join(' ')}.`);
  }
  const pathProblem = pathFlagProblem(parsed.config);
  if (pathProblem !== undefined) {
    throw new UsageError(pathProblem);
  }
  for (const warning of parsed.warnings) {
    io.log(`Warning: ${warning}`);
  }
  return parsed.config;
}

export async function runReplay(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.includes('--help')) {
    io.out(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const args = parseSubcommandArgs('replay', argv, ['until', 'origin']);
  const untilCall = positiveInteger('until', args.options.get('until'));
  const origins = originMap(args.repeated.get('origin'));
  const recording = mapRecordingOrigins(readRecording(args.file), origins);
  const config = replayConfig(args.rest, recording, io);
  const recorded = recordedCalls(recording.events);
  if (untilCall !== undefined && untilCall > recorded.calls.length) {
    throw new UsageError(
      `--until ${untilCall}: the recording has ${recorded.calls.length} call(s). Pass 1 to ${recorded.calls.length}.`,
    );
  }
  if (recording.skippedLines > 0) {
    io.log(`Note: ${recording.skippedLines} unreadable line(s) of ${args.file} were skipped.`);
  }
  const engine = new Engine(config, {
    version: io.version,
    log: io.log,
    rendererDir: undefined,
    replayOf: path.resolve(args.file),
  });
  const stop = (): void => {
    void engine.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const client: ClientRef = {
    id: 'replay',
    name: REPLAY_CLIENT_NAME,
    version: io.version,
    transport: 'inspector',
  };
  try {
    const {summary} = await replayRecordedCalls(recorded, engine.replays.targetFor(client), {
      ...(untilCall === undefined ? {} : {untilCall}),
      onCall: report => io.out(`${formatCallReport(report)}\n`),
      unreachableHint: origin =>
        `If the site runs elsewhere now, pass --origin ${origin}=<its origin now> (repeatable).`,
    });
    io.out(`${formatSummary(summary)}\n`);
    return summary.same === summary.total ? 0 : 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await engine.stop();
  }
}
