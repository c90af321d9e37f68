/**
 * Serving, once the flags and paths checked out (index.ts): the engine, HTTP and stdio, the ready
 * file, and stopping on signals. Loaded only then, so a start that fails a check never loads the
 * engine's code (most of the start-up time).
 */
import {pathErrorReason} from '../core/config/pathFlags.js';
import type {ServerConfig} from '../core/config/serverConfig.js';
import {Engine, PortInUseError} from '../core/Engine.js';
import {findRendererDir} from '../core/http/static.js';
import {keepServingOnUncaughtErrors} from '../core/processGuard.js';
import {watchParent} from './parentWatch.js';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/**
 * Runs the server; the exit code when it could not start, -1 while it serves. `here` is the
 * folder of the running entry (the renderer's files are found from there).
 */
export async function runServer(
  config: ServerConfig,
  version: string,
  here: string,
): Promise<number> {
  keepServingOnUncaughtErrors(log);
  const engine = new Engine(config, {version, log, rendererDir: findRendererDir(here)});
  const shutdown = stopOnSignals(engine, config.stdio);

  // Said at start-up, so the person starting the server sees it; the browser still starts lazily.
  const browserProblem = engine.preflight();
  if (browserProblem !== undefined) {
    log(`Warning: ${browserProblem}`);
  }
  const failed = await serve(engine, config, shutdown);
  if (failed !== undefined) {
    await engine.stop();
    return failed;
  }
  log(engine.startupLine());
  // One step to the inspector, as Jupyter does: the full URL with the token, only to a terminal
  // (never in --stdio mode, where stdout is MCP, and never into logs or files).
  if (!config.stdio && process.stdout.isTTY) {
    const url = engine.inspectorUrlWithToken();
    if (url !== undefined) {
      process.stdout.write(`Open the inspector: ${url}\n`);
    }
  }
  return -1;
}

/** Stops the engine (bounded) on a signal, when the owning parent process goes, or as asked. */
function stopOnSignals(engine: Engine, stdio: boolean): (code: number) => void {
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
  // Even on a hard exit (the backstop, an uncaught error), leave no browser process, temporary
  // file or ready file of a gone server behind.
  process.on('exit', () => {
    engine.browser.endProcessesNow();
    engine.announcements.removeAll();
    engine.temporaryFiles.removeAll();
    engine.browser.removeRunProfile();
  });
  watchParent(process.env, stdio, owner => {
    log(`${owner} is gone; stopping.`);
    shutdown(0);
  });
  return shutdown;
}

/** HTTP, then stdio and the ready file as asked; the exit code if one of them failed. */
async function serve(
  engine: Engine,
  config: ServerConfig,
  shutdown: (code: number) => void,
): Promise<number | undefined> {
  try {
    await engine.startHttp(config.stdio);
  } catch (error) {
    if (error instanceof PortInUseError) {
      log(error.message);
      return 1;
    }
    throw error;
  }
  if (config.stdio) {
    process.stdin.on('end', () => shutdown(0));
    process.stdin.on('close', () => shutdown(0));
    await engine.connectStdio();
  }
  engine.announcements.announce('headless', config.stdio);
  if (config.readyFile !== undefined) {
    try {
      engine.writeReadyFile(config.readyFile);
    } catch (error) {
      log(
        `mcp-browser-inspector: Cannot write --readyFile ${config.readyFile}: ${pathErrorReason(error)}. Pass a path in a writable folder.`,
      );
      return 2;
    }
  }
  return undefined;
}
