/**
 * In-page side of the third-party developer tools (src/core/webmcp/thirdParty.ts,
 * chrome-devtools-mcp's `devtoolstooldiscovery` protocol). The answers stay in the page on
 * `window.__dtmcp` (`toolGroups`, `executeTool(name, args)`, and the elements a tool returned,
 * `stashedElements`), so the page's own scripts and evaluate_script can use them too. All of it
 * runs in the page's world: everything read from the page is checked before use.
 */

/** A tool as the page answers it: checked in `respondWith` before it is kept. */
interface PageTool {
  name: string;
  description: string;
  inputSchema: object;
  execute: (args: unknown) => unknown;
}

interface PageToolGroup {
  name: string;
  description?: string;
  tools: PageTool[];
}

/** `window.__dtmcp`: shared with the page, which may have changed any of it. */
interface DevtoolsState {
  toolGroups?: PageToolGroup[];
  executeTool?: (toolName: string, args: Record<string, unknown>) => Promise<unknown>;
  stashedElements?: Element[];
}

/** The group and tools as the engine reads them (no `execute`). */
interface ToolGroupFacts {
  name: string;
  description: string;
  tools: {name: string; description: string; inputSchema: object}[];
}

const STATE_KEY = '__dtmcp';

function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** `window.__dtmcp` when it is an object (the page can set it to anything). */
function devtoolsState(): DevtoolsState | undefined {
  const state: unknown = Reflect.get(window, STATE_KEY);
  return isObjectLike(state) ? state : undefined;
}

/** A group of the protocol's shape: a string name, an optional string description, a tool list. */
function isToolGroup(group: unknown): group is PageToolGroup {
  if (!group || !isObjectLike(group)) {
    return false;
  }
  const description: unknown = Reflect.get(group, 'description');
  return (
    typeof Reflect.get(group, 'name') === 'string' &&
    (description === undefined || typeof description === 'string') &&
    Array.isArray(Reflect.get(group, 'tools'))
  );
}

/** A tool with a string name and description, an object schema and an execute function. */
function isTool(tool: unknown): tool is PageTool {
  if (!tool || !isObjectLike(tool)) {
    return false;
  }
  const schema: unknown = Reflect.get(tool, 'inputSchema');
  return (
    typeof Reflect.get(tool, 'name') === 'string' &&
    typeof Reflect.get(tool, 'description') === 'string' &&
    typeof schema === 'object' &&
    schema !== null &&
    typeof Reflect.get(tool, 'execute') === 'function'
  );
}

/** Runs a tool of the kept groups by name (installed on `window.__dtmcp` once). */
function toolRunner(state: DevtoolsState): DevtoolsState['executeTool'] {
  return async (toolName, args) => {
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

/**
 * Dispatches the discovery event and keeps the answers on window.__dtmcp. Resolves with the JSON
 * text of the groups answered (names, descriptions and input schemas).
 */
export async function discoverToolGroups(): Promise<string> {
  const found = devtoolsState();
  const shared: DevtoolsState = found ?? {};
  Reflect.set(window, STATE_KEY, shared);
  const fresh: PageToolGroup[] = [];
  const state = Object.assign(shared, {toolGroups: fresh});
  const groups: PageToolGroup[] = [];
  const respondWith = (group: unknown): void => {
    if (!isToolGroup(group)) {
      console.error('Invalid toolGroup:', group);
      return;
    }
    for (const tool of group.tools) {
      if (!isTool(tool)) {
        console.error('Invalid tool:', tool);
        return;
      }
    }
    state.toolGroups.push(group);
    groups.push(group);
    // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing -- whatever falsy value the page left there is replaced
    if (!state.executeTool) {
      state.executeTool = toolRunner(state);
    }
  };
  window.dispatchEvent(Object.assign(new CustomEvent('devtoolstooldiscovery'), {respondWith}));
  if (groups.length === 0) {
    // Let asynchronous respondWith calls (a microtask or a zero timeout later) arrive.
    await new Promise(resolve => setTimeout(resolve, 0));
  }
  return JSON.stringify(
    groups.map((group): ToolGroupFacts => ({
      name: group.name,
      description: group.description ?? '',
      tools: group.tools.map(tool => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      })),
    })),
  );
}

/** An argument the engine passes as `{uid}`: its element comes as an extra argument. */
function isUidArgument(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof Reflect.get(value, 'uid') === 'string' &&
    Object.keys(value).length === 1
  );
}

/**
 * A JSON-safe copy of a tool's result: elements stashed (as `{stashedId}`) for uid lookup,
 * functions, symbols and bigints as text, cycles and class instances described.
 */
function jsonSafe(result: unknown, stashed: Element[]): unknown {
  const ancestors = new Set<object>();
  const convert = (data: unknown): unknown => {
    if (data instanceof Element) {
      stashed.push(data);
      return {stashedId: `stashed-${stashed.length - 1}`};
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
      const proto: unknown = Object.getPrototypeOf(data);
      if (proto !== null && proto !== Object.prototype) {
        return `<${constructorName(data)} instance>`;
      }
    }
    ancestors.add(data);
    try {
      if (Array.isArray(data)) {
        return data.map(convert);
      }
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(data)) {
        out[key] = convert(value);
      }
      return out;
    } finally {
      ancestors.delete(data);
    }
  };
  return convert(result);
}

/** `data.constructor.name` as the page has it; 'Object' when there is none. */
function constructorName(data: object): string {
  const made: unknown = Reflect.get(data, 'constructor');
  const name: unknown = isObjectLike(made) ? Reflect.get(made, 'name') : undefined;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a name the page set to any value prints as it did
  return name ? String(name) : 'Object';
}

/**
 * Called with `this` = window: swaps `{uid}` arguments for the elements passed after them, runs
 * the tool through `window.__dtmcp.executeTool`, and stashes the elements it returned on
 * `window.__dtmcp.stashedElements`. The result's JSON text (undefined when it returned nothing)
 * and how many elements were stashed.
 */
export async function executeThirdPartyTool(
  toolName: string,
  args: Record<string, unknown>,
  ...elements: Element[]
): Promise<{json: string | undefined; stashed: number}> {
  for (const [key, value] of Object.entries(args)) {
    if (isUidArgument(value)) {
      args[key] = elements.shift();
    }
  }
  const state = devtoolsState();
  if (!state?.executeTool) {
    throw new Error('No tools found on the page');
  }
  const result = await state.executeTool(toolName, args);
  const stashed: Element[] = [];
  const converted = jsonSafe(result, stashed);
  state.stashedElements = stashed;
  return {
    json: converted === undefined ? undefined : JSON.stringify(converted),
    stashed: stashed.length,
  };
}

/** The `index`th element the last tool run returned (the engine resolves it to a uid). */
export function stashedElement(index: number): Element | undefined {
  return devtoolsState()?.stashedElements?.[index];
}

/** Forgets the elements the last tool run returned. */
export function clearStashedElements(): void {
  const state = devtoolsState();
  if (state) {
    state.stashedElements = undefined;
  }
}
