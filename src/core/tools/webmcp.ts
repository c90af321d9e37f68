/**
 * Tool family: webmcp (category experimentalWebmcp, off by default). chrome-devtools-mcp's
 * list_webmcp_tools / execute_webmcp_tool with the same names, parameters and output, plus optional
 * frameId (two frames may register the same name) and timeout; the client's cancel cancels the
 * page's invocation. Also the "## WebMCP tools" section after navigation and in list_pages.
 */
import {z} from 'zod';
import type {WebMcpToolInfo} from '../../shared/protocol.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import type {Invoker} from '../webmcp/WebMcpService.js';
import {definePageTool, type ToolCall} from './base/definition.js';
import type {PageOfferedToolSection} from './base/sections.js';
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import {errorText} from '../../shared/values.js';
import {WEBMCP_EXECUTE_OUTPUT, WEBMCP_LIST_OUTPUT} from './base/outputSchemas.js';

export const DEFAULT_EXECUTE_TIMEOUT_MS = 30_000;
const MAX_EXECUTE_TIMEOUT_MS = 600_000;
/** After the third-party tools section (SECTION_ORDER.pageOfferedTools), as in chrome-devtools-mcp. */
const WEBMCP_SECTION_ORDER = SECTION_ORDER.pageOfferedTools + 1;

function isDebuggingTool(tool: Pick<WebMcpToolInfo, 'annotations'>): boolean {
  return tool.annotations.debugging === true;
}

/** One line per tool, in chrome-devtools-mcp's format; strings are JSON-quoted so a hostile
 * description cannot fake extra lines. Iframe tools also say which frame. */
function formatWebMcpTool(tool: WebMcpToolInfo): string {
  const annotations: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tool.annotations)) {
    annotations[key] = value;
  }
  let line = `name=${JSON.stringify(tool.name)}, description=${JSON.stringify(tool.description)}, inputSchema=${JSON.stringify(tool.inputSchema ?? {})}, annotations=${JSON.stringify(annotations)}`;
  if (tool.mainFrame === false) {
    line += `, frameId=${JSON.stringify(tool.frameId)}, frameUrl=${JSON.stringify(tool.frameUrl)}`;
  }
  return line;
}

/** A tool as list_webmcp_tools' structured result gives it (WEBMCP_LIST_OUTPUT). */
function structuredTool(tool: WebMcpToolInfo): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema ?? {},
    annotations: tool.annotations,
    frameId: tool.frameId,
    frameUrl: tool.frameUrl,
    mainFrame: tool.mainFrame !== false,
  };
}

function renderWebMcpSection(tools: readonly WebMcpToolInfo[], unavailableReason?: string): string {
  const visible = tools.filter(tool => !isDebuggingTool(tool));
  if (visible.length === 0) {
    const why =
      unavailableReason === undefined ? '' : `\nWebMCP is not available: ${unavailableReason}`;
    return `## WebMCP tools\nNo WebMCP tools available.${why}`;
  }
  return ['## WebMCP tools', ...visible.map(formatWebMcpTool)].join('\n');
}

/** Parses a JSON-object string parameter with chrome-devtools-mcp's error text plus the fix. */
export function parseJsonObjectParam(
  raw: string | undefined,
  label: 'input' | 'params',
  example: string,
): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const message = errorText(error);
    throw new Error(
      `Failed to parse ${label} as JSON: ${message}. Pass ${label} as a JSON object in a string, e.g. ${example}.`,
      {cause: error},
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(
      `Failed to parse ${label} as JSON: Parsed ${label} is not an object. Pass ${label} as a JSON object in a string, e.g. ${example}.`,
    );
  }
  if (nestsDeeperThan(parsed, VALUE_DEPTH_LIMIT)) {
    throw new Error(
      `The ${label} nests deeper than ${VALUE_DEPTH_LIMIT} levels of objects and arrays; nothing ran. Pass flatter ${label}.`,
    );
  }
  return Object.fromEntries(Object.entries(parsed));
}

function unavailableReason(call: Pick<ToolCall<unknown>, 'browser'>): string | undefined {
  const webmcp = call.browser.status.webmcp;
  return webmcp?.available === false ? webmcp.reason : undefined;
}

export function invokerOf(call: Pick<ToolCall<unknown>, 'client'>): Invoker {
  return call.client.transport === 'inspector'
    ? {kind: 'inspector'}
    : {kind: 'mcp', client: call.client};
}

export const listWebMcpTools = definePageTool({
  name: 'list_webmcp_tools',
  description: `Lists all WebMCP tools the page exposes (excluding debugging tools, which are exposed via 'list_3p_developer_tools').`,
  category: 'experimentalWebmcp',
  readOnly: true,
  schema: {},
  outputSchema: WEBMCP_LIST_OUTPUT,
  handler: async (call, response) => {
    const tools = await call.services.webmcp.toolsOf(call.page);
    response.structured.tools = tools.filter(tool => !isDebuggingTool(tool)).map(structuredTool);
    response.addSection(WEBMCP_SECTION_ORDER, () =>
      renderWebMcpSection(tools, unavailableReason(call)),
    );
  },
});

export const executeWebMcpTool = definePageTool({
  name: 'execute_webmcp_tool',
  description: `Executes a WebMCP tool exposed by the page (for debugging tools, use 'execute_3p_developer_tool').`,
  category: 'experimentalWebmcp',
  readOnly: false,
  outputSchema: WEBMCP_EXECUTE_OUTPUT,
  schema: {
    toolName: z.string().describe('The name of the WebMCP tool to execute'),
    input: z
      .string()
      .optional()
      .describe('The JSON-stringified parameters to pass to the WebMCP tool'),
    frameId: z
      .string()
      .optional()
      .describe(
        'Frame of the tool when several frames register the name (from list_webmcp_tools).',
      ),
    timeout: z
      .number()
      .int()
      .optional()
      .describe(
        `Max wait in ms before the tool is cancelled; 0 or omitted uses ${DEFAULT_EXECUTE_TIMEOUT_MS}.`,
      ),
  },
  handler: async (call, response) => {
    const {toolName, frameId, timeout} = call.params;
    let input: Record<string, unknown>;
    try {
      input = parseJsonObjectParam(call.params.input, 'input', '"{\\"query\\": \\"shoes\\"}"');
    } catch (error) {
      const schema = (await call.services.webmcp.toolsOf(call.page)).find(
        tool => tool.name === toolName,
      )?.inputSchema;
      const hint =
        schema === undefined ? '' : ` The input schema of ${toolName}: ${JSON.stringify(schema)}`;
      throw new Error(`${errorText(error)}${hint}`, {
        cause: error,
      });
    }
    const timeoutMs =
      timeout === undefined || timeout <= 0
        ? DEFAULT_EXECUTE_TIMEOUT_MS
        : Math.min(timeout, MAX_EXECUTE_TIMEOUT_MS);
    const outcome = await call.services.webmcp.execute({
      page: call.page,
      toolName,
      frameId,
      input,
      invoker: invokerOf(call),
      timeoutMs,
      signal: call.signal,
    });
    const {status} = outcome.invocation;
    const error =
      outcome.exception?.description ?? outcome.exception?.value ?? outcome.invocation.errorText;
    response.appendLine(JSON.stringify({status, output: outcome.output, error}, null, 2));
    response.structured.status = status;
    response.structured.invocationId = outcome.invocation.invocationId;
    if (outcome.output !== undefined) {
      response.structured.output = outcome.output;
    }
    if (error !== undefined) {
      response.structured.error = error;
    }
  },
});

/** The page's WebMCP tools after navigation and in list_pages, while the category is on. */
export const webmcpToolsSection: PageOfferedToolSection = (response, page, context) => {
  const webmcp = context.services.webmcp;
  if (!webmcp.categoryEnabled('experimentalWebmcp')) {
    return;
  }
  response.addSection(WEBMCP_SECTION_ORDER, async () =>
    renderWebMcpSection(await webmcp.toolsOf(page), unavailableReason(context)),
  );
};

export const webmcpTools = [listWebMcpTools, executeWebMcpTool];
