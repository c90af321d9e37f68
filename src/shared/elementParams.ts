/**
 * Where a tool's arguments hold element uids, as its record declares them (the schema's uid
 * parameters): a parameter name, then object keys, and ITEMS for every item of an array. Recording
 * (who each element was), a hold's outline, replay (the same element in another browser) and
 * telemetry (uids are never kept) read a call's elements through these paths, never by guessing
 * from argument names.
 *
 * A call's element argument is named by its place in the arguments: `uid`, `from_uid`,
 * `elements[0].uid`, `args[1]` — the `param` of a recorded element.
 */
import {isRecord} from './values.js';

/** A parameter name, then object keys and ITEMS. */
export type ElementPath = readonly string[];

/** "Every item of the array here." */
export const ITEMS = '[]';

export interface ElementArgument {
  /** Where the uid is in the arguments: `uid`, `elements[0].uid`, `args[1]`. */
  param: string;
  uid: string;
}

/** One uid found in the arguments: its place as steps (keys and indexes) and as a param name. */
interface FoundElement extends ElementArgument {
  steps: (string | number)[];
}

function walk(
  value: unknown,
  path: ElementPath,
  at: number,
  steps: (string | number)[],
  found: FoundElement[],
): void {
  if (at === path.length) {
    if (typeof value === 'string') {
      found.push({param: paramName(steps), uid: value, steps});
    }
    return;
  }
  const segment = path[at];
  if (segment === ITEMS) {
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => walk(item, path, at + 1, [...steps, index], found));
    }
    return;
  }
  if (segment !== undefined && isRecord(value) && Object.hasOwn(value, segment)) {
    walk(value[segment], path, at + 1, [...steps, segment], found);
  }
}

function paramName(steps: readonly (string | number)[]): string {
  return steps
    .map((step, index) =>
      typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`,
    )
    .join('');
}

function find(paths: readonly ElementPath[], args: Record<string, unknown>): FoundElement[] {
  const found: FoundElement[] = [];
  for (const path of paths) {
    walk(args, path, 0, [], found);
  }
  return found;
}

/** Every uid the arguments hold at the declared paths, in declaration order. */
export function elementArguments(
  paths: readonly ElementPath[],
  args: Record<string, unknown>,
): ElementArgument[] {
  return find(paths, args).map(({param, uid}) => ({param, uid}));
}

function replaced(value: unknown, steps: readonly (string | number)[], uid: string): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) {
    return uid;
  }
  if (typeof step === 'number' && Array.isArray(value)) {
    return value.map((item: unknown, index) => (index === step ? replaced(item, rest, uid) : item));
  }
  if (typeof step === 'string' && isRecord(value)) {
    return {...value, [step]: replaced(value[step], rest, uid)};
  }
  return value;
}

/**
 * The arguments with the element argument `param` set to `uid`; undefined when the arguments hold
 * no element there by these paths (the tool's parameters changed since the call was recorded).
 */
export function withElementArgument(
  paths: readonly ElementPath[],
  args: Record<string, unknown>,
  param: string,
  uid: string,
): Record<string, unknown> | undefined {
  const target = find(paths, args).find(element => element.param === param);
  if (!target) {
    return undefined;
  }
  const next = replaced(args, target.steps, uid);
  return isRecord(next) ? next : undefined;
}
