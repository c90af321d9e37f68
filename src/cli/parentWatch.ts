/**
 * When the process that started the server goes, so does the server, where that parent is its
 * owner:
 * - Under npm (`npm run serve`, `npm start`), the server runs as a child of npm's `sh -c`. A
 *   SIGTERM to npm is passed to that shell only, which dies and leaves the server re-parented and
 *   running with its Chromium.
 * - With --stdio, the parent is the agent's client (or the launcher it used, such as npx): once it
 *   is gone nobody will talk to the server again, even if a pipe it left stays open.
 * Elsewhere a changed parent is normal (a shell that backgrounds the server and exits), so
 * nothing is watched.
 */
const CHECK_EVERY_MS = 250;

export function watchParent(
  env: Record<string, string | undefined>,
  stdio: boolean,
  onOrphaned: (owner: string) => void,
): void {
  const underNpm = env.npm_lifecycle_event !== undefined;
  if ((!underNpm && !stdio) || process.platform === 'win32') {
    return;
  }
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned(
        stdio
          ? 'The process that started this stdio server'
          : 'The npm process that started the server',
      );
    }
  }, CHECK_EVERY_MS);
  timer.unref();
}
