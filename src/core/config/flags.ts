/**
 * Command-line flags, shared by the desktop app and the headless server. Parsing is done by
 * yargs-parser (camelCase and kebab-case, `--no-x` negation, repeatable arrays); every value is then
 * validated here so a bad value names the flag and what it accepts.
 */
import parseArgv from 'yargs-parser';
import {z} from 'zod';
import {
  CATEGORIES_OFF_BY_DEFAULT,
  CATEGORY_LABELS,
  TOOL_CATEGORIES,
  categoryFlagName,
  type ToolCategory,
} from '../../shared/categories.js';
import {DEFAULT_PORT, TOKEN_ENV, TOKEN_PATTERN} from '../../shared/constants.js';

export const CHROME_CHANNELS = ['stable', 'beta', 'dev', 'canary'] as const;
export type ChromeChannel = (typeof CHROME_CHANNELS)[number];
export const SCREENSHOT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];

export interface BrowserConfig {
  headless: boolean;
  /** True when the user did not pass --headless but there is no display to show a window on. */
  headlessBecauseNoDisplay: boolean;
  isolated: boolean;
  userDataDir?: string;
  executablePath?: string;
  channel?: ChromeChannel;
  chromeArgs: string[];
  ignoreDefaultChromeArgs: string[];
  browserUrl?: string;
  wsEndpoint?: string;
  wsHeaders?: Record<string, string>;
  viewport?: {width: number; height: number};
  acceptInsecureCerts: boolean;
  proxyServer?: string;
}

export interface ServerConfig {
  port: number;
  host: string;
  dangerouslyAllowNonLoopback: boolean;
  token?: string;
  stdio: boolean;
  readyFile?: string;
  telemetryLog?: string;
  browser: BrowserConfig;
  categories: Record<ToolCategory, boolean>;
  slim: boolean;
  experimentalVision: boolean;
  memoryDebugging: boolean;
  pageIdRouting: boolean;
  javascriptEvaluation: boolean;
  redactNetworkHeaders: boolean;
  screenshot: {format: ScreenshotFormat; quality?: number; maxWidth?: number; maxHeight?: number};
  workspaceRoots: string[];
  /** MCP HTTP sessions: idle expiry and how many may be open at once. */
  sessions: {idleTimeoutMs: number; max: number};
}

export const DEFAULT_SESSION_IDLE_SECONDS = 30 * 60;
export const DEFAULT_MAX_SESSIONS = 100;

type FlagKind = 'boolean' | 'string' | 'array';

interface FlagSpec {
  name: string;
  kind: FlagKind;
  description: string;
  /** Shown in --help and in value errors. */
  accepts?: string;
  aliases?: string[];
  defaultValue?: boolean;
  group: 'Server' | 'Browser' | 'Tools' | 'Output' | 'Files';
}

const CATEGORY_FLAGS: FlagSpec[] = TOOL_CATEGORIES.map(category => {
  const off = CATEGORIES_OFF_BY_DEFAULT.includes(category);
  return {
    name: categoryFlagName(category),
    kind: 'boolean',
    defaultValue: !off,
    group: 'Tools',
    description: `${off ? 'Include' : 'Set false to exclude'} the ${CATEGORY_LABELS[category]} tools${off ? ' (off by default)' : ''}.`,
  };
});

export const FLAG_SPECS: readonly FlagSpec[] = [
  {
    name: 'port',
    kind: 'string',
    group: 'Server',
    accepts: 'an integer 0-65535 (0 = any free port)',
    description: `HTTP port for /mcp and the inspector (default ${DEFAULT_PORT}).`,
  },
  {
    name: 'host',
    kind: 'string',
    group: 'Server',
    accepts: 'a loopback address such as 127.0.0.1 or ::1',
    description: 'Address to bind (default 127.0.0.1).',
  },
  {
    name: 'dangerouslyAllowNonLoopback',
    kind: 'boolean',
    defaultValue: false,
    group: 'Server',
    description:
      'Allow --host to be a non-loopback address. Anyone who can reach it and has the token controls your browser.',
  },
  {
    name: 'token',
    kind: 'string',
    group: 'Server',
    accepts: 'at least 16 characters from A-Z a-z 0-9 . _ ~ -',
    description: `Bearer token for /mcp and the inspector (else $${TOKEN_ENV}, else a random token kept in your config dir).`,
  },
  {
    name: 'stdio',
    kind: 'boolean',
    defaultValue: false,
    group: 'Server',
    description: 'Serve MCP over stdin/stdout (the HTTP inspector still runs).',
  },
  {
    name: 'readyFile',
    kind: 'string',
    group: 'Server',
    accepts: 'a file path',
    description: 'Write {mcpUrl, inspectorUrl, token, pid} as JSON to this file once ready.',
  },
  {
    name: 'telemetryLog',
    kind: 'string',
    group: 'Server',
    accepts: 'a file path',
    description: 'Append every telemetry record (never sent anywhere) to this file as JSON lines.',
  },
  {
    name: 'headless',
    kind: 'boolean',
    defaultValue: false,
    group: 'Browser',
    description: 'Run Chromium without a window (automatic when there is no display).',
  },
  {
    name: 'isolated',
    kind: 'boolean',
    defaultValue: false,
    group: 'Browser',
    description: 'Use a temporary profile, removed when the browser closes.',
  },
  {
    name: 'userDataDir',
    kind: 'string',
    group: 'Browser',
    accepts: 'a directory path',
    description: 'Chromium profile directory.',
  },
  {
    name: 'executablePath',
    kind: 'string',
    aliases: ['e'],
    group: 'Browser',
    accepts: 'a path to a Chrome or Chromium binary',
    description: 'Browser binary to launch.',
  },
  {
    name: 'channel',
    kind: 'string',
    group: 'Browser',
    accepts: CHROME_CHANNELS.join(', '),
    description: 'Installed Chrome channel to launch.',
  },
  {
    name: 'chromeArg',
    kind: 'array',
    group: 'Browser',
    accepts: 'a Chromium switch, e.g. --chromeArg=--lang=de (repeatable)',
    description: 'Extra Chromium argument, written --chromeArg=--switch (repeatable).',
  },
  {
    name: 'ignoreDefaultChromeArg',
    kind: 'array',
    group: 'Browser',
    accepts: 'a default Chromium switch to drop (repeatable)',
    description: 'Drop one of the default Chromium arguments (repeatable).',
  },
  {
    name: 'browserUrl',
    kind: 'string',
    aliases: ['u'],
    group: 'Browser',
    accepts: 'an http(s) URL such as http://127.0.0.1:9222',
    description: 'Attach to a running Chrome through its debugging HTTP endpoint.',
  },
  {
    name: 'wsEndpoint',
    kind: 'string',
    aliases: ['w'],
    group: 'Browser',
    accepts: 'a ws(s):// URL',
    description: 'Attach to a running Chrome through its browser WebSocket.',
  },
  {
    name: 'wsHeaders',
    kind: 'string',
    group: 'Browser',
    accepts: 'a JSON object of header names to string values',
    description: 'Headers for --wsEndpoint, as JSON.',
  },
  {
    name: 'viewport',
    kind: 'string',
    group: 'Browser',
    accepts: 'WIDTHxHEIGHT, e.g. 1280x720',
    description: 'Initial viewport size of launched pages.',
  },
  {
    name: 'acceptInsecureCerts',
    kind: 'boolean',
    defaultValue: false,
    group: 'Browser',
    description: 'Ignore certificate errors.',
  },
  {
    name: 'proxyServer',
    kind: 'string',
    group: 'Browser',
    accepts: 'a proxy such as http://host:port',
    description: 'Proxy for the launched browser.',
  },
  ...CATEGORY_FLAGS,
  {
    name: 'slim',
    kind: 'boolean',
    defaultValue: false,
    group: 'Tools',
    description: 'Offer only navigate, evaluate and screenshot.',
  },
  {
    name: 'experimentalVision',
    kind: 'boolean',
    defaultValue: false,
    group: 'Tools',
    description: 'Add coordinate-based tools (click_at).',
  },
  {
    name: 'memoryDebugging',
    kind: 'boolean',
    defaultValue: false,
    group: 'Tools',
    aliases: ['experimentalMemory'],
    description: 'Add the heap snapshot analysis tools (memory category).',
  },
  {
    name: 'pageIdRouting',
    kind: 'boolean',
    defaultValue: true,
    group: 'Tools',
    description:
      'Page-scoped tools take a required pageId (set false to act on the selected page).',
  },
  {
    name: 'javascriptEvaluation',
    kind: 'boolean',
    defaultValue: true,
    group: 'Tools',
    description:
      'Set false to remove evaluate_script, initScript and javascript:/data: navigations.',
  },
  {
    name: 'redactNetworkHeaders',
    kind: 'boolean',
    defaultValue: false,
    group: 'Output',
    description: 'Hide header values in network request details.',
  },
  {
    name: 'screenshotFormat',
    kind: 'string',
    group: 'Output',
    accepts: SCREENSHOT_FORMATS.join(', '),
    description: 'Default screenshot format (default png).',
  },
  {
    name: 'screenshotQuality',
    kind: 'string',
    group: 'Output',
    accepts: 'an integer 0-100',
    description: 'Default JPEG/WebP quality.',
  },
  {
    name: 'screenshotMaxWidth',
    kind: 'string',
    group: 'Output',
    accepts: 'a positive integer',
    description: 'Downscale screenshots wider than this.',
  },
  {
    name: 'screenshotMaxHeight',
    kind: 'string',
    group: 'Output',
    accepts: 'a positive integer',
    description: 'Downscale screenshots taller than this.',
  },
  {
    name: 'sessionIdleTimeout',
    kind: 'string',
    group: 'Server',
    accepts: 'a positive number of seconds',
    description: `Close an MCP session after this long without requests or open streams (default ${DEFAULT_SESSION_IDLE_SECONDS}).`,
  },
  {
    name: 'maxSessions',
    kind: 'string',
    group: 'Server',
    accepts: 'a positive integer',
    description: `Most MCP sessions open at once; a new one closes the longest idle (default ${DEFAULT_MAX_SESSIONS}).`,
  },
  {
    name: 'workspace',
    kind: 'array',
    aliases: ['filesystemRoot'],
    group: 'Files',
    accepts: 'a directory path (repeatable)',
    description:
      'Directory that tools may read and write files in (repeatable; the OS temp dir is always allowed).',
  },
];

export class FlagError extends Error {
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(message);
  }
}

export type ParseResult =
  | {kind: 'config'; config: ServerConfig; warnings: string[]}
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

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
}

export function helpText(): string {
  const lines = [
    'Usage: mcp-browser-inspector [flags]',
    '',
    'Starts the MCP Browser Inspector engine: MCP over HTTP at /mcp (and stdio with --stdio), and the',
    'inspector UI at /. Flags accept camelCase or kebab-case; booleans take --no-<flag> or --<flag>=false.',
  ];
  for (const group of ['Server', 'Browser', 'Tools', 'Output', 'Files'] as const) {
    lines.push('', `${group}:`);
    for (const spec of FLAG_SPECS.filter(s => s.group === group)) {
      const value = spec.kind === 'boolean' ? '' : spec.kind === 'array' ? ' <value>…' : ' <value>';
      const aliases = (spec.aliases ?? []).map(a => (a.length === 1 ? `-${a}` : `--${a}`));
      const names = [`--${spec.name}${value}`, ...aliases].join(', ');
      const fallback = spec.kind === 'boolean' && spec.defaultValue ? ' [default: true]' : '';
      lines.push(`  ${names.padEnd(44)} ${spec.description}${fallback}`);
    }
  }
  lines.push(
    '',
    '  --help                                       Show this help.',
    '  --version                                    Print the version.',
  );
  return lines.join('\n');
}

const portSchema = z.coerce.number().int().min(0).max(65535);
const positiveIntSchema = z.coerce.number().int().positive();
const qualitySchema = z.coerce.number().int().min(0).max(100);
const tokenSchema = z.string().regex(TOKEN_PATTERN);
const wsHeadersSchema = z.record(z.string(), z.string());

function valueError(spec: FlagSpec, given: unknown): FlagError {
  const shown = typeof given === 'string' ? JSON.stringify(given) : String(given);
  return new FlagError(
    spec.name,
    `Invalid value for --${spec.name}: ${shown}. Expected ${spec.accepts ?? 'a valid value'}.`,
  );
}

function specByName(name: string): FlagSpec {
  const spec = FLAG_SPECS.find(s => s.name === name);
  if (!spec) {
    throw new Error(`No flag named ${name}`);
  }
  return spec;
}

function parseWith<T>(name: string, schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw valueError(specByName(name), raw);
  }
  return result.data;
}

function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const raw = args[name];
  if (raw === undefined) {
    return undefined;
  }
  const last: unknown = Array.isArray(raw) ? raw.at(-1) : raw;
  if (typeof last !== 'string' || last.trim() === '') {
    throw valueError(specByName(name), last);
  }
  return last;
}

function stringArray(args: Record<string, unknown>, name: string): string[] {
  const raw = args[name];
  if (raw === undefined) {
    return [];
  }
  const values = Array.isArray(raw) ? raw : [raw];
  return values.map(value => {
    if (typeof value !== 'string' || value === '') {
      throw valueError(specByName(name), value);
    }
    return value;
  });
}

function booleanFlag(args: Record<string, unknown>, name: string): boolean {
  const raw = args[name];
  if (raw === undefined) {
    return specByName(name).defaultValue ?? false;
  }
  const last: unknown = Array.isArray(raw) ? raw.at(-1) : raw;
  if (typeof last === 'boolean') {
    return last;
  }
  if (last === 'true' || last === '1') {
    return true;
  }
  if (last === 'false' || last === '0') {
    return false;
  }
  throw new FlagError(
    name,
    `Invalid value for --${name}: ${JSON.stringify(last)}. Expected true or false (or --no-${kebab(name)}).`,
  );
}

function parseViewport(raw: string): {width: number; height: number} {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(raw);
  if (!match?.[1] || !match[2] || Number(match[1]) === 0 || Number(match[2]) === 0) {
    throw valueError(specByName('viewport'), raw);
  }
  return {width: Number(match[1]), height: Number(match[2])};
}

function parseUrl(name: string, raw: string, protocols: string[]): string {
  try {
    const url = new URL(raw);
    if (protocols.includes(url.protocol)) {
      return raw;
    }
  } catch {
    // Reported below with the accepted forms.
  }
  throw valueError(specByName(name), raw);
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
      alias[spec.name] = spec.aliases;
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
  if (args.version === true) {
    return {kind: 'version'};
  }

  const warnings: string[] = [];
  const known = new Set<string>(['_', '$0', 'help', 'version', ...FLAG_SPECS.map(s => s.name)]);
  for (const key of Object.keys(args)) {
    if (!known.has(key)) {
      warnings.push(`Unknown flag --${key} was ignored. Run with --help to see all flags.`);
    }
  }
  const positionals = parsed._;
  if (positionals.length > 0) {
    warnings.push(
      `Unexpected argument(s) ignored: ${positionals.map(String).join(' ')}. Flags start with --.`,
    );
  }

  try {
    return {kind: 'config', config: buildConfig(args, environment, warnings), warnings};
  } catch (error) {
    if (error instanceof FlagError) {
      return {kind: 'error', message: error.message};
    }
    throw error;
  }
}

function buildConfig(
  args: Record<string, unknown>,
  environment: ParseEnvironment,
  warnings: string[],
): ServerConfig {
  const portRaw = optionalString(args, 'port');
  const port = portRaw === undefined ? DEFAULT_PORT : parseWith('port', portSchema, portRaw);

  const host = optionalString(args, 'host') ?? '127.0.0.1';
  const dangerouslyAllowNonLoopback = booleanFlag(args, 'dangerouslyAllowNonLoopback');
  if (!isLoopbackHost(host) && !dangerouslyAllowNonLoopback) {
    throw new FlagError(
      'host',
      `Refusing --host ${host}: it is not a loopback address, so other machines could reach the server. Use 127.0.0.1, or add --dangerouslyAllowNonLoopback if you really mean it.`,
    );
  }

  const tokenRaw = optionalString(args, 'token') ?? environment.env[TOKEN_ENV];
  let token: string | undefined;
  if (tokenRaw !== undefined && tokenRaw !== '') {
    const fromFlag = args.token !== undefined;
    const result = tokenSchema.safeParse(tokenRaw);
    if (!result.success) {
      if (fromFlag) {
        throw valueError(specByName('token'), '<hidden>');
      }
      throw new FlagError(
        'token',
        `Invalid ${TOKEN_ENV}: expected at least 16 characters from A-Z a-z 0-9 . _ ~ -.`,
      );
    }
    token = result.data;
  }

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
    wsHeaders = parseWith('wsHeaders', wsHeadersSchema, json);
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
    channelRaw === undefined
      ? undefined
      : parseWith('channel', z.enum(CHROME_CHANNELS), channelRaw);
  const executablePath = optionalString(args, 'executablePath');
  if (channel !== undefined && executablePath !== undefined) {
    throw new FlagError('channel', 'Use either --channel or --executablePath, not both.');
  }

  const headlessFlag = booleanFlag(args, 'headless');
  const headless = headlessFlag || !environment.hasDisplay;
  const viewportRaw = optionalString(args, 'viewport');

  const categoryEnabled = (category: ToolCategory): boolean =>
    booleanFlag(args, categoryFlagName(category));
  const categoryState: Record<ToolCategory, boolean> = {
    input: categoryEnabled('input'),
    navigation: categoryEnabled('navigation'),
    emulation: categoryEnabled('emulation'),
    performance: categoryEnabled('performance'),
    network: categoryEnabled('network'),
    debugging: categoryEnabled('debugging'),
    extensions: categoryEnabled('extensions'),
    experimentalThirdParty: categoryEnabled('experimentalThirdParty'),
    memory: categoryEnabled('memory'),
    experimentalWebmcp: categoryEnabled('experimentalWebmcp'),
    pwa: categoryEnabled('pwa'),
  };

  const formatRaw = optionalString(args, 'screenshotFormat');
  const qualityRaw = optionalString(args, 'screenshotQuality');
  const maxWidthRaw = optionalString(args, 'screenshotMaxWidth');
  const maxHeightRaw = optionalString(args, 'screenshotMaxHeight');

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
    port,
    host: host === 'localhost' ? '127.0.0.1' : host,
    dangerouslyAllowNonLoopback,
    ...(token === undefined ? {} : {token}),
    stdio: booleanFlag(args, 'stdio'),
    ...optional('readyFile', optionalString(args, 'readyFile')),
    ...optional('telemetryLog', optionalString(args, 'telemetryLog')),
    browser: {
      headless,
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
    },
    categories: categoryState,
    slim: booleanFlag(args, 'slim'),
    experimentalVision: booleanFlag(args, 'experimentalVision'),
    memoryDebugging: booleanFlag(args, 'memoryDebugging'),
    pageIdRouting: booleanFlag(args, 'pageIdRouting'),
    javascriptEvaluation: booleanFlag(args, 'javascriptEvaluation'),
    redactNetworkHeaders: booleanFlag(args, 'redactNetworkHeaders'),
    screenshot: {
      format:
        formatRaw === undefined
          ? 'png'
          : parseWith('screenshotFormat', z.enum(SCREENSHOT_FORMATS), formatRaw),
      ...optional(
        'quality',
        qualityRaw === undefined
          ? undefined
          : parseWith('screenshotQuality', qualitySchema, qualityRaw),
      ),
      ...optional(
        'maxWidth',
        maxWidthRaw === undefined
          ? undefined
          : parseWith('screenshotMaxWidth', positiveIntSchema, maxWidthRaw),
      ),
      ...optional(
        'maxHeight',
        maxHeightRaw === undefined
          ? undefined
          : parseWith('screenshotMaxHeight', positiveIntSchema, maxHeightRaw),
      ),
    },
    workspaceRoots: stringArray(args, 'workspace'),
    sessions: sessionLimits(args),
  };
}

function sessionLimits(args: Record<string, unknown>): ServerConfig['sessions'] {
  const idleRaw = optionalString(args, 'sessionIdleTimeout');
  const maxRaw = optionalString(args, 'maxSessions');
  const idleSeconds =
    idleRaw === undefined
      ? DEFAULT_SESSION_IDLE_SECONDS
      : parseWith('sessionIdleTimeout', z.coerce.number().positive(), idleRaw);
  return {
    idleTimeoutMs: Math.round(idleSeconds * 1000),
    max:
      maxRaw === undefined
        ? DEFAULT_MAX_SESSIONS
        : parseWith('maxSessions', positiveIntSchema, maxRaw),
  };
}

/** Spread helper that leaves a key out instead of setting it to undefined. */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  if (value === undefined) {
    return {};
  }
  const entry: Partial<Record<K, V>> = {};
  entry[key] = value;
  return entry;
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
