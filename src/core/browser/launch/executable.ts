/**
 * Finds a Chrome or Chromium binary. Order: --executablePath, $CHROME_PATH, --channel, then the
 * usual install locations of this OS. A failure lists everything that was tried.
 */
import path from 'node:path';
import {executableProblem} from '../../config/pathFlags.js';
import type {ChromeChannel} from '../../config/configDefaults.js';

export interface ExecutableQuery {
  executablePath?: string;
  channel?: ChromeChannel;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
}

export class ExecutableNotFoundError extends Error {}

function channelCandidates(
  channel: ChromeChannel,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): string[] {
  if (platform === 'darwin') {
    const app = {
      stable: 'Google Chrome',
      beta: 'Google Chrome Beta',
      dev: 'Google Chrome Dev',
      canary: 'Google Chrome Canary',
    }[channel];
    return [`/Applications/${app}.app/Contents/MacOS/${app}`];
  }
  if (platform === 'win32') {
    const folder = {stable: 'Chrome', beta: 'Chrome Beta', dev: 'Chrome Dev', canary: 'Chrome SxS'}[
      channel
    ];
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(
      (r): r is string => Boolean(r),
    );
    return roots.map(root => path.win32.join(root, 'Google', folder, 'Application', 'chrome.exe'));
  }
  const linux = {
    stable: [
      '/opt/google/chrome/chrome',
      '/usr/bin/google-chrome-stable',
      '/usr/bin/google-chrome',
    ],
    beta: ['/opt/google/chrome-beta/chrome', '/usr/bin/google-chrome-beta'],
    dev: ['/opt/google/chrome-unstable/chrome', '/usr/bin/google-chrome-unstable'],
    canary: ['/opt/google/chrome-canary/chrome', '/usr/bin/google-chrome-canary'],
  };
  return linux[channel];
}

function defaultCandidates(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): string[] {
  if (platform === 'darwin') {
    return [
      ...channelCandidates('stable', platform, env),
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      ...channelCandidates('beta', platform, env),
      ...channelCandidates('canary', platform, env),
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(
      (r): r is string => Boolean(r),
    );
    return [
      ...channelCandidates('stable', platform, env),
      ...roots.map(root => path.win32.join(root, 'Chromium', 'Application', 'chrome.exe')),
      ...channelCandidates('beta', platform, env),
    ];
  }
  return [
    ...channelCandidates('stable', platform, env),
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/lib/chromium/chromium',
    ...channelCandidates('beta', platform, env),
    ...channelCandidates('dev', platform, env),
  ];
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  return executableProblem(file, platform) === undefined;
}

function installHint(platform: NodeJS.Platform): string {
  return platform === 'darwin' || platform === 'win32'
    ? 'Install Google Chrome from https://www.google.com/chrome/'
    : 'Install Chromium (Debian/Ubuntu: sudo apt-get install chromium) or Google Chrome';
}

export function findExecutable(query: ExecutableQuery): string {
  const {platform, env} = query;
  const tried: string[] = [];
  const check = (file: string, source: string): string | undefined => {
    tried.push(`${file} (${source})`);
    return isExecutable(file, platform) ? file : undefined;
  };
  if (query.executablePath !== undefined) {
    const found = check(path.resolve(query.executablePath), '--executablePath');
    if (found) {
      return found;
    }
    throw new ExecutableNotFoundError(
      `--executablePath ${query.executablePath} is not an executable file. Point it at a Chrome or Chromium binary.`,
    );
  }
  const fromEnv = env.CHROME_PATH;
  if (fromEnv) {
    const found = check(fromEnv, '$CHROME_PATH');
    if (found) {
      return found;
    }
  }
  const candidates = query.channel
    ? channelCandidates(query.channel, platform, env).map(
        file => [file, `--channel ${query.channel ?? ''}`] as const,
      )
    : defaultCandidates(platform, env).map(file => [file, 'default location'] as const);
  for (const [file, source] of candidates) {
    const found = check(file, source);
    if (found) {
      return found;
    }
  }
  throw new ExecutableNotFoundError(
    [
      `No ${query.channel ? `Chrome ${query.channel}` : 'Chrome or Chromium'} browser found. Tried:`,
      ...tried.map(entry => `  - ${entry}`),
      `Fix: ${installHint(platform)}, or pass --executablePath /path/to/chrome, or set CHROME_PATH,`,
      'or attach to a running browser with --browserUrl http://127.0.0.1:9222.',
    ].join('\n'),
  );
}

/**
 * Chromium honours only the last --enable-features switch, so WebMCP is merged into the user's
 * own list rather than added as a second switch.
 */
export function mergeEnableFeatures(
  args: readonly string[],
  features: readonly string[],
): string[] {
  return mergeFeatureSwitch(args, 'enable', features);
}

/** The same for --disable-features (one switch, the user's features kept). */
export function mergeDisableFeatures(
  args: readonly string[],
  features: readonly string[],
): string[] {
  return mergeFeatureSwitch(args, 'disable', features);
}

function mergeFeatureSwitch(
  args: readonly string[],
  which: 'enable' | 'disable',
  features: readonly string[],
): string[] {
  const merged: string[] = [];
  const rest: string[] = [];
  const pattern =
    which === 'enable' ? /^--enable-features(?:=(.*))?$/ : /^--disable-features(?:=(.*))?$/;
  for (const arg of args) {
    const match = pattern.exec(arg);
    if (match) {
      for (const feature of (match[1] ?? '').split(',')) {
        if (feature && !merged.includes(feature)) {
          merged.push(feature);
        }
      }
    } else {
      rest.push(arg);
    }
  }
  for (const feature of features) {
    if (!merged.includes(feature)) {
      merged.push(feature);
    }
  }
  return [...rest, `--${which}-features=${merged.join(',')}`];
}
