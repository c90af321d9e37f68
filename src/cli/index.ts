#!/usr/bin/env node
/**
 * Headless entry: flags → engine. MCP over HTTP (and stdio with --stdio), the inspector UI in any
 * browser tab. Logs go to stderr only, because stdout may carry MCP.
 */
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {detectDisplay, parseFlags} from '../core/config/flags.js';
import {Engine, PortInUseError} from '../core/Engine.js';
import {findRendererDir} from '../core/http/static.js';
import {readVersion} from '../core/version.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  const version = readVersion(here);
  const parsed = parseFlags(process.argv.slice(2), {
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
  for (const warning of parsed.warnings) {
    log(`Warning: ${warning}`);
  }
  const config = parsed.config;
  const engine = new Engine(config, {version, log, rendererDir: findRendererDir(here)});

  let stopping = false;
  const shutdown = (code: number): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    // Backstop: never hang on exit, even if the browser refuses to close.
    setTimeout(() => process.exit(code), 5_000).unref();
    void engine.stop().finally(() => process.exit(code));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => shutdown(0));
  }

  try {
    await engine.startHttp(config.stdio);
  } catch (error) {
    if (error instanceof PortInUseError) {
      log(error.message);
      await engine.stop();
      return 1;
    }
    throw error;
  }
  if (config.stdio) {
    process.stdin.on('end', () => shutdown(0));
    process.stdin.on('close', () => shutdown(0));
    await engine.connectStdio();
  }
  if (config.readyFile !== undefined) {
    engine.writeReadyFile(config.readyFile);
  }
  log(engine.startupLine());
  return -1;
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
