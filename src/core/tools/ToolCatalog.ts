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
  CONDITION_LABELS,
  SWITCHABLE_CONDITIONS,
  TOOL_CATEGORIES,
  TOOL_CONDITIONS,
  categoryFlagName,
  type ToolCategory,
  type ToolCondition,
} from '../../shared/categories.js';
import type {CategoryState, ConditionState, ToolInfo} from '../../shared/protocol.js';
import type {PageState} from '../browser/PageState.js';
import {PAGE_TOOL_PREFIX} from '../webmcp/pageToolNames.js';
import type {Tool} from './definition.js';
import type {SchemaOptions} from './paramShapes.js';
import type {ResponseBuilder} from './response/ResponseBuilder.js';
import type {SectionContext, ToolSet} from './sections.js';

export type ToolStatus = {enabled: true} | {enabled: false; reason: string};

export interface CatalogOptions {
  slim: boolean;
  pageIdRouting: boolean;
  categories: Record<ToolCategory, boolean>;
  conditions: Record<ToolCondition, boolean>;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
}

export class ToolCatalog extends EventEmitter<{changed: []}> {
  readonly #tools: Map<string, Tool>;
  readonly #sections: Pick<ToolSet, 'pageStateSections' | 'pageToolSections'>;
  readonly #categories: Record<ToolCategory, boolean>;
  readonly #conditions: Record<ToolCondition, boolean>;
  /** The selected page's WebMCP tools as MCP tools (tools/webmcpPageTools.ts), sorted by name. */
  #pageTools = new Map<string, Tool>();
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

  get(name: string): Tool | undefined {
    return this.#tools.get(name) ?? this.#pageTools.get(name);
  }

  all(): Tool[] {
    return [...this.#tools.values(), ...this.#pageTools.values()];
  }

  /**
   * Replaces the page tools; `signature` says whether the offered set changed at all (same names,
   * schemas and descriptions → no change and no list_changed). Returns true if it changed.
   */
  setPageTools(tools: readonly Tool[], signature: string): boolean {
    if (signature === this.#pageToolsSignature) {
      return false;
    }
    this.#pageToolsSignature = signature;
    this.#pageTools = new Map(
      [...tools].sort((a, b) => a.name.localeCompare(b.name)).map(tool => [tool.name, tool]),
    );
    this.#definitions = undefined;
    this.emit('changed');
    return true;
  }

  #pageToolsSignature = '';

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

  /** Switches a run-time condition (SWITCHABLE_CONDITIONS); true if anything changed. */
  setConditionEnabled(condition: ToolCondition, enabled: boolean): boolean {
    if (!SWITCHABLE_CONDITIONS.includes(condition)) {
      throw new Error(
        `--${condition === 'javascriptEvaluation' ? 'no-javascript-evaluation' : condition} is set when the server starts. Restart the server to change it.`,
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
  addPageToolSections(
    response: ResponseBuilder,
    page: PageState | undefined,
    context: SectionContext,
  ): void {
    if (!page) {
      return;
    }
    for (const section of this.#sections.pageToolSections) {
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
    if (!this.options.slim && !tool.pageTool && !this.#categories[tool.category]) {
      const flag = categoryFlagName(tool.category);
      return {
        enabled: false,
        reason: `Tool ${tool.name} is in category ${CATEGORY_LABELS[tool.category]}, which is off. Turn it on with the "${CATEGORY_LABELS[tool.category]}" switch in the inspector's Tools panel, or start the server with --${flag}.`,
      };
    }
    for (const condition of tool.conditions) {
      if (!this.#conditions[condition]) {
        const reason =
          condition === 'javascriptEvaluation'
            ? `Tool ${tool.name} is disabled by --no-${kebab(condition)}. Restart without that flag to use it.`
            : `Tool ${tool.name} requires the --${condition} flag, which is off. Turn it on with the "${CONDITION_LABELS[condition]}" switch in the inspector's Tools panel, or start the server with --${condition}.`;
        return {enabled: false, reason};
      }
    }
    return {enabled: true};
  }

  /** The error for a name no tool has, with what is offered instead. */
  unknownToolMessage(name: string): string {
    const available = this.enabledTools().map(t => t.name);
    const message = `Unknown tool "${name}". Available tools: ${available.join(', ')}.`;
    if (!name.startsWith(PAGE_TOOL_PREFIX)) {
      return message;
    }
    return this.#conditions.webmcpTools
      ? `${message} ${name} is not a WebMCP tool of the selected page (any more): webmcp_ tools follow the selected page's registrations. Call tools/list to see them, or list_webmcp_tools.`
      : `${message} webmcp_ tools need the --webmcpTools flag, which is off. Turn it on with the "${CONDITION_LABELS.webmcpTools}" switch in the inspector's Tools panel, or start the server with --webmcpTools.`;
  }

  enabledTools(): Tool[] {
    return this.all().filter(tool => this.status(tool).enabled);
  }

  definition(tool: Tool): McpTool {
    const page = tool.pageTool;
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

  /** Exactly what tools/list returns to every client, sorted by name. */
  listDefinitions(): McpTool[] {
    this.#definitions ??= this.enabledTools().map(tool => this.definition(tool));
    return this.#definitions;
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
      label: CONDITION_LABELS[condition],
      enabled: this.#conditions[condition],
      flag: condition === 'javascriptEvaluation' ? `--no-${kebab(condition)}` : `--${condition}`,
      switchable: SWITCHABLE_CONDITIONS.includes(condition),
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
