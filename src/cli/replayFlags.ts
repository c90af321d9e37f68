/**
 * A replay runs with the flags the recording was made with (its header keeps the server's
 * configuration, minus secrets): those that shape what tools exist and what the page sees — the
 * viewport, headless, categories, the switches flagSpecs.ts marks `replay` (--slim,
 * --experimentalVision…), screenshot settings, and the Chromium arguments replayChromeArgs.ts
 * allows. Each is passed only where it differs from the
 * default and the command line does not give the same flag; what the command line says wins.
 * A recording is untrusted: flags about this machine or this server (port, token, profile,
 * executable, endpoints and their headers, proxy, workspace, hold rules, recording) are never read
 * from it, and what it asks for that lowers the browser's guard (other Chromium arguments,
 * --acceptInsecureCerts) is refused by name.
 */
import {z} from 'zod';
import {categoryFlagName, TOOL_CATEGORIES} from '../shared/categories.js';
import {FLAG_SPECS, REPLAY_BOOLEAN_FLAGS} from '../core/config/flagSpecs.js';
import {recordOf} from '../shared/values.js';
import {chromeArgsTakenOver} from './replayChromeArgs.js';
import {
  browserConfigSchema,
  screenshotConfigSchema,
  type ServerConfig,
} from '../core/config/serverConfig.js';

/** A recorded value that does not check is left out, alone (a hand-edited header is not trusted). */
const flag = z.boolean().optional().catch(undefined);
const recordedSchema = z.object({
  browser: z
    .object({
      headless: flag,
      viewport: browserConfigSchema.shape.viewport.catch(undefined),
      acceptInsecureCerts: flag,
      chromeArgs: z.array(z.string()).optional().catch(undefined),
      ignoreDefaultChromeArgs: z.array(z.string()).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  categories: z.partialRecord(z.enum(TOOL_CATEGORIES), z.boolean()).optional().catch(undefined),
  screenshot: screenshotConfigSchema.partial().optional().catch(undefined),
  // The tool and output switches a replay takes over (FlagSpec.replay), each a boolean.
  ...recordOf(REPLAY_BOOLEAN_FLAGS, () => flag),
});

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The flag names (spec names, aliases resolved) a list of arguments gives. */
export function flagNames(argv: readonly string[]): Set<string> {
  const aliases = new Map(
    FLAG_SPECS.flatMap(spec => (spec.aliases ?? []).map(alias => [alias, spec.name] as const)),
  );
  const names = new Set<string>();
  for (const arg of argv) {
    const match = /^--?(?:no-)?([^=]+)/.exec(arg);
    if (match?.[1] !== undefined) {
      const name = camel(match[1]);
      names.add(aliases.get(name) ?? name);
    }
  }
  return names;
}

function booleanFlag(name: string, on: boolean): string {
  return on ? `--${name}` : `--no-${name}`;
}

/** The recorded browser flags as arguments, and those refused. */
function browserArguments(browser: z.infer<typeof recordedSchema>['browser']): {
  argv: string[];
  refused: string[];
} {
  const argv: string[] = [];
  if (browser?.headless === true) {
    argv.push('--headless');
  }
  if (browser?.viewport !== undefined) {
    argv.push(`--viewport=${browser.viewport.width}x${browser.viewport.height}`);
  }
  const chrome = chromeArgsTakenOver(
    browser?.chromeArgs ?? [],
    browser?.ignoreDefaultChromeArgs ?? [],
  );
  argv.push(...chrome.chromeArgs.map(arg => `--chromeArg=${arg}`));
  argv.push(...chrome.ignoreDefaultChromeArgs.map(arg => `--ignoreDefaultChromeArg=${arg}`));
  const refused = [...chrome.refused];
  // Certificate errors let anyone on the path answer for a site: the person decides that.
  if (browser?.acceptInsecureCerts === true) {
    refused.push('--acceptInsecureCerts');
  }
  return {argv, refused};
}

/** The recorded flags as arguments; `defaults` is the configuration no flag gives. */
function recordedArguments(
  recorded: z.infer<typeof recordedSchema>,
  defaults: ServerConfig,
): {argv: string[]; refused: string[]} {
  const {categories, screenshot} = recorded;
  const {argv, refused} = browserArguments(recorded.browser);
  for (const category of TOOL_CATEGORIES) {
    const on = categories?.[category];
    if (on !== undefined && on !== defaults.categories[category]) {
      argv.push(booleanFlag(categoryFlagName(category), on));
    }
  }
  for (const key of REPLAY_BOOLEAN_FLAGS) {
    const value = recorded[key];
    if (value !== undefined && value !== defaults[key]) {
      argv.push(booleanFlag(key, value));
    }
  }
  if (screenshot?.format !== undefined && screenshot.format !== defaults.screenshot.format) {
    argv.push(`--screenshotFormat=${screenshot.format}`);
  }
  for (const [key, flag] of [
    ['quality', 'screenshotQuality'],
    ['maxWidth', 'screenshotMaxWidth'],
    ['maxHeight', 'screenshotMaxHeight'],
  ] as const) {
    const value = screenshot?.[key];
    if (value !== undefined) {
      argv.push(`--${flag}=${value}`);
    }
  }
  return {argv, refused};
}

export interface RecordedFlags {
  /** The recorded flags to pass before the command line's own: those it does not give again. */
  argv: string[];
  /** What the recording asked for and the replay refused, by name (never a value). */
  refused: string[];
}

/** The recorded flags a replay takes over, and those it refuses. */
export function recordedFlags(
  headerFlags: Record<string, unknown>,
  commandLine: readonly string[],
  defaults: ServerConfig,
): RecordedFlags {
  const parsed = recordedSchema.safeParse(headerFlags);
  if (!parsed.success) {
    return {argv: [], refused: []};
  }
  const given = flagNames(commandLine);
  const {argv, refused} = recordedArguments(parsed.data, defaults);
  return {
    argv: argv.filter(arg => ![...flagNames([arg])].some(name => given.has(name))),
    refused,
  };
}

/** The line that says what a replay refused to take over, and how to pass it anyway. */
export function refusedFlagsLine(refused: readonly string[]): string {
  return `Not using the recording's ${refused.join(', ')}: a recording may only set what the page sees (viewport, window size, language, scale, colour scheme, user agent, this server's own Chromium features) and the tool switches. If you trust the recording, pass them yourself (Chromium arguments with --chromeArg).`;
}
