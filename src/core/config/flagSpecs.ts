/**
 * Every command-line flag the desktop app and the headless server take: its kind, what it
 * accepts, aliases, default and help group, and the --help text made from them.
 */
import {
  CATEGORIES_OFF_BY_DEFAULT,
  CATEGORY_LABELS,
  TOOL_CATEGORIES,
  categoryFlagName,
} from '../../shared/categories.js';
import {DEFAULT_PORT, TOKEN_ENV} from '../../shared/constants.js';
import {HOLD_RULES_ACCEPTED} from '../../shared/hold.js';
import {
  CHROME_CHANNELS,
  DEFAULT_HOLD_TIMEOUT_SECONDS,
  DEFAULT_MAX_CLIENT_SESSIONS,
  DEFAULT_RESUME_WINDOW_SECONDS,
  DEFAULT_CLIENT_SESSION_IDLE_SECONDS,
  SCREENSHOT_FORMATS,
} from './configDefaults.js';

type FlagKind = 'boolean' | 'string' | 'array';

export interface FlagSpec {
  name: string;
  kind: FlagKind;
  description: string;
  /** Shown in --help and in value errors. */
  accepts?: string;
  aliases?: readonly string[];
  defaultValue?: boolean;
  /**
   * A boolean flag whose value is the config field of its own name, as given: the config schema
   * and parser take it from here (serverConfig.ts), so such a flag is this entry and its consumer.
   */
  configBoolean?: true;
  /**
   * On a configBoolean flag: a replay takes it over from the recording's header, since it shapes
   * what tools exist or what the page sees (src/cli/replayFlags.ts reads the list from here).
   */
  replay?: true;
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

/** Written with its literal types, so the config-boolean flags' names are a type. */
const SPECS = [
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
    configBoolean: true,
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
    configBoolean: true,
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
    configBoolean: true,
    replay: true,
    defaultValue: false,
    group: 'Tools',
    description: 'Offer only navigate, evaluate and screenshot.',
  },
  {
    name: 'experimentalVision',
    kind: 'boolean',
    configBoolean: true,
    replay: true,
    defaultValue: false,
    group: 'Tools',
    description: 'Add coordinate-based tools (click_at).',
  },
  {
    name: 'memoryDebugging',
    kind: 'boolean',
    configBoolean: true,
    replay: true,
    defaultValue: false,
    group: 'Tools',
    aliases: ['experimentalMemory'],
    description: 'Add the heap snapshot analysis tools (memory category).',
  },
  // WebMCP tools as MCP tools.
  {
    name: 'webmcpTools',
    kind: 'boolean',
    configBoolean: true,
    replay: true,
    defaultValue: false,
    group: 'Tools',
    description:
      "Offer the selected page's WebMCP tools as top-level tools named webmcp_<name> (untrusted).",
  },
  {
    name: 'snapshotDiffs',
    kind: 'boolean',
    configBoolean: true,
    defaultValue: false,
    group: 'Tools',
    description:
      "A client's repeat snapshot of a page answers with the lines that changed (take_snapshot full=true: the whole tree).",
  },
  {
    name: 'pageIdRouting',
    kind: 'boolean',
    configBoolean: true,
    replay: true,
    defaultValue: true,
    group: 'Tools',
    description:
      'Page-scoped tools take a required pageId (set false to act on the selected page).',
  },
  {
    name: 'javascriptEvaluation',
    kind: 'boolean',
    configBoolean: true,
    replay: true,
    defaultValue: true,
    group: 'Tools',
    description:
      'Set false to remove evaluate_script, initScript and javascript:/data: navigations.',
  },
  {
    name: 'redactNetworkHeaders',
    kind: 'boolean',
    configBoolean: true,
    replay: true,
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
    description: `Close a client session (one MCP client over HTTP) after this long without requests or open streams (default ${DEFAULT_CLIENT_SESSION_IDLE_SECONDS}).`,
  },
  {
    name: 'maxSessions',
    kind: 'string',
    group: 'Server',
    accepts: 'a positive integer',
    description: `Most client sessions open at once; a new one closes the longest idle (default ${DEFAULT_MAX_CLIENT_SESSIONS}).`,
  },
  {
    name: 'resumeWindow',
    kind: 'string',
    group: 'Server',
    accepts: 'seconds, 0 to 3600',
    description: `How long a tool call whose HTTP stream dropped keeps running for its client to resume the stream (Last-Event-ID) before it is cancelled; 0 cancels at once (default ${DEFAULT_RESUME_WINDOW_SECONDS}).`,
  },
  {
    name: 'isolateClients',
    kind: 'boolean',
    configBoolean: true,
    defaultValue: false,
    group: 'Server',
    description:
      'Give each client session its own browser context (cookies, storage, cache) and show it only its own pages; closed when the session ends.',
  },
  // Hold rules: agent calls that wait for a person in the inspector.
  {
    name: 'hold',
    kind: 'array',
    group: 'Tools',
    accepts: HOLD_RULES_ACCEPTED,
    description:
      'Hold matching agent calls until you allow, edit or deny them in the inspector, e.g. --hold=not-read-only or --hold=tool:click,url:*://*.example.com/* (off by default).',
  },
  {
    name: 'holdTimeout',
    kind: 'string',
    group: 'Tools',
    accepts: 'a positive number of seconds',
    description: `Deny a held call nobody decided on after this long (default ${DEFAULT_HOLD_TIMEOUT_SECONDS}).`,
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
  // --- Recording ---
  {
    name: 'record',
    kind: 'boolean',
    defaultValue: true,
    group: 'Server',
    description:
      'Record every tool call and inspector event of this run to a recording (--no-record to turn off).',
  },
  {
    name: 'recordDir',
    kind: 'string',
    group: 'Server',
    accepts: 'a directory path',
    description:
      'Folder for recordings (default <config dir>/sessions; kept 14 days, at most 2 GB, starred ones always).',
  },
] as const satisfies readonly FlagSpec[];

export const FLAG_SPECS: readonly FlagSpec[] = SPECS;

type ConfigBooleanSpec = Extract<(typeof SPECS)[number], {configBoolean: true}>;
/** The flags whose value is the config field of their own name (FlagSpec.configBoolean). */
export type ConfigBooleanFlag = ConfigBooleanSpec['name'];

export const CONFIG_BOOLEAN_FLAGS: readonly ConfigBooleanFlag[] = SPECS.filter(
  (spec): spec is ConfigBooleanSpec => 'configBoolean' in spec && spec.configBoolean === true,
).map(spec => spec.name);

type ReplayBooleanSpec = Extract<ConfigBooleanSpec, {replay: true}>;
/** The config booleans a replay takes over from a recording (FlagSpec.replay). */
export type ReplayBooleanFlag = ReplayBooleanSpec['name'];

export const REPLAY_BOOLEAN_FLAGS: readonly ReplayBooleanFlag[] = SPECS.filter(
  (spec): spec is ReplayBooleanSpec =>
    'configBoolean' in spec &&
    spec.configBoolean === true &&
    'replay' in spec &&
    spec.replay === true,
).map(spec => spec.name);

export function helpText(): string {
  const lines = [
    'Usage: mcp-browser-inspector [flags]',
    '',
    'Starts the MCP Browser Inspector engine: MCP over HTTP at /mcp (and stdio with --stdio), and the',
    'inspector UI at /. Flags accept camelCase or kebab-case; booleans take --no-<flag> or --<flag>=false.',
    '',
    'Other commands (each with --help):',
    '  replay RECORDING.jsonl [--until N] [flags]  Re-run a recording in a fresh browser and compare.',
    '  export RECORDING.jsonl --format playwright   Write a recording as a Playwright Test file.',
    '  list [--json]                                List the servers running for you on this machine.',
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
