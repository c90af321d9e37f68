/**
 * Desktop settings remembered between runs: window bounds, category switches, the port and whether
 * the window opens its Hold tab when a call is held. One JSON file in the user config dir (mode
 * 0600, written atomically), validated on load: a damaged file is reported and ignored, never
 * fatal. Saved switches and port act as flags that come BEFORE the command line, so an explicit
 * flag always wins over what was saved.
 */
import fs from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import {TOOL_CATEGORIES, categoryFlagName, type ToolCategory} from '../shared/categories.js';
import {makeDirBounded} from '../core/config/pathFlags.js';
import {userConfigDir} from '../core/config/paths.js';

const SETTINGS_FILE = 'settings.json';

const windowBoundsSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(150).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowBounds = z.infer<typeof windowBoundsSchema>;

const settingsSchema = z.object({
  window: windowBoundsSchema.optional(),
  categories: z.partialRecord(z.enum(TOOL_CATEGORIES), z.boolean()).optional(),
  port: z.number().int().min(1).max(65_535).optional(),
  /** Open the Hold tab when a call is held (unset: yes, the desktop app's default). */
  openHoldOnHeld: z.boolean().optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

export interface LoadedSettings {
  settings: Settings;
  file: string;
  /** Why the saved file was ignored (damaged JSON or values out of range), if it was. */
  warning?: string;
}

export function settingsFile(configDir: string = userConfigDir()): string {
  return path.join(configDir, SETTINGS_FILE);
}

export function loadSettings(configDir: string = userConfigDir()): LoadedSettings {
  const file = settingsFile(configDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {settings: {}, file};
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      settings: {},
      file,
      warning: `Ignored ${file}: it is not valid JSON. It is rewritten when a setting changes.`,
    };
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map(issue => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    return {
      settings: {},
      file,
      warning: `Ignored ${file}: ${issues}. It is rewritten when a setting changes.`,
    };
  }
  return {settings: parsed.data, file};
}

/** Writes the whole settings object (validated first) with mode 0600 in a 0700 directory. */
export function saveSettings(settings: Settings, configDir: string = userConfigDir()): void {
  const valid = settingsSchema.parse(settings);
  const file = settingsFile(configDir);
  makeDirBounded(configDir, 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(valid, null, 2)}\n`, {mode: 0o600});
  fs.renameSync(temp, file);
  if (process.platform !== 'win32') {
    fs.chmodSync(file, 0o600);
  }
}

/** Reads, merges one change and writes back: the settings file has several writers over time. */
export function updateSettings(
  change: Partial<Settings>,
  configDir: string = userConfigDir(),
): Settings {
  const next: Settings = {...loadSettings(configDir).settings, ...change};
  saveSettings(next, configDir);
  return next;
}

/**
 * Saved settings as command-line flags, to be placed BEFORE the user's own flags: the flag parser
 * keeps the last value of a repeated flag, so anything given explicitly overrides these.
 */
export function settingsToArgs(settings: Settings): string[] {
  const args: string[] = [];
  if (settings.port !== undefined) {
    args.push(`--port=${settings.port}`);
  }
  for (const category of TOOL_CATEGORIES) {
    const enabled = settings.categories?.[category];
    if (enabled !== undefined) {
      args.push(`--${categoryFlagName(category)}=${enabled}`);
    }
  }
  return args;
}

/** The category switches to remember, from the engine's current state. */
export function categorySettings(
  states: readonly {id: ToolCategory; enabled: boolean}[],
): Partial<Record<ToolCategory, boolean>> {
  const categories: Partial<Record<ToolCategory, boolean>> = {};
  for (const state of states) {
    categories[state.id] = state.enabled;
  }
  return categories;
}
