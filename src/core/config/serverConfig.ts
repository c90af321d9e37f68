/**
 * The engine's configuration as one zod schema. The types every part of the engine reads
 * (ServerConfig, BrowserConfig) are derived from it, and the flag parser checks each value with
 * the schema's own field, so the rules and the types cannot drift apart.
 */
import {z} from 'zod';
import {TOOL_CATEGORIES, TOOL_CONDITIONS, type ToolCondition} from '../../shared/categories.js';
import {TOKEN_PATTERN} from '../../shared/constants.js';
import {recordOf} from '../../shared/values.js';
import {CHROME_CHANNELS, SCREENSHOT_FORMATS} from './configDefaults.js';
import {CONFIG_BOOLEAN_FLAGS, type ConfigBooleanFlag} from './flagSpecs.js';

const positiveInt = z.coerce.number().int().positive();

/** The flags that are a config field of their own name (FlagSpec.configBoolean). */
const configBooleanShape = recordOf(CONFIG_BOOLEAN_FLAGS, () => z.boolean());
export type ConfigBooleans = Record<ConfigBooleanFlag, boolean>;

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
  // --stdio, --slim, --experimentalVision, --isolateClients…: see FlagSpec.configBoolean.
  ...configBooleanShape,
  port: z.coerce.number().int().min(0).max(65535),
  host: z.string(),
  token: z.string().regex(TOKEN_PATTERN).optional(),
  readyFile: z.string().optional(),
  telemetryLog: z.string().optional(),
  browser: browserConfigSchema,
  categories: z.record(z.enum(TOOL_CATEGORIES), z.boolean()),
  screenshot: screenshotConfigSchema,
  workspaceRoots: z.array(z.string()),
  /** Client sessions over HTTP: idle expiry and how many may be open at once. */
  clientSessions: z.object({
    idleTimeoutMs: z.number().int().positive(),
    max: positiveInt,
    /** How long a call whose stream dropped waits for its client to resume it (0: cancel at once). */
    resumeWindowMs: z.number().int().nonnegative(),
  }),
  /** Hold rules as written (checked by the shared parser) and how long a held call may wait. */
  hold: z.object({rules: z.array(z.string()), timeoutMs: z.number().int().positive()}),
  /** Recording: on by default; `dir` unset means the recordings folder `<config dir>/sessions`. */
  recording: z.object({enabled: z.boolean(), dir: z.string().optional()}),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type BrowserConfig = z.infer<typeof browserConfigSchema>;

/** The flags that gate single tools or what tools answer, by condition (shared/categories.ts). */
export function toolConditions(config: ServerConfig): Record<ToolCondition, boolean> {
  return recordOf(TOOL_CONDITIONS, condition => config[condition]);
}
