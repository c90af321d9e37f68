/**
 * A replay runs with the flags the recording was made with (its header keeps the server's
 * configuration, minus secrets): those that shape what tools exist and what they see — the
 * viewport, headless, categories, --slim, --experimentalVision, screenshot settings, Chromium
 * arguments. Each is passed only where it differs from the default and the command line does not
 * give the same flag; what the command line says wins. Flags about this machine or this server
 * (port, token, profile, executable, endpoints, hold rules, recording) are never taken over.
 */
import {z} from 'zod';
import {categoryFlagName, TOOL_CATEGORIES} from '../shared/categories.js';
import {FLAG_SPECS} from '../core/config/flagSpecs.js';
import {
  browserConfigSchema,
  screenshotConfigSchema,
  type ServerConfig,
} from '../core/config/serverConfig.js';

/** The boolean flags taken over, by config key (each is also the flag's name). */
const BOOLEANS = [
  'slim',
  'experimentalVision',
  'memoryDebugging',
  'webmcpTools',
  'pageIdRouting',
  'javascriptEvaluation',
  'redactNetworkHeaders',
] as const;

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
  slim: flag,
  experimentalVision: flag,
  memoryDebugging: flag,
  webmcpTools: flag,
  pageIdRouting: flag,
  javascriptEvaluation: flag,
  redactNetworkHeaders: flag,
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

/** The recorded flags as arguments; `defaults` is the configuration no flag gives. */
function recordedArguments(
  recorded: z.infer<typeof recordedSchema>,
  defaults: ServerConfig,
): string[] {
  const argv: string[] = [];
  const {browser, categories, screenshot} = recorded;
  if (browser?.headless === true) {
    argv.push('--headless');
  }
  if (browser?.viewport !== undefined) {
    argv.push(`--viewport=${browser.viewport.width}x${browser.viewport.height}`);
  }
  if (browser?.acceptInsecureCerts === true) {
    argv.push('--acceptInsecureCerts');
  }
  argv.push(...(browser?.chromeArgs ?? []).map(arg => `--chromeArg=${arg}`));
  argv.push(
    ...(browser?.ignoreDefaultChromeArgs ?? []).map(arg => `--ignoreDefaultChromeArg=${arg}`),
  );
  for (const category of TOOL_CATEGORIES) {
    const on = categories?.[category];
    if (on !== undefined && on !== defaults.categories[category]) {
      argv.push(booleanFlag(categoryFlagName(category), on));
    }
  }
  for (const key of BOOLEANS) {
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
  return argv;
}

/** The recorded flags to pass before the command line's own: those it does not give again. */
export function recordedFlags(
  headerFlags: Record<string, unknown>,
  commandLine: readonly string[],
  defaults: ServerConfig,
): string[] {
  const parsed = recordedSchema.safeParse(headerFlags);
  if (!parsed.success) {
    return [];
  }
  const given = flagNames(commandLine);
  return recordedArguments(parsed.data, defaults).filter(
    arg => ![...flagNames([arg])].some(name => given.has(name)),
  );
}
