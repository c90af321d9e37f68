/**
 * The WebMCP hold rules: `webmcp-consequential` holds an `execute_webmcp_tool` call whose target
 * tool is annotated `consequential`; `webmcp-not-read-only` one whose target is not annotated
 * `readOnly`. Tools exposed directly as `webmcp_<name>` match by the same annotations when the page
 * lists them, else by the tool record's own read-only flag. A target whose annotations cannot be
 * read is held (the person decides rather than the rule guessing).
 */
import type {WebMcpToolInfo} from '../../../shared/protocol.js';
import {withTimeout} from '../../browser/lock.js';
import type {PageState} from '../../browser/pages/PageState.js';
import type {Tool} from '../../tools/base/definition.js';
import type {CompiledRule, RuleMatch} from './holdMatch.js';

/** The page's tool list is normally known already; this bounds waiting for its first replay. */
const TOOLS_WAIT_MS = 2_000;

export interface WebMcpLookup {
  toolsOf(page: PageState): Promise<WebMcpToolInfo[]>;
}

function targetName(tool: Tool, args: Record<string, unknown>): string | undefined {
  if (tool.name === 'execute_webmcp_tool') {
    return typeof args.toolName === 'string' ? args.toolName : undefined;
  }
  return tool.name.slice('webmcp_'.length);
}

/** `webmcp_<name>` tools carry a sanitized name; compare the same way. */
function sameTool(info: WebMcpToolInfo, name: string, direct: boolean): boolean {
  return direct ? info.name.replace(/[^A-Za-z0-9_-]/g, '_') === name : info.name === name;
}

export async function matchWebMcpRule(
  rules: readonly CompiledRule[],
  tool: Tool,
  args: Record<string, unknown>,
  page: PageState | undefined,
  webmcp: WebMcpLookup,
): Promise<RuleMatch | undefined> {
  const wanted = rules.filter(
    ({rule}) => rule.kind === 'webmcpConsequential' || rule.kind === 'webmcpNotReadOnly',
  );
  const first = wanted[0];
  if (!first) {
    return undefined;
  }
  const name = targetName(tool, args);
  const direct = tool.name !== 'execute_webmcp_tool';
  const frameId = typeof args.frameId === 'string' ? args.frameId : undefined;
  let info: WebMcpToolInfo | undefined;
  if (page && name !== undefined) {
    const tools = await withTimeout(webmcp.toolsOf(page), TOOLS_WAIT_MS, 'tools').catch(
      () => undefined,
    );
    info = tools?.find(
      candidate =>
        sameTool(candidate, name, direct) &&
        (frameId === undefined || candidate.frameId === frameId),
    );
  }
  const shown = name ?? tool.name;
  if (!info) {
    if (direct) {
      return tool.readOnly
        ? undefined
        : {rule: first, reason: `the WebMCP tool ${shown} is not read-only`};
    }
    return {rule: first, reason: `the annotations of the WebMCP tool ${shown} are not known`};
  }
  const {annotations} = info;
  for (const compiled of wanted) {
    if (compiled.rule.kind === 'webmcpConsequential' && annotations.consequential === true) {
      return {rule: compiled, reason: `the WebMCP tool ${shown} is annotated consequential`};
    }
    if (compiled.rule.kind === 'webmcpNotReadOnly' && annotations.readOnly !== true) {
      return {rule: compiled, reason: `the WebMCP tool ${shown} is not annotated readOnly`};
    }
  }
  return undefined;
}
