/**
 * Under npm (`npm run serve`, `npx`), the server runs as a child of npm's `sh -c`. A SIGTERM to npm
 * is passed to that shell only, which dies and leaves the server re-parented and running with its
 * Chromium. So when npm started us, losing the parent means our owner is gone: stop. Outside npm a
 * changed parent is normal (a shell that backgrounds the server and exits), so nothing is watched.
 */
const CHECK_EVERY_MS = 250;

export function watchNpmParent(
  env: Record<string, string | undefined>,
  onOrphaned: () => void,
): void {
  if (env.npm_lifecycle_event === undefined || process.platform === 'win32') {
    return;
  }
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, CHECK_EVERY_MS);
  timer.unref();
}
