/**
 * A tool's parameters as the pipeline sees them at one moment: which are on (a category-bound
 * parameter exists only while its category is), whether pageId is taken and required, the JSON
 * schema tools/list shows, and the check of a call's arguments with self-healing errors.
 */
import {z} from 'zod';
import {PATH_CHARS_LIMIT} from './inputLimits.js';
import type {ToolCategory, ToolCondition} from '../../../shared/categories.js';
import {ITEMS, type ElementPath} from '../../../shared/elementParams.js';
import {isRecord} from '../../../shared/values.js';
import type {ParamKind} from '../../telemetry/sanitize.js';

/** What shapes a tool's parameters at this moment. */
export interface SchemaOptions {
  pageIdRouting: boolean;
  /** Whether a category is on now; omitted = every category-bound parameter is hidden. */
  categoryOn?: (category: ToolCategory) => boolean;
  /** Whether a condition is on now; omitted = every condition-bound parameter is hidden. */
  conditionOn?: (condition: ToolCondition) => boolean;
}

/** The parameter rules of a tool spec. */
export interface ParamRules<S extends z.ZodRawShape> {
  name: string;
  schema: S;
  categoryParams?: Partial<Record<keyof S & string, ToolCategory>>;
  /** Parameters that exist only while a condition is on (take_snapshot's full: snapshotDiffs). */
  conditionParams?: Partial<Record<keyof S & string, ToolCondition>>;
  pageIdOptionalWith?: ToolCategory;
}

export type CheckedArguments<S extends z.ZodRawShape> =
  | {ok: true; data: z.infer<z.ZodObject<S>>; params: Record<string, unknown>}
  | {ok: false; message: string};

const PAGE_ID_DESCRIPTION = 'Id of the page to act on (from list_pages).';

/** The uid parameters' schemas: strings in tools/list, as the peer's are (see uidString). */
const UID_SCHEMAS = new WeakSet<z.ZodType>();

/**
 * A snapshot uid parameter. It is advertised as a string, as chrome-devtools-mcp's is, but a whole
 * number given for it is taken as its digits: snapshots show uids as bare numbers, and CLI and
 * model clients send them as numbers (`uid: 3`). Use it wherever a tool takes a uid, also inside
 * arrays and objects; `check` does the taking.
 */
export function uidString(description?: string): z.ZodString {
  // An optional uid is described on its optional wrapper (as before), so its schema is unchanged.
  const schema = description === undefined ? z.string() : z.string().describe(description);
  UID_SCHEMAS.add(schema);
  return schema;
}

/** Nesting bound when looking for uid schemas (the declared schemas are a few levels deep). */
const UID_SEARCH_DEPTH = 6;

function uidPaths(schema: z.ZodType, path: ElementPath, found: ElementPath[], depth = 0): void {
  const inner = unwrap(schema);
  if (UID_SCHEMAS.has(inner)) {
    found.push(path);
  } else if (depth >= UID_SEARCH_DEPTH) {
    return;
  } else if (inner instanceof z.ZodArray) {
    const element: unknown = inner.element;
    if (element instanceof z.ZodType) {
      uidPaths(element, [...path, ITEMS], found, depth + 1);
    }
  } else if (inner instanceof z.ZodObject) {
    for (const [key, child] of Object.entries(inner.shape)) {
      if (child instanceof z.ZodType) {
        uidPaths(child, [...path, key], found, depth + 1);
      }
    }
  }
}

/** The value with a whole number at the end of `path` replaced by its digits. */
function numberToUid(value: unknown, path: ElementPath, index = 0): unknown {
  if (index === path.length) {
    return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  }
  const key = path[index];
  if (key === ITEMS) {
    return Array.isArray(value) ? value.map(item => numberToUid(item, path, index + 1)) : value;
  }
  if (key !== undefined && isRecord(value) && key in value) {
    return {...value, [key]: numberToUid(value[key], path, index + 1)};
  }
  return value;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault
    ) {
      const inner: unknown = current.unwrap();
      if (inner instanceof z.ZodType) {
        current = inner;
        continue;
      }
    }
    return current;
  }
}

function kindOf(schema: z.ZodType): ParamKind {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodString) {
    return 'string';
  }
  if (inner instanceof z.ZodNumber) {
    return 'number';
  }
  if (inner instanceof z.ZodBoolean) {
    return 'boolean';
  }
  if (inner instanceof z.ZodArray) {
    return 'array';
  }
  if (inner instanceof z.ZodEnum || inner instanceof z.ZodLiteral) {
    return 'enum';
  }
  return 'other';
}

/** zod emits ±2^53 bounds for every int and a $schema key: noise that costs tokens on every list. */
function tidyJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(tidyJsonSchema);
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$schema') {
        continue;
      }
      if (
        (key === 'minimum' || key === 'maximum') &&
        (child === Number.MAX_SAFE_INTEGER || child === Number.MIN_SAFE_INTEGER)
      ) {
        continue;
      }
      out[key] = tidyJsonSchema(child);
    }
    return out;
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `${path} is required`;
  }
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** An error names at most this many arguments or problems (a client can send thousands). */
const LISTED_ITEMS = 20;
const LISTED_NAME_CHARS = 100;

/** The first LISTED_ITEMS of `items`, joined, and how many more there were. */
function listSome(items: readonly string[], separator: string): string {
  const shown = items.slice(0, LISTED_ITEMS).join(separator);
  const more = items.length - LISTED_ITEMS;
  return more > 0 ? `${shown}${separator}and ${more} more` : shown;
}

/** chrome-devtools-mcp's self-healing wording, so agents trained on it recover the same way. */
function unknownArgumentsMessage(
  tool: string,
  unknown: readonly string[],
  expected: readonly string[],
): string {
  const plural = unknown.length > 1;
  const named = unknown.map(key =>
    key.length > LISTED_NAME_CHARS ? `"${key.slice(0, LISTED_NAME_CHARS)}…"` : `"${key}"`,
  );
  const list = listSome(named, ', ');
  const expectation =
    expected.length === 0
      ? 'This tool does not accept any arguments.'
      : `Expected arguments: ${expected.map(key => `"${key}"`).join(', ')}.`;
  return `Unknown argument${plural ? 's' : ''} for tool "${tool}": ${list}. ${expectation} Remove ${plural ? 'them' : 'it'} and retry.`;
}

export class ParamShapes<S extends z.ZodRawShape> {
  /** Declared parameter names (without pageId). */
  readonly names: readonly string[];
  /** Parameter kinds for telemetry sanitizing (a uid parameter is an `element`). */
  readonly kinds: Readonly<Record<string, ParamKind>>;
  /** Where the parameters hold element uids: the schema's uid parameters (see uidString). */
  readonly elementPaths: readonly ElementPath[];
  // Hidden category parameters are refused as unknown before this parses, so the full shape serves.
  readonly #base: z.ZodObject<S, z.core.$strict>;
  readonly #pageIdSchema = z.number({error: 'expected a number'});
  readonly #schemaCache = new Map<string, Record<string, unknown>>();

  constructor(
    private readonly rules: ParamRules<S>,
    private readonly pageScoped: boolean,
  ) {
    this.#base = z.object(rules.schema).strict();
    this.names = Object.keys(rules.schema);
    const kinds: Record<string, ParamKind> = {};
    const elementPaths: ElementPath[] = [];
    for (const [name, schema] of Object.entries(rules.schema)) {
      kinds[name] = schema instanceof z.ZodType ? kindOf(schema) : 'other';
      if (schema instanceof z.ZodType) {
        uidPaths(schema, [name], elementPaths);
      }
    }
    for (const path of elementPaths) {
      const [name] = path;
      if (path.length === 1 && name !== undefined) {
        kinds[name] = 'element';
      }
    }
    this.kinds = kinds;
    this.elementPaths = elementPaths;
  }

  /** The arguments with whole numbers given for uids replaced by their digits. */
  #withUids(args: Record<string, unknown>): Record<string, unknown> {
    let taken = args;
    for (const path of this.elementPaths) {
      const next = numberToUid(taken, path);
      taken = isRecord(next) ? next : taken;
    }
    return taken;
  }

  /** The parameters, page id rule and zod shape in force for these options. */
  #shapeFor(options: SchemaOptions) {
    const categoryParams: Partial<Record<string, ToolCategory>> = this.rules.categoryParams ?? {};
    const conditionParams: Partial<Record<string, ToolCondition>> =
      this.rules.conditionParams ?? {};
    const active = this.names.filter(name => {
      const category = categoryParams[name];
      const condition = conditionParams[name];
      return (
        (category === undefined || (options.categoryOn?.(category) ?? false)) &&
        (condition === undefined || (options.conditionOn?.(condition) ?? false))
      );
    });
    const shape: Record<string, z.ZodType> = {};
    for (const name of active) {
      const schema: unknown = this.rules.schema[name];
      if (schema instanceof z.ZodType) {
        shape[name] = schema;
      }
    }
    const routed = this.pageScoped && options.pageIdRouting;
    const optionalWith = this.rules.pageIdOptionalWith;
    const pageIdOptional =
      routed && optionalWith !== undefined && (options.categoryOn?.(optionalWith) ?? false);
    const key = `${routed}|${pageIdOptional}|${active.join(',')}`;
    return {active, shape, routed, pageIdOptional, key};
  }

  inputSchema(options: SchemaOptions): Record<string, unknown> {
    const {shape, routed, pageIdOptional, key} = this.#shapeFor(options);
    let cached = this.#schemaCache.get(key);
    if (!cached) {
      // pageId comes first, as in chrome-devtools-mcp's listing.
      const pageId = z.number().describe(PAGE_ID_DESCRIPTION);
      const object = routed
        ? z.object({pageId: pageIdOptional ? pageId.optional() : pageId, ...shape})
        : z.object(shape);
      const json = tidyJsonSchema(z.toJSONSchema(object, {io: 'input', unrepresentable: 'any'}));
      cached = isRecord(json) ? json : {type: 'object'};
      this.#schemaCache.set(key, cached);
    }
    return cached;
  }

  check(args: Record<string, unknown>, options: SchemaOptions): CheckedArguments<S> {
    const tool = this.rules.name;
    const {active, routed, pageIdOptional} = this.#shapeFor(options);
    const known = routed ? [...active, 'pageId'] : active;
    const knownNames = new Set(known);
    const unknown = Object.keys(args).filter(key => !knownNames.has(key));
    if (unknown.length > 0) {
      return {ok: false, message: unknownArgumentsMessage(tool, unknown, known)};
    }
    const {pageId, ...rest} = args;
    const issues: string[] = [];
    if (routed && !(pageIdOptional && pageId === undefined)) {
      const checked = this.#pageIdSchema.safeParse(pageId);
      if (!checked.success) {
        issues.push(pageId === undefined ? 'pageId is required' : 'pageId: expected a number');
      }
    }
    const parsed = this.#base.safeParse(this.#withUids(routed ? rest : args));
    if (!parsed.success) {
      issues.push(...parsed.error.issues.map(describeIssue));
    }
    if (issues.length > 0 || !parsed.success) {
      const hint = issues.some(issue => issue.startsWith('pageId'))
        ? ' Call list_pages to see page ids.'
        : '';
      return {
        ok: false,
        message: `Invalid arguments for tool "${tool}": ${listSome(issues, '; ')}.${hint}`,
      };
    }
    const data = parsed.data;
    const params: Record<string, unknown> =
      routed && pageId !== undefined ? {...data, pageId} : {...data};
    return {ok: true, data, params};
  }
}

/** The file-path parameters of a call, each replaced by its checked, canonical form. */
export async function resolveFilePaths(
  filePaths: readonly {param: string}[],
  params: Readonly<Record<string, unknown>>,
  resolvePath: (value: string) => Promise<string>,
): Promise<Record<string, unknown>> {
  const rewritten: Record<string, unknown> = {};
  for (const {param} of filePaths) {
    const value: unknown = params[param];
    const longest = [value]
      .flat()
      .reduce<number>(
        (most, item) => Math.max(most, typeof item === 'string' ? item.length : 0),
        0,
      );
    if (longest > PATH_CHARS_LIMIT) {
      throw new Error(
        `${param}: a path of ${longest} characters, over the limit of ${PATH_CHARS_LIMIT}. Pass a shorter path.`,
      );
    }
    if (typeof value === 'string' && value.trim() !== '') {
      rewritten[param] = await resolvePath(value);
    } else if (Array.isArray(value)) {
      const paths: string[] = [];
      for (const item of value) {
        if (typeof item === 'string') {
          paths.push(await resolvePath(item));
        }
      }
      rewritten[param] = paths;
    }
  }
  return rewritten;
}
