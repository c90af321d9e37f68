/**
 * Which of a recording's Chromium arguments a replay takes over. A recording is a file anyone can
 * hand over, and Chromium's switches reach far: a command prefix runs a program
 * (--renderer-cmd-prefix, --gpu-launcher, --utility-cmd-prefix, --browser-subprocess-path), a
 * debugging port or pipe opens the browser to anyone local, a profile, extension or proxy switch
 * reads files or sends the traffic elsewhere, a sandbox or web-security switch takes protections
 * away. So only switches that change what the page sees are taken over — window size, language,
 * scale, colour scheme, user agent, the features this server sets itself — each with a value of
 * the expected shape; everything else is refused by name (the person can pass it with --chromeArg
 * when they trust the recording).
 */
import {SERVER_CHROMIUM_FEATURES} from '../core/browser/launch/launchArguments.js';

/** A switch a replay takes over, and the values it may have (undefined: it takes none). */
const PAGE_SWITCHES: ReadonlyMap<string, RegExp | undefined> = new Map([
  ['window-size', /^\d{1,5},\d{1,5}$/],
  ['force-device-scale-factor', /^\d{1,2}(?:\.\d{1,4})?$/],
  ['lang', /^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8}){0,4}$/],
  ['accept-lang', /^[A-Za-z0-9,;=.\-_]{1,200}$/],
  ['user-agent', /^[\x20-\x7e]{1,512}$/],
  [
    'force-color-profile',
    /^(?:srgb|display-p3-d65|generic-rgb|color-spin-gamma24|scrgb-linear|hdr10)$/,
  ],
  ['font-render-hinting', /^(?:none|slight|medium|full)$/],
  ['hide-scrollbars', undefined],
  ['mute-audio', undefined],
  ['force-dark-mode', undefined],
  ['force-prefers-reduced-motion', undefined],
  ['force-prefers-no-reduced-motion', undefined],
]);

/** Feature lists a replay takes over when every feature in them is one this server sets. */
const FEATURE_SWITCHES = new Set(['enable-features', 'disable-features']);

/** Puppeteer's default switches a recording may have left out: they change only what is shown. */
const IGNORABLE_DEFAULTS = new Set(['--hide-scrollbars', '--mute-audio']);

/** How a refused argument is named: its switch, never its value (a path, a command, a secret). */
function switchName(arg: string): string {
  const match = /^--?([A-Za-z0-9][A-Za-z0-9_-]{0,63})(?:=|$)/.exec(arg);
  if (match?.[1] !== undefined) {
    return `--${match[1]}`;
  }
  // A URL or a path Chromium would open: its text may be private, so it is not shown.
  return 'an argument that is not a switch (a URL or a path)';
}

/** Whether a replay takes over this recorded Chromium argument. */
export function takesOverChromeArg(arg: string): boolean {
  const match = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
  const name = match?.[1];
  if (name === undefined) {
    return false;
  }
  const value = match?.[2];
  if (FEATURE_SWITCHES.has(name)) {
    const features = (value ?? '').split(',');
    return (
      value !== undefined && features.every(feature => SERVER_CHROMIUM_FEATURES.includes(feature))
    );
  }
  if (!PAGE_SWITCHES.has(name)) {
    return false;
  }
  const shape = PAGE_SWITCHES.get(name);
  return shape === undefined ? value === undefined : value !== undefined && shape.test(value);
}

export interface ChromeArgsTakenOver {
  chromeArgs: string[];
  ignoreDefaultChromeArgs: string[];
  /** What was refused, named by switch (deduplicated, in order). */
  refused: string[];
}

/** The recorded Chromium arguments split into those a replay takes over and those it refuses. */
export function chromeArgsTakenOver(
  chromeArgs: readonly string[],
  ignoreDefaultChromeArgs: readonly string[],
): ChromeArgsTakenOver {
  const refused = new Set<string>();
  const kept = chromeArgs.filter(arg => {
    const ok = takesOverChromeArg(arg);
    if (!ok) {
      refused.add(switchName(arg));
    }
    return ok;
  });
  const keptIgnored = ignoreDefaultChromeArgs.filter(arg => {
    const ok = IGNORABLE_DEFAULTS.has(arg);
    if (!ok) {
      refused.add(`--ignoreDefaultChromeArg=${switchName(arg)}`);
    }
    return ok;
  });
  return {chromeArgs: kept, ignoreDefaultChromeArgs: keptIgnored, refused: [...refused]};
}
