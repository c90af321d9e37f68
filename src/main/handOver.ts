/**
 * Single instance: a second launch hands its flags to the running app and exits. What can change
 * live is applied (category switches; a --readyFile is written at once); everything else is named
 * as needing a restart. Only flags the second launch gave EXPLICITLY count: a bare second launch
 * just focuses the window and must not reset switches to their defaults.
 */
import path from 'node:path';
import {z} from 'zod';
import {TOOL_CATEGORIES, categoryFlagName, type ToolCategory} from '../shared/categories.js';
import {FLAG_SPECS} from '../core/config/flagSpecs.js';
import {parseFlags} from '../core/config/flags.js';
import {type ServerConfig} from '../core/config/serverConfig.js';
import {isRecord} from '../shared/values.js';

/** What the second instance sends as `additionalData` of `requestSingleInstanceLock`. */
const handOverDataSchema = z.object({
  argv: z.array(z.string().max(8_192)).max(512),
  cwd: z.string().max(4_096),
});
export type HandOverData = z.infer<typeof handOverDataSchema>;

/**
 * The user's own arguments from an Electron argv. Packaged: everything after the executable.
 * Unpackaged (`electron [switches] <app> [flags]`): everything after the app path, skipping the
 * switches before it (Playwright adds `--inspect=0 --remote-debugging-port=0 -r <loader>`).
 */
export function extractUserArgs(argv: readonly string[], isPackaged: boolean): string[] {
  if (isPackaged) {
    return argv.slice(1);
  }
  let index = 1;
  while (index < argv.length) {
    const arg = argv[index] ?? '';
    if (!arg.startsWith('-')) {
      return argv.slice(index + 1);
    }
    index += arg === '-r' || arg === '--require' ? 2 : 1;
  }
  return [];
}

/** The hand-over data from a second launch, validated; falls back to its raw argv. */
export function handOverArgs(
  additionalData: unknown,
  argv: readonly string[],
  isPackaged: boolean,
): HandOverData {
  const parsed = handOverDataSchema.safeParse(additionalData);
  return parsed.success ? parsed.data : {argv: extractUserArgs(argv, isPackaged), cwd: ''};
}

type Spec = (typeof FLAG_SPECS)[number];

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function findSpec(rawName: string): Spec | undefined {
  const name = camelCase(rawName);
  return FLAG_SPECS.find(spec => spec.name === name || (spec.aliases ?? []).includes(name));
}

/** The argv split into one token group per flag given, in order (unknown flags are skipped). */
export function groupFlags(argv: readonly string[]): {spec: Spec; tokens: string[]}[] {
  const groups: {spec: Spec; tokens: string[]}[] = [];
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (token === '--') {
      break;
    }
    if (!token.startsWith('-')) {
      continue;
    }
    const body = token.replace(/^--?/, '');
    const equals = body.indexOf('=');
    const key = equals === -1 ? body : body.slice(0, equals);
    const negated = key.startsWith('no-');
    const spec = findSpec(negated ? key.slice(3) : key) ?? findSpec(key);
    if (!spec) {
      continue;
    }
    const tokens = [token];
    const next = argv[index + 1];
    if (equals === -1 && !negated && next !== undefined) {
      const takesValue =
        spec.kind === 'boolean' ? next === 'true' || next === 'false' : !next.startsWith('-');
      if (takesValue) {
        tokens.push(next);
        index++;
      }
    }
    groups.push({spec, tokens});
  }
  return groups;
}

export interface HandOverPlan {
  /** Category switches that differ from the running app's, to apply live. */
  categories: Partial<Record<ToolCategory, boolean>>;
  /** Where to write the ready file now (absolute). */
  readyFile?: string;
  /** Flags (as `--name`) that differ from the running app's and need a restart. */
  needsRestart: string[];
  warnings: string[];
  /** The second launch's flags were invalid; nothing was applied. */
  error?: string;
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix === '' ? key : `${prefix}.${key}`, out);
    }
    return;
  }
  out.set(prefix, value === undefined ? 'undefined' : JSON.stringify(value));
}

function flat(config: ServerConfig): Map<string, string> {
  const out = new Map<string, string>();
  flatten(config, '', out);
  return out;
}

const CATEGORY_BY_FLAG = new Map<string, ToolCategory>(
  TOOL_CATEGORIES.map(category => [categoryFlagName(category), category]),
);

/** Decides what a second launch's flags change. `cwd` resolves a relative --readyFile. */
export function planHandOver(data: HandOverData, current: ServerConfig): HandOverPlan {
  const plan: HandOverPlan = {categories: {}, needsRestart: [], warnings: []};
  // No environment and "a display exists": only what the second launch passed explicitly counts.
  const environment = {env: {}, hasDisplay: true};
  const parsed = parseFlags(data.argv, environment);
  if (parsed.kind === 'error') {
    plan.error = parsed.message;
    return plan;
  }
  if (parsed.kind !== 'config') {
    return plan;
  }
  plan.warnings.push(...parsed.warnings);
  const defaults = parseFlags([], environment);
  if (defaults.kind !== 'config') {
    return plan;
  }
  const wanted = flat(parsed.config);
  const running = flat(current);
  const baseline = flat(defaults.config);

  const explicitCategories = new Set<ToolCategory>();
  for (const {spec, tokens} of groupFlags(data.argv)) {
    const category = CATEGORY_BY_FLAG.get(spec.name);
    if (category !== undefined) {
      explicitCategories.add(category);
      continue;
    }
    if (spec.name === 'readyFile') {
      if (parsed.config.readyFile !== undefined) {
        plan.readyFile = path.resolve(data.cwd || '.', parsed.config.readyFile);
      }
      continue;
    }
    // The config paths this flag sets: where its own parse differs from the defaults, or (when
    // it restates a default) the config key named like the flag.
    const alone = parseFlags(tokens, environment);
    if (alone.kind !== 'config') {
      continue;
    }
    let paths = [...flat(alone.config)]
      .filter(([key, value]) => baseline.get(key) !== value)
      .map(([key]) => key);
    if (paths.length === 0) {
      paths = [...baseline.keys()].filter(
        key =>
          key === spec.name || key === `browser.${spec.name}` || key.startsWith(`${spec.name}.`),
      );
    }
    const changes = paths.some(key => wanted.get(key) !== running.get(key));
    const flag = `--${spec.name}`;
    if (changes && !plan.needsRestart.includes(flag)) {
      plan.needsRestart.push(flag);
    }
  }
  for (const category of explicitCategories) {
    const enabled = parsed.config.categories[category];
    if (enabled !== current.categories[category]) {
      plan.categories[category] = enabled;
    }
  }
  return plan;
}

/** One line for the log and the notice in the window; never echoes flag values (tokens!). */
export function describeHandOver(plan: HandOverPlan): string | undefined {
  if (plan.error !== undefined) {
    return `A second launch passed invalid flags, so nothing was changed: ${plan.error}`;
  }
  const parts: string[] = [];
  const switched = Object.entries(plan.categories).map(
    ([category, enabled]) => `${category} ${enabled ? 'on' : 'off'}`,
  );
  if (switched.length > 0) {
    parts.push(`Switched categories: ${switched.join(', ')}.`);
  }
  if (plan.needsRestart.length > 0) {
    parts.push(
      `Restart MCP Browser Inspector to apply ${plan.needsRestart.join(', ')} (the running app keeps its current setting).`,
    );
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}
