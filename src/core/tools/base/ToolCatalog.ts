/**
 * Every tool the engine has, and which of them clients see right now. Categories can be switched at
 * run time; listeners (the client sessions) then send notifications/tools/list_changed. The catalog
 * also holds the sections features add to responses (registered with the tools, see sections.ts).
 */
import {EventEmitter} from 'node:events';
import type {Tool as McpTool} from '@modelcontextprotocol/sdk/types.js';
import {
  CATEGORIES_OFF_BY_DEFAULT,
  CATEGORY_LABELS,
  CONDITIONS,
  conditionFlag,
  TOOL_CATEGORIES,
  TOOL_CONDITIONS,
  categoryFlagName,
  type ToolCategory,
  type ToolCondition,
} from '../../../shared/categories.js';
import type {CategoryState, ConditionState, ToolInfo} from '../../../shared/protocol.js';
import type {ClientPages} from '../../browser/pages/ClientPages.js';
import type {PageState} from '../../browser/pages/PageState.js';
import {PAGE_TOOL_PREFIX} from '../../webmcp/toolNames.js';
import type {Tool} from './definition.js';
import type {SchemaOptions} from './paramShapes.js';
import type {ResponseBuilder} from './ResponseBuilder.js';
import type {SectionContext, ToolSet} from './sections.js';

export type ToolStatus = {enabled: true} | {enabled: false; reason: string};

export interface CatalogOptions {
  slim: boolean;
  pageIdRouting: boolean;
  categories: Record<ToolCategory, boolean>;
  conditions: Record<ToolCondition, boolean>;
}

/**
 * Who a set of WebMCP tools is offered to: an isolated client session's own pages
 * (--isolateClients: its own selected page's tools only), or undefined: every other client.
 */
export type WebMcpToolAudience = ClientPages | undefined;

/** The audience a client's pages belongs to. */
export function webmcpToolAudience(pages: ClientPages): WebMcpToolAudience {
  return pages.isolated && pages.client !== undefined ? pages : undefined;
}

interface WebMcpToolSet {
  tools: Map<string, Tool>;
  /** Same names, schemas and descriptions → no change and no list_changed. */
  signature: string;
  definitions?: McpTool[];
}

const NO_WEBMCP_TOOLS: WebMcpToolSet = {tools: new Map(), signature: ''};

export class ToolCatalog extends EventEmitter<{
  changed: [];
  /** The WebMCP tools of one audience changed (only its clients are told). */
  webmcpToolSetChanged: [WebMcpToolAudience];
}> {
  readonly #tools: Map<string, Tool>;
  readonly #sections: Pick<ToolSet, 'pageStateSections' | 'pageOfferedToolSections'>;
  readonly #categories: Record<ToolCategory, boolean>;
  readonly #conditions: Record<ToolCondition, boolean>;
  /** The selected page's WebMCP tools as MCP tools (tools/webmcpToolBridge.ts), per audience. */
  #sharedWebMcpTools: WebMcpToolSet = NO_WEBMCP_TOOLS;
  readonly #ownWebMcpTools = new Map<ClientPages, WebMcpToolSet>();
  /** The built-in tools clients see now (WebMCP tools are added per audience). */
  #definitions: McpTool[] | undefined;

  constructor(
    {tools, ...sections}: ToolSet,
    private readonly options: CatalogOptions,
  ) {
    super();
    this.#tools = new Map(
      [...tools].sort((a, b) => a.name.localeCompare(b.name)).map(tool => [tool.name, tool]),
    );
    this.#sections = sections;
    this.#categories = {...options.categories};
    this.#conditions = {...options.conditions};
  }

  get slim(): boolean {
    return this.options.slim;
  }

  get pageIdRouting(): boolean {
    return this.options.pageIdRouting && !this.options.slim;
  }

  /** Routing and the categories in force: they decide which parameters tools take now. */
  schemaOptions(): SchemaOptions {
    return {
      pageIdRouting: this.pageIdRouting,
      categoryOn: category => !this.options.slim && this.#categories[category],
      conditionOn: condition => this.#conditions[condition],
    };
  }

  #webmcpToolSet(audience: WebMcpToolAudience): WebMcpToolSet {
    return audience === undefined
      ? this.#sharedWebMcpTools
      : (this.#ownWebMcpTools.get(audience) ?? NO_WEBMCP_TOOLS);
  }

  /** A tool by name, as the audience sees them (its own WebMCP tools). */
  get(name: string, audience?: WebMcpToolAudience): Tool | undefined {
    return this.#tools.get(name) ?? this.#webmcpToolSet(audience).tools.get(name);
  }

  all(audience?: WebMcpToolAudience): Tool[] {
    return [...this.#tools.values(), ...this.#webmcpToolSet(audience).tools.values()];
  }

  /**
   * Replaces an audience's WebMCP tools; `signature` says whether the offered set changed at all.
   * Returns true if it changed (and that audience's clients are told).
   */
  setWebMcpTools(
    tools: readonly Tool[],
    signature: string,
    audience?: WebMcpToolAudience,
  ): boolean {
    if (signature === this.#webmcpToolSet(audience).signature) {
      return false;
    }
    const set: WebMcpToolSet = {
      tools: new Map(
        [...tools].sort((a, b) => a.name.localeCompare(b.name)).map(tool => [tool.name, tool]),
      ),
      signature,
    };
    if (audience === undefined) {
      this.#sharedWebMcpTools = set;
    } else if (set.tools.size === 0) {
      this.#ownWebMcpTools.delete(audience);
    } else {
      this.#ownWebMcpTools.set(audience, set);
    }
    this.emit('webmcpToolSetChanged', audience);
    return true;
  }

  /** The isolated audiences that have WebMCP tools (those of ended sessions are dropped with `keep`). */
  keepOwnWebMcpTools(keep: (audience: ClientPages) => boolean): void {
    for (const audience of [...this.#ownWebMcpTools.keys()]) {
      if (!keep(audience)) {
        this.#ownWebMcpTools.delete(audience);
      }
    }
  }

  isCategoryEnabled(category: ToolCategory): boolean {
    return this.#categories[category];
  }

  /** Returns true if anything changed (and listeners were told). */
  setCategoryEnabled(category: ToolCategory, enabled: boolean): boolean {
    if (this.#categories[category] === enabled) {
      return false;
    }
    this.#categories[category] = enabled;
    this.#definitions = undefined;
    this.emit('changed');
    return true;
  }

  isConditionEnabled(condition: ToolCondition): boolean {
    return this.#conditions[condition];
  }

  /** Switches a run-time condition (CONDITIONS[…].switchable); true if anything changed. */
  setConditionEnabled(condition: ToolCondition, enabled: boolean): boolean {
    if (!CONDITIONS[condition].switchable) {
      throw new Error(
        `${conditionFlag(condition)} is set when the server starts. Restart the server to change it.`,
      );
    }
    if (this.#conditions[condition] === enabled) {
      return false;
    }
    this.#conditions[condition] = enabled;
    this.#definitions = undefined;
    this.emit('changed');
    return true;
  }

  /** The page state a full response about a page repeats (not in --slim). */
  addPageStateSections(response: ResponseBuilder): void {
    const page = response.page;
    if (!page || response.slim) {
      return;
    }
    for (const section of this.#sections.pageStateSections) {
      section(response, page);
    }
  }

  /** The sections listing the page's own tools (each checks its own category). */
  addPageOfferedToolSections(
    response: ResponseBuilder,
    page: PageState | undefined,
    context: SectionContext,
  ): void {
    if (!page) {
      return;
    }
    for (const section of this.#sections.pageOfferedToolSections) {
      section(response, page, context);
    }
  }

  status(tool: Tool): ToolStatus {
    const slimTool = tool.slim === true;
    if (this.options.slim !== slimTool) {
      return {
        enabled: false,
        reason: slimTool
          ? `Tool ${tool.name} is only available with --slim.`
          : `Tool ${tool.name} is not available with --slim. Restart without --slim to use it.`,
      };
    }
    if (!this.options.slim && !tool.webmcpTool && !this.#categories[tool.category]) {
      const flag = categoryFlagName(tool.category);
      return {
        enabled: false,
        reason: `Tool ${tool.name} is in category ${CATEGORY_LABELS[tool.category]}, which is off. Turn it on with the "${CATEGORY_LABELS[tool.category]}" switch in the inspector's Tools panel, or start the server with --${flag}.`,
      };
    }
    for (const condition of tool.conditions) {
      if (!this.#conditions[condition]) {
        const reason = CONDITIONS[condition].onByDefault
          ? `Tool ${tool.name} is disabled by ${conditionFlag(condition)}. Restart without that flag to use it.`
          : `Tool ${tool.name} requires the ${conditionFlag(condition)} flag, which is off. Turn it on with the "${CONDITIONS[condition].label}" switch in the inspector's Tools panel, or start the server with ${conditionFlag(condition)}.`;
        return {enabled: false, reason};
      }
    }
    return {enabled: true};
  }

  /** The error for a name no tool has, with what is offered instead (to this audience). */
  unknownToolMessage(name: string, audience?: WebMcpToolAudience): string {
    const available = this.enabledTools(audience).map(t => t.name);
    const message = `Unknown tool "${name}". Available tools: ${available.join(', ')}.`;
    if (!name.startsWith(PAGE_TOOL_PREFIX)) {
      return message;
    }
    return this.#conditions.webmcpTools
      ? `${message} ${name} is not a WebMCP tool of the selected page (any more): webmcp_ tools follow the selected page's registrations. Call tools/list to see them, or list_webmcp_tools.`
      : `${message} webmcp_ tools need the --webmcpTools flag, which is off. Turn it on with the "${CONDITIONS.webmcpTools.label}" switch in the inspector's Tools panel, or start the server with --webmcpTools.`;
  }

  enabledTools(audience?: WebMcpToolAudience): Tool[] {
    return this.all(audience).filter(tool => this.status(tool).enabled);
  }

  definition(tool: Tool): McpTool {
    const page = tool.webmcpTool;
    return {
      name: tool.name,
      ...(page?.title === undefined ? {} : {title: page.title}),
      description: tool.description,
      inputSchema: {type: 'object', ...tool.inputSchema(this.schemaOptions())},
      ...(tool.outputSchema === undefined
        ? {}
        : {outputSchema: {...tool.outputSchema, type: 'object'}}),
      annotations: page?.annotations ?? {readOnlyHint: tool.readOnly},
    };
  }

  /** Exactly what tools/list returns to a client of this audience: built-in tools, then WebMCP tools. */
  listDefinitions(audience?: WebMcpToolAudience): McpTool[] {
    this.#definitions ??= [...this.#tools.values()]
      .filter(tool => this.status(tool).enabled)
      .map(tool => this.definition(tool));
    const set = this.#webmcpToolSet(audience);
    set.definitions ??= [...set.tools.values()].map(tool => this.definition(tool));
    const enabled = set.tools.size > 0 && this.#conditions.webmcpTools && !this.options.slim;
    return enabled ? [...this.#definitions, ...set.definitions] : this.#definitions;
  }

  categoryStates(): CategoryState[] {
    return TOOL_CATEGORIES.map(category => ({
      id: category,
      label: CATEGORY_LABELS[category],
      enabled: this.#categories[category],
      offByDefault: CATEGORIES_OFF_BY_DEFAULT.includes(category),
      flag: `--${categoryFlagName(category)}`,
    }));
  }

  conditionStates(): ConditionState[] {
    return TOOL_CONDITIONS.map(condition => ({
      id: condition,
      label: CONDITIONS[condition].label,
      enabled: this.#conditions[condition],
      flag: conditionFlag(condition),
      switchable: CONDITIONS[condition].switchable,
    }));
  }

  toolInfos(): ToolInfo[] {
    return this.all()
      .filter(tool => (tool.slim === true) === this.options.slim)
      .map(tool => {
        const status = this.status(tool);
        const definition = JSON.stringify(this.definition(tool));
        return {
          name: tool.name,
          description: tool.description,
          category: tool.category,
          ...(tool.conditions.length > 0 ? {conditions: [...tool.conditions]} : {}),
          readOnly: tool.readOnly,
          enabled: status.enabled,
          ...(status.enabled ? {} : {disabledReason: status.reason}),
          inputSchema: tool.inputSchema(this.schemaOptions()),
          definitionChars: definition.length,
          estimatedTokens: Math.ceil(definition.length / 4),
        };
      });
  }
}
