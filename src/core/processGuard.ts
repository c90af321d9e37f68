/**
 * The last resort behind the per-call guards (each call, event listener, stream and flush catches
 * its own failures): an exception or rejection that still reaches the process is logged and the
 * server keeps serving, instead of every client losing its client session to one bad value.
 */
const STACK_LINES = 6;

function described(error: unknown): string {
  if (error instanceof Error) {
    return (error.stack ?? `${error.name}: ${error.message}`)
      .split('\n')
      .slice(0, STACK_LINES)
      .join('\n');
  }
  return String(error);
}

/** Installs the process handlers once (the headless entry and the desktop shell call it). */
export function keepServingOnUncaughtErrors(log: (line: string) => void): void {
  process.on('uncaughtException', error => {
    log(`Internal error; the server keeps running. Please report it: ${described(error)}`);
  });
  process.on('unhandledRejection', reason => {
    log(`Internal error (a rejected promise); the server keeps running: ${described(reason)}`);
  });
}
