/**
 * Arguments of the `replay` and `export` subcommands: the RECORDING.jsonl, the subcommand's own
 * options (`--until N`, `--format F`, `--out F`, `--origin OLD=NEW` repeatable), and the rest,
 * which are server flags (replay) or nothing (export). Anything not understood is an error (exit 2), not a warning: a mistyped option
 * would otherwise replay or export something other than what was asked.
 */
import {FLAG_SPECS} from '../core/config/flagSpecs.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface SubcommandArgs {
  file: string;
  /** The subcommand's own options by camelCase name: the last value given. */
  options: Map<string, string>;
  /** Every value of each own option, in order (for repeatable ones). */
  repeated: Map<string, string[]>;
  /** Everything else, in order (server flags for replay). */
  rest: string[];
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Server flags that take a value, so `--port 0` does not count `0` as the recording. */
const VALUE_FLAGS = new Set(
  FLAG_SPECS.filter(spec => spec.kind !== 'boolean').flatMap(spec => [
    spec.name,
    ...(spec.aliases ?? []),
  ]),
);

export function parseSubcommandArgs(
  command: string,
  argv: readonly string[],
  ownOptions: readonly string[],
): SubcommandArgs {
  const options = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const rest: string[] = [];
  let file: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const flag = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!flag) {
      if (arg.startsWith('-') && arg !== '-') {
        rest.push(arg);
      } else if (file === undefined) {
        file = arg;
      } else {
        throw new UsageError(`${command} takes one recording; also got ${JSON.stringify(arg)}.`);
      }
      continue;
    }
    const name = camel(flag[1] ?? '');
    if (ownOptions.includes(name)) {
      const value = flag[2] ?? argv[++index];
      if (value === undefined || (flag[2] === undefined && value.startsWith('--'))) {
        throw new UsageError(`--${name} needs a value.`);
      }
      options.set(name, value);
      repeated.set(name, [...(repeated.get(name) ?? []), value]);
      continue;
    }
    rest.push(arg);
    if (flag[2] === undefined && VALUE_FLAGS.has(name)) {
      const value = argv[index + 1];
      if (value !== undefined) {
        rest.push(value);
        index++;
      }
    }
  }
  if (file === undefined) {
    throw new UsageError(`${command} needs a recording (a .jsonl file the server recorded).`);
  }
  return {file, options, repeated, rest};
}

/** A positive integer option, e.g. `--until 3`. */
export function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(
      `--${name} takes a call number (1 or more); got ${JSON.stringify(value)}.`,
    );
  }
  return Number(value);
}
