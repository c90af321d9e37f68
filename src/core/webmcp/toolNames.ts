/**
 * MCP names for a page's WebMCP tools: `webmcp_<name>`, with the characters every common client
 * accepts (letters, digits, `_`, `-`; at most 64). Two frames registering the same name keep
 * distinct names: the first holder keeps the plain name, every other one gets `__frame<N>`, where
 * N numbers the page's frames in the order they first registered a tool (the main frame is 1).
 * A name once given stays with its tool while the page lives, so an agent's plan does not break
 * when another frame comes or goes.
 */

export const PAGE_TOOL_PREFIX = 'webmcp_';
/** The tightest common client limit (OpenAI's function names). */
export const MAX_TOOL_NAME = 64;
/** Assignments kept per page; a page registering more distinct tools than this starts over. */
const MAX_REMEMBERED = 2_000;

export interface NamedEntry {
  frameId: string;
  name: string;
}

export interface AssignedName {
  mcpName: string;
  /** The frame number in the suffix, when the name has one. */
  frameNumber: number | undefined;
}

function keyOf(entry: NamedEntry): string {
  return `${entry.frameId}\u0000${entry.name}`;
}

/** `search.products` → `webmcp_search_products`, cut to leave room for `reserve` characters. */
export function baseName(name: string, reserve = 0): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  return `${PAGE_TOOL_PREFIX}${safe}`.slice(0, MAX_TOOL_NAME - reserve);
}

/** One page's name book: frame numbers and given names, both stable for the page's life. */
export class WebMcpToolNames {
  readonly #frameNumbers = new Map<string, number>();
  readonly #given = new Map<string, AssignedName>();

  constructor(mainFrameId: string | undefined) {
    if (mainFrameId !== undefined) {
      this.#frameNumbers.set(mainFrameId, 1);
    }
  }

  frameNumber(frameId: string): number {
    let number = this.#frameNumbers.get(frameId);
    if (number === undefined) {
      number = this.#frameNumbers.size + 1;
      this.#frameNumbers.set(frameId, number);
    }
    return number;
  }

  /**
   * Names for the current entries, in their order (main frame first, then registration order);
   * entries that had a name keep it.
   */
  assign(entries: readonly NamedEntry[]): AssignedName[] {
    if (this.#given.size > MAX_REMEMBERED) {
      this.#given.clear();
    }
    const taken = new Set<string>();
    const result = new Map<string, AssignedName>();
    // Names given before come first, so a newcomer never takes a name from a tool that had it.
    for (const entry of entries) {
      const previous = this.#given.get(keyOf(entry));
      if (previous && !taken.has(previous.mcpName)) {
        taken.add(previous.mcpName);
        result.set(keyOf(entry), previous);
      }
    }
    for (const entry of entries) {
      const key = keyOf(entry);
      if (result.has(key)) {
        continue;
      }
      const assigned = this.#fresh(entry, taken);
      taken.add(assigned.mcpName);
      result.set(key, assigned);
      this.#given.set(key, assigned);
    }
    return entries.map(entry => result.get(keyOf(entry)) ?? this.#fresh(entry, taken));
  }

  #fresh(entry: NamedEntry, taken: ReadonlySet<string>): AssignedName {
    const plain = baseName(entry.name);
    if (!taken.has(plain)) {
      return {mcpName: plain, frameNumber: undefined};
    }
    const frameNumber = this.frameNumber(entry.frameId);
    const suffix = `__frame${frameNumber}`;
    const withFrame = `${baseName(entry.name, suffix.length)}${suffix}`;
    if (!taken.has(withFrame)) {
      return {mcpName: withFrame, frameNumber};
    }
    // Two names of one frame that differ only in characters the MCP name cannot hold.
    for (let extra = 2; ; extra++) {
      const tail = `${suffix}_${extra}`;
      const candidate = `${baseName(entry.name, tail.length)}${tail}`;
      if (!taken.has(candidate)) {
        return {mcpName: candidate, frameNumber};
      }
    }
  }
}
