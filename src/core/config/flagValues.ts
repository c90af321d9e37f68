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
  const shown = typeof given === 'string' ? JSON.stringify(given) : String(given);
  return new FlagError(
    spec.name,
    `Invalid value for --${spec.name}: ${shown}. Expected ${spec.accepts ?? 'a valid value'}.`,
  );
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
