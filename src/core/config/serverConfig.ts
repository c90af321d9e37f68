/**
 * The engine's configuration as one zod schema. The types every part of the engine reads
 * (ServerConfig, BrowserConfig) are derived from it, and the flag parser checks each value with
 * the schema's own field, so the rules and the types cannot drift apart.
 */
import {z} from 'zod';
import {TOOL_CATEGORIES, type ToolCondition} from '../../shared/categories.js';
import {TOKEN_PATTERN} from '../../shared/constants.js';

export const CHROME_CHANNELS = ['stable', 'beta', 'dev', 'canary'] as const;
export type ChromeChannel = (typeof CHROME_CHANNELS)[number];
export const SCREENSHOT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];

export const DEFAULT_CLIENT_SESSION_IDLE_SECONDS = 30 * 60;
export const DEFAULT_MAX_CLIENT_SESSIONS = 100;
export const DEFAULT_RESUME_WINDOW_SECONDS = 10;
export const DEFAULT_HOLD_TIMEOUT_SECONDS = 300;

const positiveInt = z.coerce.number().int().positive();

export const browserConfigSchema = z.object({
  headless: z.boolean(),
  /** True when the user did not pass --headless but there is no display to show a window on. */
  headlessBecauseNoDisplay: z.boolean(),
  isolated: z.boolean(),
  userDataDir: z.string().optional(),
  executablePath: z.string().optional(),
  channel: z.enum(CHROME_CHANNELS).optional(),
  chromeArgs: z.array(z.string()),
  ignoreDefaultChromeArgs: z.array(z.string()),
  browserUrl: z.string().optional(),
  wsEndpoint: z.string().optional(),
  wsHeaders: z.record(z.string(), z.string()).optional(),
  viewport: z
    .object({width: z.number().int().positive(), height: z.number().int().positive()})
    .optional(),
  acceptInsecureCerts: z.boolean(),
  proxyServer: z.string().optional(),
});

export const screenshotConfigSchema = z.object({
  format: z.enum(SCREENSHOT_FORMATS),
  quality: z.coerce.number().int().min(0).max(100).optional(),
  maxWidth: positiveInt.optional(),
  maxHeight: positiveInt.optional(),
});

export const serverConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535),
  host: z.string(),
  dangerouslyAllowNonLoopback: z.boolean(),
  token: z.string().regex(TOKEN_PATTERN).optional(),
  stdio: z.boolean(),
  readyFile: z.string().optional(),
  telemetryLog: z.string().optional(),
  browser: browserConfigSchema,
  categories: z.record(z.enum(TOOL_CATEGORIES), z.boolean()),
  slim: z.boolean(),
  experimentalVision: z.boolean(),
  memoryDebugging: z.boolean(),
  /** Offer the selected page's WebMCP tools as top-level `webmcp_<name>` tools. */
  webmcpTools: z.boolean(),
  /** A client's repeat snapshot of a page answers with the changes (switchable at run time). */
  snapshotDiffs: z.boolean(),
  pageIdRouting: z.boolean(),
  javascriptEvaluation: z.boolean(),
  redactNetworkHeaders: z.boolean(),
  screenshot: screenshotConfigSchema,
  workspaceRoots: z.array(z.string()),
  /** Client sessions over HTTP: idle expiry and how many may be open at once. */
  clientSessions: z.object({
    idleTimeoutMs: z.number().int().positive(),
    max: positiveInt,
    /** How long a call whose stream dropped waits for its client to resume it (0: cancel at once). */
    resumeWindowMs: z.number().int().nonnegative(),
  }),
  /** Each client session gets its own browser context and sees only its own pages. */
  isolateClients: z.boolean(),
  /** Hold rules as written (checked by the shared parser) and how long a held call may wait. */
  hold: z.object({rules: z.array(z.string()), timeoutMs: z.number().int().positive()}),
  /** Recording: on by default; `dir` unset means the recordings folder `<config dir>/sessions`. */
  recording: z.object({enabled: z.boolean(), dir: z.string().optional()}),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type BrowserConfig = z.infer<typeof browserConfigSchema>;

/** The flags that gate single tools or what tools answer, by condition (shared/categories.ts). */
export function toolConditions(config: ServerConfig): Record<ToolCondition, boolean> {
  return {
    experimentalVision: config.experimentalVision,
    memoryDebugging: config.memoryDebugging,
    webmcpTools: config.webmcpTools,
    javascriptEvaluation: config.javascriptEvaluation,
    snapshotDiffs: config.snapshotDiffs,
  };
}
