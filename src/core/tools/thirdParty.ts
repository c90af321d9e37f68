/**
 * Tool family: thirdParty (category experimentalThirdParty, off by default). chrome-devtools-mcp's
 * list_3p_developer_tools / execute_3p_developer_tool: tools a page offers to developer tooling
 * through the `devtoolstooldiscovery` event, plus WebMCP tools annotated `debugging`.
 */
import {z} from 'zod';
import type {PageState} from '../browser/pages/PageState.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {
  discoverEventToolGroups,
  executeEventTool,
  formatToolGroups,
  validateParams,
  type ThirdPartyTool,
  type ThirdPartyToolGroup,
} from '../webmcp/thirdParty.js';
import type {WebMcpService} from '../webmcp/WebMcpService.js';
import {parseBoundedJson} from '../../shared/boundedValue.js';
import {definePageTool} from './base/definition.js';
import {DEFAULT_EXECUTE_TIMEOUT_MS, invokerOf, parseJsonObjectParam} from './webmcp.js';
import type {PageOfferedToolSection} from './base/sections.js';

/** Event-based groups of the current document, so execute does not dispatch the event again. */
const discovered = new WeakMap<PageState, {loaderId: string; groups: ThirdPartyToolGroup[]}>();

async function debuggingWebMcpGroup(
  webmcp: WebMcpService,
  page: PageState,
): Promise<ThirdPartyToolGroup[]> {
  const tools = (await webmcp.toolsOf(page)).filter(tool => tool.annotations.debugging === true);
  if (tools.length === 0) {
    return [];
  }
  return [
    {
      name: 'WebMCP Tools',
      description: 'Tools exposed via WebMCP',
      source: 'webmcp',
      tools: tools.map(tool => ({
        name: tool.name,
        description: tool.description,
        inputSchema: structuredClone(tool.inputSchema ?? {}),
      })),
    },
  ];
}

async function toolGroups(webmcp: WebMcpService, page: PageState): Promise<ThirdPartyToolGroup[]> {
  const [fromWebMcp, fromEvent] = await Promise.all([
    debuggingWebMcpGroup(webmcp, page),
    discoverEventToolGroups(page),
  ]);
  discovered.set(page, {loaderId: page.loaderIds.get(page.mainFrameId) ?? '', groups: fromEvent});
  return [...fromWebMcp, ...fromEvent];
}

function findTool(
  groups: readonly ThirdPartyToolGroup[],
  name: string,
): {tool: ThirdPartyTool; group: ThirdPartyToolGroup} | undefined {
  for (const group of groups) {
    const tool = group.tools.find(candidate => candidate.name === name);
    if (tool) {
      return {tool, group};
    }
  }
  return undefined;
}

export const listThirdPartyDeveloperTools = definePageTool({
  name: 'list_3p_developer_tools',
  description: `Lists all third-party developer tools the page exposes for providing runtime information (including debugging WebMCP tools and tools exposed via the 'devtoolstooldiscovery' event).
Third-party developer tools can be called via the 'execute_3p_developer_tool()' MCP tool.
Alternatively, third-party developer tools exposed via the 'devtoolstooldiscovery' event can be executed by calling 'evaluate_script' and adding the
following command to the script:
\`window.__dtmcp.executeTool(toolName, params)\`
This might be helpful when the third-party developer tools return non-serializable values or when composing
third-party developer tools with additional functionality.`,
  category: 'experimentalThirdParty',
  readOnly: true,
  schema: {},
  handler: async (call, response) => {
    const groups = await toolGroups(call.services.webmcp, call.page);
    response.addSection(SECTION_ORDER.pageOfferedTools, () =>
      groups.length === 0
        ? '## Third-party developer tools\nNo third-party developer tools available. The page exposes them by listening for the "devtoolstooldiscovery" event on window, or by registering WebMCP tools with annotations {debugging: true}.'
        : formatToolGroups(groups),
    );
  },
});

export const executeThirdPartyDeveloperTool = definePageTool({
  name: 'execute_3p_developer_tool',
  description: 'Executes a third-party developer tool exposed by the page.',
  category: 'experimentalThirdParty',
  readOnly: false,
  schema: {
    toolName: z.string().describe('The name of the tool to execute'),
    params: z.string().optional().describe('The JSON-stringified parameters to pass to the tool'),
  },
  handler: async (call, response) => {
    const {toolName} = call.params;
    const params = parseJsonObjectParam(call.params.params, 'params', '"{\\"id\\": 1}"');
    const {webmcp} = call.services;
    const page = call.page;
    const cached = discovered.get(page);
    const current = page.loaderIds.get(page.mainFrameId) ?? '';
    let groups = [
      ...(await debuggingWebMcpGroup(webmcp, page)),
      ...(cached?.loaderId === current ? cached.groups : []),
    ];
    let found = findTool(groups, toolName);
    if (!found) {
      groups = await toolGroups(webmcp, page);
      found = findTool(groups, toolName);
    }
    if (!found) {
      const available = groups.flatMap(group => group.tools.map(tool => tool.name));
      throw new Error(
        `Tool ${toolName} not found. ${available.length === 0 ? 'The page exposes no third-party developer tools.' : `Available tools: ${available.join(', ')}.`} Call list_3p_developer_tools to see them.`,
      );
    }
    const invalid = validateParams(found.tool, params);
    if (invalid !== undefined) {
      throw new Error(
        `Invalid parameters for tool ${toolName}: ${invalid}. Its input schema: ${JSON.stringify(found.tool.inputSchema)}`,
      );
    }

    if (found.group.source === 'webmcp') {
      const outcome = await webmcp.execute({
        page,
        toolName,
        input: params,
        invoker: invokerOf(call),
        timeoutMs: DEFAULT_EXECUTE_TIMEOUT_MS,
        signal: call.signal,
      });
      const {status, errorText} = outcome.invocation;
      if (status !== 'Completed') {
        const error = outcome.exception?.description ?? outcome.exception?.value ?? errorText;
        const text =
          error === undefined ? '' : typeof error === 'string' ? error : JSON.stringify(error);
        throw new Error(text === '' ? `Tool execution failed: ${status}` : text);
      }
      response.appendLine(
        outcome.output === undefined
          ? 'Tool returned no result.'
          : JSON.stringify(outcome.output, null, 2),
      );
      return;
    }

    const result = await executeEventTool(page, toolName, params, call.signal);
    if (result.json === undefined) {
      response.appendLine('Tool returned no result.');
    } else {
      response.appendLine(JSON.stringify(parseBoundedJson(result.json), null, 2));
    }
    if (result.returnedElements > 0) {
      response.includeSnapshot({verbose: result.needsVerboseSnapshot});
    }
  },
});

/** The page's third-party developer tools after navigation and in list_pages (category on). */
export const thirdPartyToolsSection: PageOfferedToolSection = (response, page, context) => {
  const webmcp = context.services.webmcp;
  if (!webmcp.categoryEnabled('experimentalThirdParty')) {
    return;
  }
  response.addSection(SECTION_ORDER.pageOfferedTools, async () => {
    const groups = await toolGroups(webmcp, page);
    return groups.length === 0 ? undefined : formatToolGroups(groups);
  });
};

export const thirdPartyTools = [listThirdPartyDeveloperTools, executeThirdPartyDeveloperTool];
