/**
 * One declarative record per tool. `defineTool` / `definePageTool` turn a typed spec into an erased
 * `Tool` the pipeline can hold in one list: the zod schema validates the arguments and the handler
 * receives them fully typed, without casts.
 */
import {z} from 'zod';
import type {ToolCategory, ToolCondition} from '../../../shared/categories.js';
import type {ElementPath} from '../../../shared/elementParams.js';
import type {ClientRef} from '../../../shared/protocol.js';
import type {ClientPages} from '../../browser/pages/ClientPages.js';
import type {ManagedBrowser} from '../../browser/launch/ManagedBrowser.js';
import type {NavigationGuard} from '../../browser/navigation/navigationGuard.js';
import type {PageState} from '../../browser/pages/PageState.js';
import type {ServerConfig} from '../../config/serverConfig.js';
import type {ParamKind} from '../../telemetry/sanitize.js';
import {ParamShapes, resolveFilePaths, type SchemaOptions} from './paramShapes.js';
import type {FileAccess} from '../../files/FileAccess.js';
import type {ResponseBuilder} from './ResponseBuilder.js';
import type {EngineServices} from './services.js';

export interface ToolCall<P> {
  params: P;
  browser: ManagedBrowser;
  /** The pages as the caller sees them: its own selection, the pages it may address. */
  pages: ClientPages;
  config: ServerConfig;
  files: FileAccess;
  client: ClientRef;
  /** Aborted when the client cancels the call (notifications/cancelled). */
  signal: AbortSignal;
  /** The client named the page (pageId); false when the call fell back to the selected page. */
  pageIdGiven: boolean;
  services: EngineServices;
  /** Adds the sections that list the page's own tools (WebMCP, third-party) for their categories. */
  addPageOfferedToolSections: (response: ResponseBuilder, page: PageState | undefined) => void;
  /**
   * Says what a long call is doing now ("Recording the trace"); clients that asked for progress
   * get it at once and in every heartbeat after.
   */
  reportProgress: (status: string) => void;
  /**
   * Checks the navigations this call makes `page` do (each redirect hop too) against the hold's
   * URL rules until the call ends, stopping one into a held URL before it commits. Once per page
   * (later calls return the same guard); it lets everything go when no URL rule is on.
   */
  guardNavigations: (page: PageState) => Promise<NavigationGuard>;
}

export interface PageToolCall<P> extends ToolCall<P> {
  page: PageState;
}

/** How a call holds the browser-wide lock for its whole run. */
export type BrowserLockMode = 'none' | 'shared' | 'exclusive';

export type FilePathScope = 'always' | 'localBrowser';

interface ToolSpecBase<S extends z.ZodRawShape, N extends string = string> {
  /** The tool's name: a literal, so the names of all tools make the ToolName union. */
  name: N;
  description: string;
  category: ToolCategory;
  readOnly: boolean;
  /**
   * Parameters that make a call write (a file) when given: without them a tool whose readOnly is
   * false only because of them just reads (take_snapshot without filePath). Hold rules decide by
   * this; the advertised readOnlyHint stays `readOnly`.
   */
  readOnlyWithout?: readonly (keyof S & string)[];
  /**
   * The parameters. Element parameters are declared here: every snapshot uid is a `uidString()`
   * (also inside arrays and objects); recording, a hold's outline, replay and telemetry find a
   * call's elements by them (Tool.elementPaths), never by argument names.
   */
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
  /** Parameters that exist only while a condition is on. */
  conditionParams?: Partial<Record<keyof S & string, ToolCondition>>;
  /** With this category on, pageId becomes optional (chrome-devtools-mcp's evaluate_script). */
  pageIdOptionalWith?: ToolCategory;
  /**
   * JSON Schema of the call's structuredContent (tools/list `outputSchema`); the handler then sets
   * `response.structured` on every successful call.
   */
  outputSchema?: Record<string, unknown>;
  /**
   * Whether a call may change the page (default: unless readOnly). Tools that only write files
   * (take_snapshot, take_screenshot) say false, so the snapshot cache survives them.
   */
  changesPage?: boolean;
}

export interface PageToolSpec<
  S extends z.ZodRawShape,
  N extends string = string,
> extends ToolSpecBase<S, N> {
  handler: (
    call: PageToolCall<z.infer<z.ZodObject<S>>>,
    response: ResponseBuilder,
  ) => Promise<void>;
}

export interface BrowserToolSpec<
  S extends z.ZodRawShape,
  N extends string = string,
> extends ToolSpecBase<S, N> {
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
      /**
       * Exactly the arguments `run` runs with (after the schema's defaults): what the call log, a
       * hold and a person editing a held call see.
       */
      params: Record<string, unknown>;
      /** The page the call is bound to whatever the arguments say (a page's own tool). */
      boundPageId?: number;
      run: (context: ToolRunContext, response: ResponseBuilder) => Promise<void>;
    }
  | {ok: false; message: string};

export interface Tool<N extends string = string> {
  readonly name: N;
  readonly description: string;
  readonly category: ToolCategory;
  readonly readOnly: boolean;
  /** Whether a call with these arguments only reads (see ToolSpecBase.readOnlyWithout). */
  readsOnly(params: Readonly<Record<string, unknown>>): boolean;
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
  /** Parameter kinds for telemetry sanitizing (element uids are `element`: never kept). */
  readonly paramKinds: Readonly<Record<string, ParamKind>>;
  /**
   * Where the arguments hold element uids (the schema's uidString parameters): what recording, a
   * hold's outline, replay and telemetry read a call's elements by.
   */
  readonly elementPaths: readonly ElementPath[];
  inputSchema(options: SchemaOptions): Record<string, unknown>;
  /** See ToolSpecBase.outputSchema. */
  readonly outputSchema?: Record<string, unknown> | undefined;
  /**
   * A WebMCP tool (the page's own) offered as an MCP tool (webmcp_<name>): gated by its conditions only, not by
   * a category, and with the fields below from the page.
   */
  readonly webmcpTool?: {
    title: string | undefined;
    annotations: {readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean};
    /** Telemetry records this instead of the page-chosen name. */
    telemetryName: string;
  };
  validate(args: Record<string, unknown>, options: SchemaOptions): ValidationResult;
}

function makeTool<S extends z.ZodRawShape, N extends string>(
  spec: ToolSpecBase<S, N>,
  pageScoped: boolean,
  browserLock: BrowserLockMode,
  offline: boolean,
  invoke: (
    params: z.infer<z.ZodObject<S>>,
    context: ToolRunContext,
    response: ResponseBuilder,
  ) => Promise<void>,
): Tool<N> {
  const shapes = new ParamShapes(spec, pageScoped);
  const filePaths = spec.filePaths ?? [];
  const writers: readonly string[] = spec.readOnlyWithout ?? [];
  return {
    name: spec.name,
    description: spec.description,
    category: spec.category,
    readOnly: spec.readOnly,
    readsOnly: params =>
      spec.readOnly ||
      // Any value given, even an empty one, counts as writing: the safe side for a hold.
      (writers.length > 0 && writers.every(param => params[param] === undefined)),
    conditions: spec.conditions ?? [],
    pageScoped,
    blockedByDialog: spec.blockedByDialog ?? false,
    browserLock,
    offline,
    slim: spec.slim,
    filePaths,
    paramNames: shapes.names,
    paramKinds: shapes.kinds,
    elementPaths: shapes.elementPaths,
    inputSchema: options => shapes.inputSchema(options),
    ...(spec.outputSchema === undefined ? {} : {outputSchema: spec.outputSchema}),
    validate(args, options) {
      const checked = shapes.check(args, options);
      if (!checked.ok) {
        return checked;
      }
      const {data, params} = checked;
      return {
        ok: true,
        params,
        run: async (context, response) => {
          const rewritten = await resolveFilePaths(filePaths, params, context.resolvePath);
          await invoke({...data, ...rewritten}, context, response);
        },
      };
    },
  };
}

export function definePageTool<S extends z.ZodRawShape, const N extends string>(
  spec: PageToolSpec<S, N>,
): Tool<N> {
  // Page-scoped tools are serialized by their page's own lock; they never wait for the browser lock, so a
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

export function defineTool<S extends z.ZodRawShape, const N extends string>(
  spec: BrowserToolSpec<S, N>,
): Tool<N> {
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
