/**
 * One declarative record per tool. `defineTool` / `definePageTool` turn a typed spec into an erased
 * `Tool` the pipeline can hold in one list: the zod schema validates the arguments and the handler
 * receives them fully typed, without casts.
 */
import {z} from 'zod';
import type {ToolCategory, ToolCondition} from '../../shared/categories.js';
import type {ClientRef} from '../../shared/protocol.js';
import type {BrowserSession} from '../browser/BrowserSession.js';
import type {PageState} from '../browser/PageState.js';
import type {ServerConfig} from '../config/serverConfig.js';
import type {ParamKind} from '../telemetry/sanitize.js';
import type {FileAccess} from '../files/FileAccess.js';
import type {ResponseBuilder} from './response/ResponseBuilder.js';
import type {EngineServices} from './services.js';
import {isRecord} from '../../shared/values.js';

export interface ToolCall<P> {
  params: P;
  session: BrowserSession;
  config: ServerConfig;
  files: FileAccess;
  client: ClientRef;
  /** Aborted when the client cancels the call (notifications/cancelled). */
  signal: AbortSignal;
  /** The client named the page (pageId); false when the call fell back to the selected page. */
  pageIdGiven: boolean;
  services: EngineServices;
  /** Adds the sections that list the page's own tools (WebMCP, third-party) for their categories. */
  addPageToolSections: (response: ResponseBuilder, page: PageState | undefined) => void;
}

export interface PageToolCall<P> extends ToolCall<P> {
  page: PageState;
}

/** How a call holds the browser-wide lock for its whole run. */
export type BrowserLockMode = 'none' | 'shared' | 'exclusive';

export type FilePathScope = 'always' | 'localBrowser';

interface ToolSpecBase<S extends z.ZodRawShape> {
  name: string;
  description: string;
  category: ToolCategory;
  readOnly: boolean;
  schema: S;
  /** Feature flags the tool needs in addition to its category. */
  conditions?: ToolCondition[];
  /** Refuse to run while the page shows a JavaScript dialog. */
  blockedByDialog?: boolean;
  /** Parameters that hold file paths: checked against the allowed roots, replaced by canonical paths. */
  filePaths?: readonly {param: keyof S & string; scope: FilePathScope}[];
  /** Only in --slim mode (the slim trio), or never in it. */
  slim?: boolean;
  /** Parameters that exist only while a category is on (others reject them as unknown). */
  categoryParams?: Partial<Record<keyof S & string, ToolCategory>>;
  /** With this category on, pageId becomes optional (chrome-devtools-mcp's evaluate_script). */
  pageIdOptionalWith?: ToolCategory;
  /**
   * Whether a call may change the page (default: unless readOnly). Tools that only write files
   * (take_snapshot, take_screenshot) say false, so the snapshot cache survives them.
   */
  changesPage?: boolean;
}

export interface PageToolSpec<S extends z.ZodRawShape> extends ToolSpecBase<S> {
  handler: (
    call: PageToolCall<z.infer<z.ZodObject<S>>>,
    response: ResponseBuilder,
  ) => Promise<void>;
}

export interface BrowserToolSpec<S extends z.ZodRawShape> extends ToolSpecBase<S> {
  /**
   * `exclusive` for tools that remove pages; `none` for tools that only hold the browser lock
   * briefly themselves (new_page, while the tab is created) and for offline tools; others share
   * the browser.
   */
  browserLock?: BrowserLockMode;
  /**
   * Offline tools (heap snapshot analysis) work on files only: no browser start and no lock, so
   * their long work never holds up browser calls.
   */
  offline?: boolean;
  handler: (call: ToolCall<z.infer<z.ZodObject<S>>>, response: ResponseBuilder) => Promise<void>;
}

/** What the pipeline supplies to run a validated call. */
export interface ToolRunContext extends Omit<ToolCall<unknown>, 'params'> {
  /** Set for page-scoped tools; resolved (pageId or selected page) and locked by the pipeline. */
  page: PageState | undefined;
  /** Validates one path (or file: URL) and returns the canonical form. */
  resolvePath: (value: string) => Promise<string>;
}

export type ValidationResult =
  | {
      ok: true;
      params: Record<string, unknown>;
      run: (context: ToolRunContext, response: ResponseBuilder) => Promise<void>;
    }
  | {ok: false; message: string};

/** What shapes a tool's parameters at this moment. */
export interface SchemaOptions {
  pageIdRouting: boolean;
  /** Whether a category is on now; omitted = every category-bound parameter is hidden. */
  categoryOn?: (category: ToolCategory) => boolean;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly category: ToolCategory;
  readonly readOnly: boolean;
  readonly conditions: readonly ToolCondition[];
  readonly pageScoped: boolean;
  readonly blockedByDialog: boolean;
  readonly browserLock: BrowserLockMode;
  /** Needs no browser at all (see BrowserToolSpec.offline). */
  readonly offline: boolean;
  readonly slim: boolean | undefined;
  readonly filePaths: readonly {param: string; scope: FilePathScope}[];
  /** Declared parameter names (without pageId). */
  readonly paramNames: readonly string[];
  /** Parameter kinds for telemetry sanitizing. */
  readonly paramKinds: Readonly<Record<string, ParamKind>>;
  inputSchema(options: SchemaOptions): Record<string, unknown>;
  validate(args: Record<string, unknown>, options: SchemaOptions): ValidationResult;
}

const PAGE_ID_DESCRIPTION = 'Id of the page to act on (from list_pages).';

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

function makeTool<S extends z.ZodRawShape>(
  spec: ToolSpecBase<S>,
  pageScoped: boolean,
  browserLock: BrowserLockMode,
  offline: boolean,
  invoke: (
    params: z.infer<z.ZodObject<S>>,
    context: ToolRunContext,
    response: ResponseBuilder,
  ) => Promise<void>,
): Tool {
  // Hidden category parameters are refused as unknown before this parses, so the full shape serves.
  const base = z.object(spec.schema).strict();
  const pageIdSchema = z.number({error: 'expected a number'});
  const paramNames = Object.keys(spec.schema);
  const categoryParams: Partial<Record<string, ToolCategory>> = spec.categoryParams ?? {};
  /** The parameters, page id rule and zod object in force for these options. */
  const shapeFor = (options: SchemaOptions) => {
    const active = paramNames.filter(name => {
      const category = categoryParams[name];
      return category === undefined || (options.categoryOn?.(category) ?? false);
    });
    const shape: Record<string, z.ZodType> = {};
    for (const name of active) {
      const schema: unknown = spec.schema[name];
      if (schema instanceof z.ZodType) {
        shape[name] = schema;
      }
    }
    const routed = pageScoped && options.pageIdRouting;
    const pageIdOptional =
      routed &&
      spec.pageIdOptionalWith !== undefined &&
      (options.categoryOn?.(spec.pageIdOptionalWith) ?? false);
    const key = `${routed}|${pageIdOptional}|${active.join(',')}`;
    return {active, shape, routed, pageIdOptional, key};
  };

  const paramKinds: Record<string, ParamKind> = {};
  for (const [name, schema] of Object.entries(spec.schema)) {
    paramKinds[name] = schema instanceof z.ZodType ? kindOf(schema) : 'other';
  }
  const schemaCache = new Map<string, Record<string, unknown>>();

  return {
    name: spec.name,
    description: spec.description,
    category: spec.category,
    readOnly: spec.readOnly,
    conditions: spec.conditions ?? [],
    pageScoped,
    blockedByDialog: spec.blockedByDialog ?? false,
    browserLock,
    offline,
    slim: spec.slim,
    filePaths: spec.filePaths ?? [],
    paramNames,
    paramKinds,
    inputSchema(options) {
      const {shape, routed, pageIdOptional, key} = shapeFor(options);
      let cached = schemaCache.get(key);
      if (!cached) {
        // pageId comes first, as in chrome-devtools-mcp's listing.
        const pageId = z.number().describe(PAGE_ID_DESCRIPTION);
        const object = routed
          ? z.object({pageId: pageIdOptional ? pageId.optional() : pageId, ...shape})
          : z.object(shape);
        const json = tidyJsonSchema(z.toJSONSchema(object, {io: 'input', unrepresentable: 'any'}));
        cached = isRecord(json) ? json : {type: 'object'};
        schemaCache.set(key, cached);
      }
      return cached;
    },
    validate(args, options) {
      const {active, routed, pageIdOptional} = shapeFor(options);
      const known = routed ? [...active, 'pageId'] : active;
      const unknown = Object.keys(args).filter(key => !known.includes(key));
      if (unknown.length > 0) {
        return {ok: false, message: unknownArgumentsMessage(spec.name, unknown, known)};
      }
      const {pageId, ...rest} = args;
      const issues: string[] = [];
      if (routed && !(pageIdOptional && pageId === undefined)) {
        const checked = pageIdSchema.safeParse(pageId);
        if (!checked.success) {
          issues.push(pageId === undefined ? 'pageId is required' : 'pageId: expected a number');
        }
      }
      const parsed = base.safeParse(routed ? rest : args);
      if (!parsed.success) {
        issues.push(...parsed.error.issues.map(describeIssue));
      }
      if (issues.length > 0 || !parsed.success) {
        const hint = issues.some(issue => issue.startsWith('pageId'))
          ? ' Call list_pages to see page ids.'
          : '';
        return {
          ok: false,
          message: `Invalid arguments for tool "${spec.name}": ${issues.join('; ')}.${hint}`,
        };
      }
      const data = parsed.data;
      const params: Record<string, unknown> =
        routed && pageId !== undefined ? {...data, pageId} : {...data};
      return {
        ok: true,
        params,
        run: async (context, response) => {
          const rewritten: Record<string, unknown> = {};
          for (const {param} of spec.filePaths ?? []) {
            const value: unknown = params[param];
            if (typeof value === 'string' && value.trim() !== '') {
              rewritten[param] = await context.resolvePath(value);
            } else if (Array.isArray(value)) {
              const paths: string[] = [];
              for (const item of value) {
                if (typeof item === 'string') {
                  paths.push(await context.resolvePath(item));
                }
              }
              rewritten[param] = paths;
            }
          }
          await invoke({...data, ...rewritten}, context, response);
        },
      };
    },
  };
}

/** chrome-devtools-mcp's self-healing wording, so agents trained on it recover the same way. */
export function unknownArgumentsMessage(
  tool: string,
  unknown: readonly string[],
  expected: readonly string[],
): string {
  const plural = unknown.length > 1;
  const list = unknown.map(key => `"${key}"`).join(', ');
  const expectation =
    expected.length === 0
      ? 'This tool does not accept any arguments.'
      : `Expected arguments: ${expected.map(key => `"${key}"`).join(', ')}.`;
  return `Unknown argument${plural ? 's' : ''} for tool "${tool}": ${list}. ${expectation} Remove ${plural ? 'them' : 'it'} and retry.`;
}

export function definePageTool<S extends z.ZodRawShape>(spec: PageToolSpec<S>): Tool {
  // Page tools are serialized by their page's own lock; they never wait for the browser lock, so a
  // long call on one page cannot delay work on other pages or the opening of new ones.
  return makeTool(spec, true, 'none', false, async (params, context, response) => {
    const page = context.page;
    if (!page) {
      throw new Error(`Tool ${spec.name} needs a page, but none was resolved.`);
    }
    if (spec.changesPage ?? !spec.readOnly) {
      page.actionCount++;
    }
    await spec.handler({...context, params, page}, response);
  });
}

export function defineTool<S extends z.ZodRawShape>(spec: BrowserToolSpec<S>): Tool {
  return makeTool(
    spec,
    false,
    spec.browserLock ?? 'shared',
    spec.offline ?? false,
    async (params, context, response) => {
      await spec.handler({...context, params}, response);
    },
  );
}

// Shared parameter schemas -----------------------------------------------------------------------

export const timeoutSchema = z
  .number()
  .int()
  .optional()
  .describe('Max wait in ms; 0 or omitted uses the default.');

export const includeSnapshotSchema = z
  .boolean()
  .optional()
  .describe('Add a snapshot to the response. Default false.');
