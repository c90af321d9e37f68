/**
 * Reading one flag's value from the parsed argv: the last of repeated values wins, and a bad
 * value becomes a FlagError that names the flag and what it accepts.
 */
import type {z} from 'zod';
import {FLAG_SPECS, type FlagSpec} from './flagSpecs.js';

export type FlagArgs = Record<string, unknown>;

export class FlagError extends Error {
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(message);
  }
}

export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
}

export function valueError(spec: FlagSpec, given: unknown): FlagError {
  if (given === '') {
    // A bare `--port` (or `--port=`): nothing was given, so say what to give.
    return new FlagError(
      spec.name,
      `--${spec.name} needs a value: ${spec.accepts ?? 'a valid value'}.`,
    );
  }
  const shown = typeof given === 'string' ? JSON.stringify(given) : String(given);
  return new FlagError(
    spec.name,
    `Invalid value for --${spec.name}: ${shown}. Expected ${spec.accepts ?? 'a valid value'}.`,
  );
}

function camelName(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The flag that takes a value, by its name, kebab-case name or alias as written on the line. */
function valueSpecOf(written: string): FlagSpec | undefined {
  const name = camelName(written);
  return FLAG_SPECS.find(
    spec => spec.kind !== 'boolean' && (spec.name === name || spec.aliases?.includes(name)),
  );
}

/**
 * A flag that takes a value but got none: last on the line, followed by another flag, or written
 * `--flag=`. The parser would read it as empty (or drop it, for repeatable flags).
 */
export function missingValueError(argv: readonly string[]): FlagError | undefined {
  for (let index = 0; index < argv.length; index++) {
    const match = /^--?([^=]+)(=?)(.*)$/s.exec(argv[index] ?? '');
    const spec = match?.[1] === undefined ? undefined : valueSpecOf(match[1]);
    if (match === null || spec === undefined) {
      continue;
    }
    const next = argv[index + 1];
    const bare = match[2] === '' && (next === undefined || next.startsWith('-'));
    if (bare || (match[2] === '=' && match[3] === '')) {
      return valueError(spec, '');
    }
  }
  return undefined;
}

export function specByName(name: string): FlagSpec {
  const spec = FLAG_SPECS.find(s => s.name === name);
  if (!spec) {
    throw new Error(`No flag named ${name}`);
  }
  return spec;
}

export function parseWith<T>(name: string, schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw valueError(specByName(name), raw);
  }
  return result.data;
}

export function optionalString(args: FlagArgs, name: string): string | undefined {
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

export function stringArray(args: FlagArgs, name: string): string[] {
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

export function booleanFlag(args: FlagArgs, name: string): boolean {
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

export function parseViewport(raw: string): {width: number; height: number} {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(raw);
  if (!match?.[1] || !match[2] || Number(match[1]) === 0 || Number(match[2]) === 0) {
    throw valueError(specByName('viewport'), raw);
  }
  return {width: Number(match[1]), height: Number(match[2])};
}

export function parseUrl(name: string, raw: string, protocols: string[]): string {
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

/** Spread helper that leaves a key out instead of setting it to undefined. */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  if (value === undefined) {
    return {};
  }
  const entry: Partial<Record<K, V>> = {};
  entry[key] = value;
  return entry;
}
