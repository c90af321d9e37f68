/**
 * Output schemas (tools/list `outputSchema`) for the tools whose results a client can use as data:
 * the ids and key fields, alongside the unchanged text. They are kept minimal on purpose: they ride
 * in every client's tool list, whose size must stay within 0.8× chrome-devtools-mcp's. A schema
 * names the fields a client can rely on; the structured result may carry more (JSON Schema allows
 * extra properties), never fewer.
 */

const str = {type: 'string'};
const num = {type: 'number'};

/** An object holding one list; its items name their fields only (their type is implied). */
function listOf(key: string, item: Record<string, unknown>): Record<string, unknown> {
  return {type: 'object', properties: {[key]: {type: 'array', items: {properties: item}}}};
}

/** `{pages: [{id, url, title, selected, isolatedContext?}]}`. */
export const LIST_PAGES_OUTPUT = listOf('pages', {
  id: num,
  url: str,
  title: str,
  selected: {type: 'boolean'},
});

/** `{result: <the JSON value>}`, or `{savedTo}` when written to a file. */
export const EVALUATE_OUTPUT = {type: 'object', properties: {result: {}}};

/** `{total, messages: [{msgid, type, text, count?}]}` for the page shown. */
export const CONSOLE_LIST_OUTPUT = listOf('messages', {msgid: num, type: str, text: str});

/** `{total, requests: [{reqid, method, url, status}]}`; status is the HTTP code or the failure. */
export const NETWORK_LIST_OUTPUT = listOf('requests', {
  reqid: num,
  method: str,
  url: str,
  status: str,
});

/** `{tools: [{name, description, inputSchema, annotations, frameId, frameUrl, mainFrame}]}`. */
export const WEBMCP_LIST_OUTPUT = listOf('tools', {
  name: str,
  description: str,
  inputSchema: {type: 'object'},
  annotations: {type: 'object'},
  frameId: str,
  frameUrl: str,
});

/** chrome-devtools-mcp's `{status, output, error}`, plus the invocation id. */
export const WEBMCP_EXECUTE_OUTPUT = {
  type: 'object',
  properties: {status: str, output: {}, error: {}, invocationId: str},
  required: ['status'],
};
