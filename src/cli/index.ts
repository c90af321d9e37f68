#!/usr/bin/env node
/**
 * Headless entry: flags → path checks → engine (serve.ts). MCP over HTTP (and stdio with --stdio),
 * the inspector UI in any browser tab. Logs go to stderr only, because stdout may carry MCP. This
 * module loads only what the checks need: a start that fails one ends before the engine's code
 * (most of the start-up time) is read.
 */
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {detectDisplay, parseFlags} from '../core/config/flags.js';
import {pathFlagProblem} from '../core/config/pathFlags.js';
import {readVersion} from '../core/version.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** A bare word first names a subcommand (replay, export, list); `serve` or a flag runs the server. */
function namesSubcommand(first: string | undefined): boolean {
  return first !== undefined && !first.startsWith('-') && first !== 'serve';
}

async function main(): Promise<number> {
  const version = readVersion(here);
  const argv = process.argv.slice(2);
  if (namesSubcommand(argv[0])) {
    const {runSubcommand} = await import('./subcommands.js');
    const code = await runSubcommand(argv, {
      version,
      out: text => process.stdout.write(text),
      log,
      env: process.env,
      terminal: process.stdout.isTTY,
    });
    if (code !== undefined) {
      return code;
    }
  }
  const parsed = parseFlags(argv.slice(argv[0] === 'serve' ? 1 : 0), {
    env: process.env,
    hasDisplay: detectDisplay(process.env, process.platform),
  });
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(`${parsed.text}\n`);
      return 0;
    case 'version':
      process.stdout.write(`${version}\n`);
      return 0;
    case 'error':
      log(`mcp-browser-inspector: ${parsed.message}`);
      log('Run with --help to see all flags.');
      return 2;
    case 'config':
      break;
  }
  const config = parsed.config;
  // Before anything opens a file or a port, and before the engine's code is even loaded: a
  // stale ready file goes, and a bad path ends the run at once.
  const pathProblem = pathFlagProblem(config);
  if (pathProblem !== undefined) {
    log(`mcp-browser-inspector: ${pathProblem}`);
    return 2;
  }
  for (const warning of parsed.warnings) {
    log(`Warning: ${warning}`);
  }
  const {runServer} = await import('./serve.js');
  return runServer(config, version, here);
}

main().then(
  code => {
    if (code >= 0) {
      process.exit(code);
    }
  },
  (error: unknown) => {
    log(
      `mcp-browser-inspector failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
