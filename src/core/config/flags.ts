/**
 * Command-line flags, shared by the desktop app and the headless server. Parsing is done by
 * yargs-parser (camelCase and kebab-case, `--no-x` negation, repeatable arrays); every value is then
 * validated with the config schema's own field (serverConfig.ts), so a bad value names the flag and
 * what it accepts.
 */
import parseArgv from 'yargs-parser';
import {z} from 'zod';
import {TOOL_CATEGORIES, categoryFlagName} from '../../shared/categories.js';
import {DEFAULT_PORT, TOKEN_ENV} from '../../shared/constants.js';
import {formatHoldRule, parseHoldRules} from '../../shared/hold.js';
import {recordOf} from '../../shared/values.js';
import {CONFIG_BOOLEAN_FLAGS, FLAG_SPECS, helpText} from './flagSpecs.js';
import {
  booleanFlag,
  FlagError,
  kebab,
  missingValueError,
  optional,
  optionalString,
  parseUrl,
  parseViewport,
  parseWith,
  specByName,
  stringArray,
  valueError,
  type FlagArgs,
} from './flagValues.js';
import {
  DEFAULT_HOLD_TIMEOUT_SECONDS,
  DEFAULT_MAX_CLIENT_SESSIONS,
  DEFAULT_RESUME_WINDOW_SECONDS,
  DEFAULT_CLIENT_SESSION_IDLE_SECONDS,
} from './configDefaults.js';
import {
  browserConfigSchema,
  screenshotConfigSchema,
  serverConfigSchema,
  type BrowserConfig,
  type ServerConfig,
} from './serverConfig.js';

export type ParseResult =
  | {
      kind: 'config';
      config: ServerConfig;
      warnings: string[];
      /** Flags and arguments not understood, as given (`--bogus`, `stray`); warned about above. */
      unknown: string[];
    }
  | {kind: 'help'; text: string}
  | {kind: 'version'}
  | {kind: 'error'; message: string};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  if (LOOPBACK_HOSTS.has(host.toLowerCase())) {
    return true;
  }
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

export interface ParseEnvironment {
  env: Record<string, string | undefined>;
  /** Whether a display is available to show a browser window (Linux without DISPLAY has none). */
  hasDisplay: boolean;
}

export function parseFlags(argv: readonly string[], environment: ParseEnvironment): ParseResult {
  const booleans = FLAG_SPECS.filter(s => s.kind === 'boolean').map(s => s.name);
  const strings = FLAG_SPECS.filter(s => s.kind === 'string').map(s => s.name);
  const arrays = FLAG_SPECS.filter(s => s.kind === 'array').map(s => s.name);
  const alias: Record<string, string[]> = {};
  for (const spec of FLAG_SPECS) {
    if (spec.aliases) {
      alias[spec.name] = [...spec.aliases];
    }
  }
  const parsed = parseArgv([...argv], {
    boolean: [...booleans, 'help', 'version'],
    string: strings,
    array: arrays.map(key => ({key, string: true})),
    alias,
    configuration: {
      'camel-case-expansion': true,
      'boolean-negation': true,
      'duplicate-arguments-array': true,
      'strip-aliased': true,
      'strip-dashed': true,
      'parse-numbers': false,
      'parse-positional-numbers': false,
    },
  });
  const args: Record<string, unknown> = {...parsed};
  // yargs-parser quietly reads `--flag=maybe` as false for booleans; an explicit value must be a boolean.
  for (const arg of argv) {
    const match = /^--(?:no-)?([^=]+)=(.*)$/.exec(arg);
    const name = match?.[1] ? camel(match[1]) : undefined;
    if (
      match &&
      name !== undefined &&
      booleans.includes(name) &&
      !/^(true|false|1|0)$/.test(match[2] ?? '')
    ) {
      return {
        kind: 'error',
        message: `Invalid value for --${name}: ${JSON.stringify(match[2])}. Expected true or false (or --no-${kebab(name)}).`,
      };
    }
  }

  if (args.help === true) {
    return {kind: 'help', text: helpText()};
  }
  const missing = missingValueError(argv);
  if (missing !== undefined) {
    return {kind: 'error', message: missing.message};
  }
  if (args.version === true) {
    return {kind: 'version'};
  }

  const warnings: string[] = [];
  const known = new Set<string>(['_', '$0', 'help', 'version', ...FLAG_SPECS.map(s => s.name)]);
  const unknownFlags = Object.keys(args)
    .filter(key => !known.has(key))
    .map(key => `--${key}`);
  for (const flag of unknownFlags) {
    warnings.push(`Unknown flag ${flag} was ignored. Run with --help to see all flags.`);
  }
  const positionals = parsed._.map(String);
  if (positionals.length > 0) {
    warnings.push(`Unexpected argument(s) ignored: ${positionals.join(' ')}. Flags start with --.`);
  }
  const unknown = [...unknownFlags, ...positionals];

  try {
    return {kind: 'config', config: buildConfig(args, environment, warnings), warnings, unknown};
  } catch (error) {
    if (error instanceof FlagError) {
      return {kind: 'error', message: error.message};
    }
    throw error;
  }
}

/** The whole config from the parsed flags; each part checks its own flags in flag order. */
function buildConfig(
  args: FlagArgs,
  environment: ParseEnvironment,
  warnings: string[],
): ServerConfig {
  const server = serverPart(args, environment);
  const browser = browserPart(args, environment, warnings);
  return {
    ...server,
    ...recordOf(CONFIG_BOOLEAN_FLAGS, name => booleanFlag(args, name)),
    browser,
    categories: categoriesPart(args),
    screenshot: screenshotPart(args),
    workspaceRoots: stringArray(args, 'workspace'),
    clientSessions: clientSessionLimits(args),
    hold: holdPart(args),
    recording: {
      enabled: booleanFlag(args, 'record'),
      ...optional('dir', optionalString(args, 'recordDir')),
    },
  };
}

const serverShape = serverConfigSchema.shape;

/** Where the server listens and how clients authenticate. */
function serverPart(
  args: FlagArgs,
  environment: ParseEnvironment,
): Pick<ServerConfig, 'port' | 'host' | 'token' | 'readyFile' | 'telemetryLog'> {
  const portRaw = optionalString(args, 'port');
  const port = portRaw === undefined ? DEFAULT_PORT : parseWith('port', serverShape.port, portRaw);

  const host = optionalString(args, 'host') ?? '127.0.0.1';
  const dangerouslyAllowNonLoopback = booleanFlag(args, 'dangerouslyAllowNonLoopback');
  if (!isLoopbackHost(host) && !dangerouslyAllowNonLoopback) {
    throw new FlagError(
      'host',
      `Refusing --host ${host}: it is not a loopback address, so other machines could reach the server. Use 127.0.0.1, or add --dangerouslyAllowNonLoopback if you really mean it.`,
    );
  }
  const token = tokenOf(args, environment);
  return {
    port,
    host: host === 'localhost' ? '127.0.0.1' : host,
    ...(token === undefined ? {} : {token}),
    ...optional('readyFile', optionalString(args, 'readyFile')),
    ...optional('telemetryLog', optionalString(args, 'telemetryLog')),
  };
}

/** --token, else the environment variable; a bad one from the environment says so, never shown. */
function tokenOf(args: FlagArgs, environment: ParseEnvironment): string | undefined {
  const tokenRaw = optionalString(args, 'token') ?? environment.env[TOKEN_ENV];
  if (tokenRaw === undefined || tokenRaw === '') {
    return undefined;
  }
  const result = serverShape.token.safeParse(tokenRaw);
  if (result.success) {
    return result.data;
  }
  if (args.token !== undefined) {
    throw valueError(specByName('token'), '<hidden>');
  }
  throw new FlagError(
    'token',
    `Invalid ${TOKEN_ENV}: expected at least 16 characters from A-Z a-z 0-9 . _ ~ -.`,
  );
}

const browserShape = browserConfigSchema.shape;
/** Which browser to launch or attach to, and how. */
function browserPart(
  args: FlagArgs,
  environment: ParseEnvironment,
  warnings: string[],
): BrowserConfig {
  const browserUrlRaw = optionalString(args, 'browserUrl');
  const wsEndpointRaw = optionalString(args, 'wsEndpoint');
  if (browserUrlRaw !== undefined && wsEndpointRaw !== undefined) {
    throw new FlagError('browserUrl', 'Use either --browserUrl or --wsEndpoint, not both.');
  }
  const wsHeadersRaw = optionalString(args, 'wsHeaders');
  let wsHeaders: Record<string, string> | undefined;
  if (wsHeadersRaw !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(wsHeadersRaw);
    } catch {
      throw valueError(specByName('wsHeaders'), wsHeadersRaw);
    }
    wsHeaders = parseWith('wsHeaders', browserShape.wsHeaders, json);
    if (wsEndpointRaw === undefined) {
      warnings.push('--wsHeaders only applies with --wsEndpoint; it was ignored.');
    }
  }

  const isolated = booleanFlag(args, 'isolated');
  const userDataDir = optionalString(args, 'userDataDir');
  if (isolated && userDataDir !== undefined) {
    throw new FlagError('isolated', 'Use either --isolated or --userDataDir, not both.');
  }
  const channelRaw = optionalString(args, 'channel');
  const channel =
    channelRaw === undefined ? undefined : parseWith('channel', browserShape.channel, channelRaw);
  const executablePath = optionalString(args, 'executablePath');
  if (channel !== undefined && executablePath !== undefined) {
    throw new FlagError('channel', 'Use either --channel or --executablePath, not both.');
  }

  const headlessFlag = booleanFlag(args, 'headless');
  const viewportRaw = optionalString(args, 'viewport');
  const browserUrl =
    browserUrlRaw === undefined
      ? undefined
      : parseUrl('browserUrl', browserUrlRaw, ['http:', 'https:']);
  const wsEndpoint =
    wsEndpointRaw === undefined
      ? undefined
      : parseUrl('wsEndpoint', wsEndpointRaw, ['ws:', 'wss:']);
  const proxyServer = optionalString(args, 'proxyServer');
  return {
    headless: headlessFlag || !environment.hasDisplay,
    headlessBecauseNoDisplay: !headlessFlag && !environment.hasDisplay,
    isolated,
    ...optional('userDataDir', userDataDir),
    ...optional('executablePath', executablePath),
    ...optional('channel', channel),
    chromeArgs: stringArray(args, 'chromeArg'),
    ignoreDefaultChromeArgs: stringArray(args, 'ignoreDefaultChromeArg'),
    ...optional('browserUrl', browserUrl),
    ...optional('wsEndpoint', wsEndpoint),
    ...optional('wsHeaders', wsHeaders),
    ...optional('viewport', viewportRaw === undefined ? undefined : parseViewport(viewportRaw)),
    acceptInsecureCerts: booleanFlag(args, 'acceptInsecureCerts'),
    ...optional('proxyServer', proxyServer),
  };
}

/** Which tool categories are on. */
function categoriesPart(args: FlagArgs): ServerConfig['categories'] {
  return recordOf(TOOL_CATEGORIES, category => booleanFlag(args, categoryFlagName(category)));
}

const screenshotShape = screenshotConfigSchema.shape;

function screenshotPart(args: FlagArgs): ServerConfig['screenshot'] {
  const formatRaw = optionalString(args, 'screenshotFormat');
  const qualityRaw = optionalString(args, 'screenshotQuality');
  const maxWidthRaw = optionalString(args, 'screenshotMaxWidth');
  const maxHeightRaw = optionalString(args, 'screenshotMaxHeight');
  const read = <T>(name: string, schema: z.ZodType<T>, raw: string | undefined): T | undefined =>
    raw === undefined ? undefined : parseWith(name, schema, raw);
  return {
    format: read('screenshotFormat', screenshotShape.format, formatRaw) ?? 'png',
    ...optional('quality', read('screenshotQuality', screenshotShape.quality, qualityRaw)),
    ...optional('maxWidth', read('screenshotMaxWidth', screenshotShape.maxWidth, maxWidthRaw)),
    ...optional('maxHeight', read('screenshotMaxHeight', screenshotShape.maxHeight, maxHeightRaw)),
  };
}

function clientSessionLimits(args: FlagArgs): ServerConfig['clientSessions'] {
  const idleRaw = optionalString(args, 'sessionIdleTimeout');
  const maxRaw = optionalString(args, 'maxSessions');
  const resumeRaw = optionalString(args, 'resumeWindow');
  // The flag is in seconds (fractions allowed); the config keeps milliseconds.
  const idleSeconds =
    idleRaw === undefined
      ? DEFAULT_CLIENT_SESSION_IDLE_SECONDS
      : parseWith('sessionIdleTimeout', z.coerce.number().positive(), idleRaw);
  return {
    idleTimeoutMs: Math.round(idleSeconds * 1000),
    max:
      maxRaw === undefined
        ? DEFAULT_MAX_CLIENT_SESSIONS
        : parseWith('maxSessions', serverShape.clientSessions.shape.max, maxRaw),
    resumeWindowMs: Math.round(
      (resumeRaw === undefined
        ? DEFAULT_RESUME_WINDOW_SECONDS
        : parseWith('resumeWindow', z.coerce.number().nonnegative().max(3600), resumeRaw)) * 1000,
    ),
  };
}

/** --hold rules (one parser with the inspector's) and --holdTimeout in seconds. */
function holdPart(args: FlagArgs): ServerConfig['hold'] {
  const parsed = parseHoldRules(stringArray(args, 'hold'));
  if ('error' in parsed) {
    throw new FlagError('hold', `Invalid value for --hold: ${parsed.error}`);
  }
  const timeoutRaw = optionalString(args, 'holdTimeout');
  const seconds =
    timeoutRaw === undefined
      ? DEFAULT_HOLD_TIMEOUT_SECONDS
      : parseWith('holdTimeout', z.coerce.number().positive().max(86_400), timeoutRaw);
  return {
    rules: parsed.rules.map(formatHoldRule),
    timeoutMs: Math.max(1, Math.round(seconds * 1000)),
  };
}

/** Linux and BSD need an X11 or Wayland display to show a window; macOS and Windows always have one. */
export function detectDisplay(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
): boolean {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') {
    return true;
  }
  return Boolean(env.DISPLAY ?? env.WAYLAND_DISPLAY);
}
