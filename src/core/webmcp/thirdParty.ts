/**
 * Third-party developer tools (chrome-devtools-mcp's `devtoolstooldiscovery` protocol): a page
 * that listens for the `devtoolstooldiscovery` event answers `event.respondWith({name,
 * description, tools: [{name, description, inputSchema, execute}]})`. The answers stay in the page
 * on `window.__dtmcp` (`toolGroups`, `executeTool(name, args)`), so evaluate_script can call them
 * too. WebMCP tools annotated `debugging` join as the group "WebMCP Tools". Elements cross the
 * boundary as snapshot uids: a schema marked `x-mcp-type: HTMLElement` takes `{uid}`, and
 * returned elements come back as `{uid}`.
 */
import {Validator, type Schema} from '@cfworker/json-schema';
import {z} from 'zod';
import {resolveUid} from '../browser/input/elements.js';
import type {PageState} from '../browser/pages/PageState.js';
import {snapshotFeature, takeSnapshot} from '../browser/snapshot/snapshot.js';
import {sendUntyped} from '../browser/cdp.js';
import {
  evaluateInPage,
  inPage,
  PROBE_TIMEOUT_MS,
  SCRIPT_TIMEOUT_MS,
} from '../browser/evaluation.js';
import {parseBoundedJson} from '../../shared/boundedValue.js';
import {isRecord} from '../../shared/values.js';

export interface ThirdPartyTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ThirdPartyToolGroup {
  name: string;
  description: string;
  tools: ThirdPartyTool[];
  /** `webmcp`: WebMCP tools annotated `debugging`, run through the WebMCP domain. */
  source: 'event' | 'webmcp';
}

const toolGroupsSchema = z.array(
  z.object({
    name: z.string(),
    description: z.string(),
    tools: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        inputSchema: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
);

const evaluationSchema = z.object({
  result: z.object({
    type: z.string(),
    value: z.unknown().optional(),
    objectId: z.string().optional(),
  }),
  exceptionDetails: z
    .object({
      text: z.string(),
      exception: z.object({description: z.string().optional()}).optional(),
    })
    .optional(),
});

const executionResultSchema = z.object({
  json: z.string().optional(),
  stashed: z.number().int().min(0),
});

const listenersSchema = z.object({listeners: z.array(z.object({type: z.string()}))});
const describeNodeSchema = z.object({node: z.object({backendNodeId: z.number()})});
const jsonSchemaObject = z.custom<Schema>(isRecord);

/** Runs in the page: dispatches the discovery event and keeps the answers on window.__dtmcp. */
const DISCOVER_SCRIPT = `(async () => {
  const state = (window.__dtmcp = window.__dtmcp || {});
  state.toolGroups = [];
  const groups = [];
  const event = new CustomEvent('devtoolstooldiscovery');
  event.respondWith = group => {
    const validGroup = group && typeof group.name === 'string' &&
      (group.description === undefined || typeof group.description === 'string') && Array.isArray(group.tools);
    if (!validGroup) {
      console.error('Invalid toolGroup:', group);
      return;
    }
    for (const tool of group.tools) {
      if (!tool || typeof tool.name !== 'string' || typeof tool.description !== 'string' ||
          typeof tool.inputSchema !== 'object' || tool.inputSchema === null || typeof tool.execute !== 'function') {
        console.error('Invalid tool:', tool);
        return;
      }
    }
    state.toolGroups.push(group);
    groups.push(group);
    if (!state.executeTool) {
      state.executeTool = async (toolName, args) => {
        if (!state.toolGroups || state.toolGroups.length === 0) {
          throw new Error('No tools found on the page');
        }
        for (const candidate of state.toolGroups) {
          const found = candidate.tools.find(tool => tool.name === toolName);
          if (found) {
            return await found.execute(args);
          }
        }
        throw new Error('Tool ' + toolName + ' not found');
      };
    }
  };
  window.dispatchEvent(event);
  if (groups.length === 0) {
    // Let asynchronous respondWith calls (a microtask or a zero timeout later) arrive.
    await new Promise(resolve => setTimeout(resolve, 0));
  }
  return JSON.stringify(groups.map(group => ({
    name: group.name,
    description: group.description || '',
    tools: group.tools.map(tool => ({name: tool.name, description: tool.description, inputSchema: tool.inputSchema})),
  })));
})()`;

/** Runs in the page with `this` = window: swaps {uid} arguments for elements, runs the tool, and
 * makes the result JSON-safe (elements stashed for uid lookup, cycles and functions described). */
const EXECUTE_FUNCTION = `async function (toolName, args, ...elements) {
  for (const [key, value] of Object.entries(args)) {
    if (value !== null && typeof value === 'object' && typeof value.uid === 'string' && Object.keys(value).length === 1) {
      args[key] = elements.shift();
    }
  }
  const state = window.__dtmcp;
  if (!state || !state.executeTool) {
    throw new Error('No tools found on the page');
  }
  const result = await state.executeTool(toolName, args);
  const stashed = [];
  const ancestors = new Set();
  const convert = data => {
    if (data instanceof Element) {
      stashed.push(data);
      return {stashedId: 'stashed-' + (stashed.length - 1)};
    }
    if (typeof data === 'function') {
      return '<Function object>';
    }
    if (typeof data === 'symbol') {
      return data.toString();
    }
    if (typeof data === 'bigint') {
      return data.toString() + 'n';
    }
    if (data === null || typeof data !== 'object') {
      return data;
    }
    if (ancestors.has(data)) {
      return '<Circular reference>';
    }
    if (!Array.isArray(data)) {
      const proto = Object.getPrototypeOf(data);
      if (proto !== null && proto !== Object.prototype) {
        return '<' + ((data.constructor && data.constructor.name) || 'Object') + ' instance>';
      }
    }
    ancestors.add(data);
    try {
      if (Array.isArray(data)) {
        return data.map(convert);
      }
      const out = {};
      for (const [key, value] of Object.entries(data)) {
        out[key] = convert(value);
      }
      return out;
    } finally {
      ancestors.delete(data);
    }
  };
  const converted = convert(result);
  state.stashedElements = stashed;
  return {json: converted === undefined ? undefined : JSON.stringify(converted), stashed: stashed.length};
}`;

/** chrome-devtools-mcp's rewrite: an element parameter is passed as the uid of a snapshot node. */
export function replaceHtmlElementsWithUids(schema: unknown): void {
  if (schema === null || typeof schema !== 'object') {
    return;
  }
  if (Array.isArray(schema)) {
    for (const item of schema) {
      replaceHtmlElementsWithUids(item);
    }
    return;
  }
  if (Reflect.get(schema, 'x-mcp-type') === 'HTMLElement') {
    Reflect.set(schema, 'properties', {uid: {type: 'string'}});
    Reflect.set(schema, 'required', ['uid']);
  }
  for (const key of ['properties', 'items', 'anyOf', 'allOf', 'oneOf']) {
    const child: unknown = Reflect.get(schema, key);
    if (key === 'properties' && child !== null && typeof child === 'object') {
      for (const value of Object.values(child)) {
        replaceHtmlElementsWithUids(value);
      }
    } else {
      replaceHtmlElementsWithUids(child);
    }
  }
}

async function windowObjectId(page: PageState): Promise<string> {
  const evaluated = await inPage(
    page,
    () => sendUntyped(page.cdp, 'Runtime.evaluate', {expression: 'window'}, evaluationSchema),
    {timeoutMs: PROBE_TIMEOUT_MS},
  );
  const objectId = evaluated.result.objectId;
  if (objectId === undefined) {
    throw new Error('Could not reach the page window.');
  }
  return objectId;
}

/** The event-based groups of the page (empty when nothing listens for the event). */
export async function discoverEventToolGroups(page: PageState): Promise<ThirdPartyToolGroup[]> {
  const objectId = await windowObjectId(page);
  try {
    const {listeners} = await sendUntyped(
      page.cdp,
      'DOMDebugger.getEventListeners',
      {objectId},
      listenersSchema,
    );
    if (!listeners.some(listener => listener.type === 'devtoolstooldiscovery')) {
      return [];
    }
  } finally {
    void page.cdp.send('Runtime.releaseObject', {objectId}).catch(() => undefined);
  }
  // The page's own handler runs here: bounded, raced against dialogs, stopped if it hangs.
  const evaluated = await inPage(
    page,
    () =>
      sendUntyped(
        page.cdp,
        'Runtime.evaluate',
        {expression: DISCOVER_SCRIPT, awaitPromise: true, returnByValue: true},
        evaluationSchema,
      ),
    {terminate: true, what: "The page's devtoolstooldiscovery handler"},
  );
  if (evaluated.exceptionDetails) {
    throw new Error(
      `The page's devtoolstooldiscovery handler failed: ${evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text}`,
    );
  }
  const raw = evaluated.result.value;
  const groups = toolGroupsSchema.parse(typeof raw === 'string' ? parseBoundedJson(raw) : []);
  return groups.map(group => {
    for (const tool of group.tools) {
      replaceHtmlElementsWithUids(tool.inputSchema);
    }
    return {...group, source: 'event'};
  });
}

/** Checks params against the tool's JSON schema (interpreted, no code generation). */
export function validateParams(
  tool: ThirdPartyTool,
  params: Record<string, unknown>,
): string | undefined {
  const schema = jsonSchemaObject.safeParse(tool.inputSchema);
  if (!schema.success) {
    return undefined;
  }
  const result = new Validator(schema.data, '2020-12', false).validate(params);
  if (result.valid) {
    return undefined;
  }
  const leafErrors = result.errors.filter(
    error => !/^(properties|items|allOf|anyOf|oneOf|\$ref)$/.test(error.keyword),
  );
  const shown = (leafErrors.length > 0 ? leafErrors : result.errors).slice(0, 5);
  return shown
    .map(
      error =>
        `${error.instanceLocation === '#' ? 'params' : error.instanceLocation.replace(/^#\//, '')}: ${error.error}`,
    )
    .join('; ');
}

export interface ThirdPartyResult {
  /** JSON text of the result with elements replaced by {uid}; undefined when the tool returned nothing. */
  json: string | undefined;
  /** Some returned elements are only in the verbose snapshot. */
  needsVerboseSnapshot: boolean;
  returnedElements: number;
}

/** Runs an event-based tool in the page. */
export async function executeEventTool(
  page: PageState,
  toolName: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ThirdPartyResult> {
  const elementIds: string[] = [];
  for (const value of Object.values(params)) {
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value).length === 1
    ) {
      const uid: unknown = Reflect.get(value, 'uid');
      if (typeof uid === 'string') {
        const element = await resolveUid(page, uid);
        if (element.cdp !== page.cdp) {
          throw new Error(
            `Element uid "${uid}" is inside a cross-site iframe; third-party tools run in the top page and cannot receive it.`,
          );
        }
        elementIds.push(element.objectId);
      }
    }
  }
  const objectId = await windowObjectId(page);
  let stashedCount: number;
  let json: string | undefined;
  try {
    // The page's tool runs here: bounded, and stopped in the page on timeout or cancel.
    const called = await inPage(
      page,
      () =>
        sendUntyped(
          page.cdp,
          'Runtime.callFunctionOn',
          {
            functionDeclaration: EXECUTE_FUNCTION,
            objectId,
            arguments: [
              {value: toolName},
              {value: params},
              ...elementIds.map(elementId => ({objectId: elementId})),
            ],
            awaitPromise: true,
            returnByValue: true,
          },
          evaluationSchema,
        ),
      {
        timeoutMs: SCRIPT_TIMEOUT_MS,
        signal,
        terminate: true,
        what: `The third-party tool ${toolName}`,
      },
    );
    if (called.exceptionDetails) {
      const description =
        called.exceptionDetails.exception?.description ?? called.exceptionDetails.text;
      throw new Error(description.split('\n')[0] ?? description);
    }
    const result = executionResultSchema.parse(called.result.value);
    stashedCount = result.stashed;
    json = result.json;
  } finally {
    void page.cdp.send('Runtime.releaseObject', {objectId}).catch(() => undefined);
    for (const elementId of elementIds) {
      void page.cdp.send('Runtime.releaseObject', {objectId: elementId}).catch(() => undefined);
    }
  }
  if (stashedCount === 0) {
    return {json, needsVerboseSnapshot: false, returnedElements: 0};
  }
  const backendNodeIds = await stashedBackendNodeIds(page, stashedCount);
  const {uids, verbose} = await uidsFor(page, backendNodeIds);
  const replaced =
    json === undefined ? undefined : JSON.stringify(replaceStashed(parseBoundedJson(json), uids));
  return {json: replaced, needsVerboseSnapshot: verbose, returnedElements: stashedCount};
}

async function stashedBackendNodeIds(
  page: PageState,
  count: number,
): Promise<(number | undefined)[]> {
  const ids: (number | undefined)[] = [];
  try {
    for (let index = 0; index < count; index++) {
      const evaluated = await inPage(
        page,
        () =>
          sendUntyped(
            page.cdp,
            'Runtime.evaluate',
            {expression: `window.__dtmcp.stashedElements[${index}]`},
            evaluationSchema,
          ),
        {timeoutMs: PROBE_TIMEOUT_MS},
      );
      const objectId = evaluated.result.objectId;
      if (objectId === undefined) {
        ids.push(undefined);
        continue;
      }
      const described = await sendUntyped(
        page.cdp,
        'DOM.describeNode',
        {objectId},
        describeNodeSchema,
      ).catch(() => undefined);
      void page.cdp.send('Runtime.releaseObject', {objectId}).catch(() => undefined);
      ids.push(described?.node.backendNodeId);
    }
  } finally {
    void evaluateInPage(
      page,
      {expression: 'window.__dtmcp && (window.__dtmcp.stashedElements = undefined)'},
      {timeoutMs: PROBE_TIMEOUT_MS},
    ).catch(() => undefined);
  }
  return ids;
}

/** Snapshot uids for elements: from the default snapshot, or the verbose one when needed. */
async function uidsFor(
  page: PageState,
  backendNodeIds: readonly (number | undefined)[],
): Promise<{uids: (string | undefined)[]; verbose: boolean}> {
  const lookup = async (verbose: boolean): Promise<(string | undefined)[]> => {
    await takeSnapshot(page, {verbose});
    const store = snapshotFeature.get(page);
    return backendNodeIds.map(id => (id === undefined ? undefined : store.uidOf(id, page.cdp)));
  };
  const plain = await lookup(false);
  if (plain.every(uid => uid !== undefined)) {
    return {uids: plain, verbose: false};
  }
  return {uids: await lookup(true), verbose: true};
}

function replaceStashed(value: unknown, uids: readonly (string | undefined)[]): unknown {
  if (Array.isArray(value)) {
    return value.map(item => replaceStashed(item, uids));
  }
  if (isRecord(value)) {
    const stashedId: unknown = value.stashedId;
    if (typeof stashedId === 'string' && Object.keys(value).length === 1) {
      const index = Number(stashedId.split('-')[1]);
      return {uid: uids[index] ?? stashedId};
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = replaceStashed(child, uids);
    }
    return out;
  }
  return value;
}

export function formatToolGroups(groups: readonly ThirdPartyToolGroup[]): string {
  const lines = ['## Third-party developer tools'];
  for (const group of groups) {
    lines.push(`${group.name}: ${group.description}`, 'Available tools:');
    for (const tool of group.tools) {
      lines.push(
        `name=${JSON.stringify(tool.name)}, description=${JSON.stringify(tool.description)}, inputSchema=${JSON.stringify(tool.inputSchema)}`,
      );
    }
  }
  return lines.join('\n');
}
