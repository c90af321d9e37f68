/**
 * Byte sizes and ranges as the heap tools take them ("1MB", "500KB", "1MB-2MB", "-1MB", "1MB-";
 * k/kb = 1000, kib = 1024), with chrome-devtools-mcp's parsing and error texts.
 */
import {z} from 'zod';

const BYTE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  byte: 1,
  bytes: 1,
  k: 1e3,
  kb: 1e3,
  kib: 1024,
  m: 1e6,
  mb: 1e6,
  mib: 1024 ** 2,
  g: 1e9,
  gb: 1e9,
  gib: 1024 ** 3,
  t: 1e12,
  tb: 1e12,
  tib: 1024 ** 4,
};

export function parseByteSize(value: string): number {
  const trimmed = value.trim();
  if (trimmed === '') {
    throw new Error(`Invalid byte size: "${value}"`);
  }
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]+)?$/.exec(trimmed);
  const amount = match?.[1];
  if (match === null || amount === undefined) {
    throw new Error(
      `Invalid byte size format: "${value}". Expected a number or format like "1024", "1M", "1MB", "1G", "1GB".`,
    );
  }
  const number = Number(amount);
  const unit = match[2];
  if (unit === undefined) {
    return Math.round(number);
  }
  const multiplier = BYTE_UNITS[unit.toLowerCase()];
  if (multiplier === undefined) {
    throw new Error(
      `Unknown unit "${unit}" in "${value}". Supported units: B, KB, KiB, MB, MiB, GB, GiB, TB, TiB.`,
    );
  }
  return Math.round(number * multiplier);
}

export interface ByteRange {
  min: number;
  max: number | undefined;
}

export function parseByteSizeRange(value: string): ByteRange {
  const trimmed = value.trim();
  if (!trimmed.includes('-')) {
    return {min: parseByteSize(trimmed), max: undefined};
  }
  const parts = trimmed.split('-');
  const [minText = '', maxText = ''] = parts.map(part => part.trim());
  if (parts.length !== 2) {
    throw new Error(
      `Invalid byte size range: "${value}". Expected a size or range like "1MB", "1MB-2MB", "-1MB", or "1MB-".`,
    );
  }
  if (minText === '' && maxText === '') {
    throw new Error(`Invalid byte size range: "${value}". At least one bound is required.`);
  }
  const min = minText === '' ? 0 : parseByteSize(minText);
  const max = maxText === '' ? undefined : parseByteSize(maxText);
  if (max !== undefined && min > max) {
    throw new Error(
      `Invalid byte size range: "${value}". The lower bound must not exceed the upper bound.`,
    );
  }
  return {min, max};
}

/** A string parameter parsed into a range at validation time (bad input names the problem). */
export function byteSizeRangeSchema(description: string) {
  return z
    .string()
    .transform((value, context): ByteRange => {
      try {
        return parseByteSizeRange(value);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: error instanceof Error ? error.message : 'Invalid byte size range',
        });
        return z.NEVER;
      }
    })
    .describe(description);
}
