/**
 * The subcommands beside serving: `replay`, `export` and `list`. A first argument that is a bare word
 * names a subcommand; `serve` (or none) runs the server as before. An unknown one exits 2, so a
 * typo does not start a server nobody asked for.
 */
import {runExport} from './exportCommand.js';
import {runList} from './listCommand.js';
import {runReplay, UnusableRecordingFile, type CommandIo} from './replayCommand.js';
import {errorText} from '../shared/values.js';
import {UsageError} from './subcommandArgs.js';

const SUBCOMMANDS: Record<string, (argv: readonly string[], io: CommandIo) => Promise<number>> = {
  replay: runReplay,
  export: runExport,
  list: runList,
};

/** The exit code of the subcommand argv names, or undefined to serve. */
export async function runSubcommand(
  argv: readonly string[],
  io: CommandIo,
): Promise<number | undefined> {
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || first === 'serve') {
    return undefined;
  }
  const run = SUBCOMMANDS[first];
  try {
    if (!run) {
      throw new UsageError(
        `Unknown command ${JSON.stringify(first)}. Commands: serve (the default), replay, export, list.`,
      );
    }
    return await run(argv.slice(1), io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.log(`mcp-browser-inspector: ${error.message}`);
      if (!(error instanceof UnusableRecordingFile)) {
        io.log(`Run mcp-browser-inspector ${run ? `${first} ` : ''}--help for the options.`);
      }
      return 2;
    }
    // Whatever else went wrong is said in one line, never as a stack trace.
    io.log(`mcp-browser-inspector ${first} failed: ${errorText(error).split('\n')[0] ?? ''}`);
    return 1;
  }
}
