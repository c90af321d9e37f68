/**
 * The Chromium command line of a launch: our defaults, the user's --chromeArg values, sandbox and
 * window size, and the files among the arguments Chromium would open at start.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import type {BrowserConfig} from '../../config/serverConfig.js';
import {mergeDisableFeatures, mergeEnableFeatures} from './executable.js';
import type {FileUrlPolicy} from '../navigation/fileGuard.js';

/** The Chromium features every launch turns on (merged into the user's --enable-features). */
export const SERVER_CHROMIUM_FEATURES: readonly string[] = ['WebMCP'];

/**
 * Browser-UI pages (the omnibox popup's WebUI) that Chromium builds at startup, each in a renderer
 * of its own that competes with the first navigation for the CPU. Puppeteer 25 (under
 * chrome-devtools-mcp 1.11) turns them off too; pages see no difference.
 */
const STARTUP_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The final Chromium argument list for a launch (exported for tests). */
export function launchArguments(config: BrowserConfig, runningAsRoot: boolean): string[] {
  const args = ['--disable-component-update', '--hide-crash-restore-bubble', ...config.chromeArgs];
  if (runningAsRoot && !args.includes('--no-sandbox')) {
    args.push('--no-sandbox');
  }
  if (config.proxyServer !== undefined) {
    args.push(`--proxy-server=${config.proxyServer}`);
  }
  if (
    config.headless &&
    config.viewport === undefined &&
    !args.some(arg => arg.startsWith('--window-size'))
  ) {
    args.push('--window-size=1280,720');
  }
  return mergeDisableFeatures(
    mergeEnableFeatures(args, SERVER_CHROMIUM_FEATURES),
    STARTUP_DISABLED_FEATURES,
  );
}

/** The file a launch argument makes Chromium open at start (a `file:` URL or a path), if any. */
export function launchFileUrl(arg: string): string | undefined {
  if (arg.startsWith('-')) {
    return undefined;
  }
  const url = arg.replace(/^view-source:/i, '');
  if (/^file:/i.test(url)) {
    return url;
  }
  // A bare path (Chromium opens it as a file); other plain words are left alone.
  if (/^(?:\/|\.{1,2}\/|~\/|[a-z]:[\\/])/i.test(url)) {
    return pathToFileURL(path.resolve(url)).href;
  }
  return undefined;
}

/**
 * Drops the pages Chromium would open at launch that show a file outside the allowed roots (a
 * `file:` URL or a bare path among the arguments): they would load before any guard can attach.
 */
export async function withoutForbiddenFiles(
  args: readonly string[],
  policy: FileUrlPolicy | undefined,
  log: (line: string) => void,
): Promise<string[]> {
  if (!policy) {
    return [...args];
  }
  const kept: string[] = [];
  for (const arg of args) {
    const url = launchFileUrl(arg);
    if (url !== undefined && !(await policy.allowsUrl(url).catch(() => false))) {
      log(
        `Not opening ${arg} at launch: it is outside the allowed roots (start the server with --workspace <dir> to allow a folder).`,
      );
      continue;
    }
    kept.push(arg);
  }
  return kept;
}
