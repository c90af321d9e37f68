/**
 * Third-party developer tools (chrome-devtools-mcp's `devtoolstooldiscovery` protocol): a page
 * that listens for the `devtoolstooldiscovery` event answers `event.respondWith({name,
 * description, tools: [{name, description, inputSchema, execute}]})`. The answers stay in the page
 * on `window.__dtmcp` (`toolGroups`, `executeTool(name, args)`), so evaluate_script can call them
 * too. WebMCP tools annotated `debugging` join as the group "WebMCP Tools". Elements cross the
 * boundary as snapshot uids: a schema marked `x-mcp-type: HTMLElement` takes `{uid}`, and
 * returned elements come back as `{uid}`. What runs in the page (discovery, running a tool,
 * the returned elements) is src/injected/thirdPartyTools.ts.
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
import {callExpression} from '../browser/injectedCall.js';
import {
  CLEAR_STASHED_ELEMENTS,
  DISCOVER_TOOL_GROUPS,
  EXECUTE_THIRD_PARTY_TOOL,
  STASHED_ELEMENT,
} from '../browser/injectedSources.generated.js';
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
        {
          expression: callExpression(DISCOVER_TOOL_GROUPS),
          awaitPromise: true,
          returnByValue: true,
        },
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
            functionDeclaration: EXECUTE_THIRD_PARTY_TOOL,
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
            {expression: callExpression(STASHED_ELEMENT, index)},
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
      {expression: callExpression(CLEAR_STASHED_ELEMENTS)},
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
