/**
 * The selected page's WebMCP tools as top-level MCP tools (`--webmcpTools`, or the switch in the
 * Tools panel): one `webmcp_<name>` per tool of every frame, debugging tools left out (as
 * chrome-devtools-mcp does). The set follows registrations, removals, navigations, the page
 * selection and the switch; each change reaches the catalog after a short debounce, and the catalog
 * sends notifications/tools/list_changed to the clients it was offered to (an isolated client is
 * offered only its own page's tools). Calls run through the same pipeline as
 * every tool (locks, dialog gate, inspector log, telemetry) and invoke the WebMCP tool with
 * WebMCP.invokeTool, so a client's cancel reaches the page's AbortSignal.
 */
import type {WebMcpToolInfo} from '../../shared/protocol.js';
import type {PageRegistry} from '../browser/pages/PageRegistry.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {InvocationOutcome} from '../webmcp/InvocationLog.js';
import type {PageWebMcp} from '../webmcp/PageWebMcp.js';
import {mcpInputSchema, webmcpToolDescription, webmcpToolHints} from '../webmcp/toolDefinition.js';
import {WebMcpToolNames, type AssignedName} from '../webmcp/toolNames.js';
import type {WebMcpService} from '../webmcp/WebMcpService.js';
import type {Tool, ToolRunContext} from './base/definition.js';
import type {ResponseBuilder} from './base/ResponseBuilder.js';
import type {WebMcpToolAudience, ToolCatalog} from './base/ToolCatalog.js';
import {DEFAULT_EXECUTE_TIMEOUT_MS, invokerOf} from './webmcp.js';
import {oneLine} from '../../shared/inertText.js';

/**
 * Registrations come one CDP event at a time; one list_changed per burst. Well under the 100 ms
 * allowed from registration to notification (the debounce must not be felt).
 */
export const LIST_CHANGED_DEBOUNCE_MS = 25;

/**
 * A page offers at most this many tools to clients (main frame first, then registration order):
 * a hostile or generated page must not flood every agent's context. list_webmcp_tools shows all.
 */
export const MAX_PAGE_TOOLS = 100;

/** What telemetry records for every WebMCP tool: page-chosen names stay on the machine. */
const TELEMETRY_NAME = 'webmcp_page_tool';

export interface PageToolBridgeDeps {
  catalog: ToolCatalog;
  pages: PageRegistry;
  webmcp: WebMcpService;
}

/** The WebMCP tool an MCP tool stands for, fixed when the list was made. */
interface Binding {
  mcpName: string;
  pageId: number;
  frameId: string;
  toolName: string;
  readOnly: boolean;
}

export class WebMcpToolBridge {
  readonly #books = new WeakMap<PageWebMcp, WebMcpToolNames>();
  readonly #unsubscribe: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;
  #switchOn: boolean;

  constructor(private readonly deps: PageToolBridgeDeps) {
    this.#switchOn = this.#enabled();
    this.#unsubscribe.push(
      deps.webmcp.onToolsChanged(page => {
        if (page.closed || this.#offeredPages().includes(page)) {
          this.#schedule();
        }
      }),
    );
    const onPages = (): void => this.#schedule();
    deps.pages.on('changed', onPages);
    this.#unsubscribe.push(() => deps.pages.off('changed', onPages));
    const onCatalog = (): void => {
      // The catalog also changes because of this bridge; only the switch matters here.
      if (this.#enabled() !== this.#switchOn) {
        this.#switchOn = this.#enabled();
        this.#schedule();
      }
    };
    deps.catalog.on('changed', onCatalog);
    this.#unsubscribe.push(() => deps.catalog.off('changed', onCatalog));
    this.#schedule();
  }

  /**
   * Whose tools are offered, to whom. Every client but an isolated one gets the tools of the page
   * selected last by any of them (each has its own selection; that tool list is one for all of
   * them); an isolated client (--isolateClients) gets its own selected page's, and sees no other
   * client's. Calls of these tools are bound to their page and still go through the caller's pages,
   * so a page the caller may not see answers as a closed one.
   */
  #audiences(): {audience: WebMcpToolAudience; page: PageState | undefined}[] {
    const live = (page: PageState | undefined): PageState | undefined =>
      page?.closed === false ? page : undefined;
    const {pages} = this.deps;
    return [
      {audience: undefined, page: live(pages.sharedFocused)},
      ...pages.isolatedClientPages().map(own => ({audience: own, page: live(own.selected)})),
    ];
  }

  #offeredPages(): PageState[] {
    return this.#audiences().flatMap(({page}) => (page ? [page] : []));
  }

  #enabled(): boolean {
    const {catalog} = this.deps;
    return !catalog.slim && catalog.isConditionEnabled('webmcpTools');
  }

  #schedule(): void {
    if (this.#timer) {
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.refresh();
    }, LIST_CHANGED_DEBOUNCE_MS);
    this.#timer.unref();
  }

  /** Recomputes every audience's set now; the catalog tells an audience only if its set changed. */
  refresh(): void {
    const audiences = this.#audiences();
    const kept = new Set(audiences.map(({audience}) => audience));
    this.deps.catalog.keepOwnWebMcpTools(audience => kept.has(audience));
    for (const {audience, page} of audiences) {
      this.#refreshAudience(audience, this.#enabled() ? page : undefined);
    }
  }

  #refreshAudience(audience: WebMcpToolAudience, page: PageState | undefined): void {
    const {catalog, webmcp} = this.deps;
    const tracker = page ? webmcp.peekTracker(page) : undefined;
    if (!page || !tracker || tracker.disposed) {
      catalog.setWebMcpTools([], '', audience);
      return;
    }
    const infos = tracker
      .toolInfos()
      .filter(info => info.annotations.debugging !== true)
      .slice(0, MAX_PAGE_TOOLS);
    const names = this.#book(tracker, page).assign(
      infos.map(info => ({frameId: info.frameId, name: info.name})),
    );
    const tools = infos.flatMap((info, index) => {
      const assigned = names[index];
      return assigned ? [webmcpToolAsMcp(info, assigned, page.id)] : [];
    });
    const signature = JSON.stringify([page.id, tools.map(tool => catalog.definition(tool))]);
    catalog.setWebMcpTools(tools, signature, audience);
  }

  #book(tracker: PageWebMcp, page: PageState): WebMcpToolNames {
    let book = this.#books.get(tracker);
    if (!book) {
      book = new WebMcpToolNames(page.mainFrameId);
      this.#books.set(tracker, book);
    }
    return book;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    for (const off of this.#unsubscribe.splice(0)) {
      off();
    }
  }
}

/** One WebMCP tool as an erased pipeline Tool (see definition.ts). */
export function webmcpToolAsMcp(
  info: WebMcpToolInfo,
  assigned: AssignedName,
  pageId: number,
): Tool {
  const {schema, note} = mcpInputSchema(info.inputSchema);
  const hints = webmcpToolHints(info);
  const binding: Binding = {
    mcpName: assigned.mcpName,
    pageId,
    frameId: info.frameId,
    toolName: info.name,
    readOnly: hints.readOnlyHint,
  };
  const properties = schema.properties;
  return {
    name: assigned.mcpName,
    description: webmcpToolDescription({
      tool: info,
      frameNumber: assigned.frameNumber,
      schemaNote: note,
    }),
    category: 'experimentalWebmcp',
    readOnly: hints.readOnlyHint,
    readsOnly: () => hints.readOnlyHint,
    conditions: ['webmcpTools'],
    pageScoped: true,
    blockedByDialog: true,
    browserLock: 'none',
    offline: false,
    slim: undefined,
    filePaths: [],
    paramNames: typeof properties === 'object' ? Object.keys(properties ?? {}) : [],
    paramKinds: {},
    // The page's schema is the page's: no argument is taken for a snapshot uid.
    elementPaths: [],
    webmcpTool: {
      title: info.title === undefined ? undefined : oneLine(info.title.slice(0, 200)),
      annotations: hints,
      telemetryName: TELEMETRY_NAME,
    },
    inputSchema: () => schema,
    // The page checks its own input: the arguments run as sent, on the page the tool was listed
    // for (whatever they say), and they are what a hold shows.
    validate: args => {
      const params = {...args};
      return {
        ok: true,
        params,
        boundPageId: pageId,
        run: (context, response) => runWebMcpTool(binding, params, context, response),
      };
    },
  };
}

async function runWebMcpTool(
  binding: Binding,
  input: Record<string, unknown>,
  context: ToolRunContext,
  response: ResponseBuilder,
): Promise<void> {
  const page = context.page?.id === binding.pageId ? context.page : undefined;
  if (!page) {
    throw new Error(
      `${binding.mcpName} is a tool of page ${binding.pageId}, but the call reached page ${context.page?.id ?? 'none'}: the selection changed. Call tools/list again (webmcp_ tools follow the selected page), or select_page ${binding.pageId} and retry.`,
    );
  }
  if (!binding.readOnly) {
    page.actionCount++;
  }
  const webmcp = context.services.webmcp;
  context.reportProgress(`Starting the page's WebMCP tool ${binding.toolName}`);
  const record = await webmcp.start({
    page,
    toolName: binding.toolName,
    frameId: binding.frameId,
    input,
    invoker: invokerOf(context),
    timeoutMs: DEFAULT_EXECUTE_TIMEOUT_MS,
    signal: context.signal,
  });
  context.reportProgress(
    `Waiting for the page's WebMCP tool ${binding.toolName} (invocation ${record.invocation.invocationId})`,
  );
  renderOutcome(binding, await webmcp.settled(record), response);
}

function renderOutcome(
  binding: Binding,
  outcome: InvocationOutcome,
  response: ResponseBuilder,
): void {
  const {invocation, output, exception} = outcome;
  if (invocation.status === 'Completed') {
    response.appendLine(
      output === undefined
        ? `${binding.toolName} completed without output.`
        : typeof output === 'string'
          ? oneLine(output)
          : JSON.stringify(output),
    );
    return;
  }
  const detail = exception?.description ?? invocation.errorText ?? 'no reason given';
  const next =
    invocation.status === 'Error'
      ? 'Check the arguments against the input schema and retry.'
      : invocation.status === 'Interrupted'
        ? 'Call tools/list to see the WebMCP tools now offered, then retry.'
        : `The WebMCP tool did not answer within ${invocation.timeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS} ms or was cancelled; retry, or use execute_webmcp_tool with a longer timeout.`;
  throw new Error(
    `The page's WebMCP tool ${binding.toolName} ended with status ${invocation.status}: ${detail}. ${next}`,
  );
}
