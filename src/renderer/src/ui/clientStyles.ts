/**
 * How every panel marks a client: a colour per client name, the same in every session and run (a
 * hash of the name picks it, and the choice is remembered), and different for the clients
 * connected at once (a name whose colour another connected name has takes the next free one); and
 * a session number beside the name when a name has several sessions (`gemini-cli #2`), in the
 * order this inspector saw them. Pure bookkeeping outside React; the store keeps one.
 */

/** How many client colours the theme defines (--client-0 … --client-7). */
export const CLIENT_COLORS = 8;
/** Names remembered (colours and sessions); the oldest are forgotten first. */
const NAMES_KEPT = 200;
/** Sessions numbered per name. */
const SESSIONS_KEPT = 500;

export interface ClientStyle {
  color: number;
  /** 1-based, only when the client's name has several sessions. */
  session?: number;
}

/** The styles of the clients known, by client session id. */
export type ClientStyles = ReadonlyMap<string, ClientStyle>;

/** A stable colour slot for a name (FNV-1a). */
export function preferredColor(name: string): number {
  let hash = 2166136261;
  for (let index = 0; index < name.length; index++) {
    hash = Math.imul(hash ^ name.charCodeAt(index), 16777619);
  }
  return (hash >>> 0) % CLIENT_COLORS;
}

/** Where the colours chosen are kept between runs (the browser's storage); none in tests. */
export interface ColorMemory {
  load(): Record<string, number>;
  save(colors: Record<string, number>): void;
}

interface NamedClient {
  id: string;
  name: string;
}

export class ClientStyler {
  readonly #colors = new Map<string, number>();
  readonly #sessions = new Map<string, string[]>();
  #styles: ClientStyles = new Map();

  constructor(private readonly memory?: ColorMemory) {
    for (const [name, color] of Object.entries(memory?.load() ?? {})) {
      if (Number.isInteger(color) && color >= 0 && color < CLIENT_COLORS) {
        this.#colors.set(name, color);
      }
    }
  }

  get styles(): ClientStyles {
    return this.#styles;
  }

  /**
   * Notes clients seen (in the order they came) while `connected` are connected (in the order
   * they connected); the styles are a new map when anything changed, the same one otherwise.
   */
  note(seen: readonly NamedClient[], connected: readonly NamedClient[]): ClientStyles {
    let changed = false;
    let colorsChanged = false;
    for (const client of seen) {
      const sessions = this.#sessions.get(client.name) ?? [];
      if (!sessions.includes(client.id)) {
        this.#sessions.set(client.name, [...sessions, client.id].slice(-SESSIONS_KEPT));
        changed = true;
      }
      if (!this.#colors.has(client.name)) {
        this.#colors.set(
          client.name,
          this.#freeColor(client.name, this.#connectedColors(connected)),
        );
        changed = colorsChanged = true;
      }
    }
    // Clients connected at once never share a colour: the later of two moves to a free one.
    const used = new Set<number>();
    for (const name of new Set(connected.map(client => client.name))) {
      let color = this.#colors.get(name) ?? preferredColor(name);
      if (used.has(color) && used.size < CLIENT_COLORS) {
        color = this.#freeColor(name, used);
        this.#colors.set(name, color);
        changed = colorsChanged = true;
      }
      used.add(color);
    }
    if (!changed) {
      return this.#styles;
    }
    this.#forgetOldest();
    if (colorsChanged) {
      this.memory?.save(Object.fromEntries(this.#colors));
    }
    this.#styles = this.#build();
    return this.#styles;
  }

  #connectedColors(connected: readonly NamedClient[]): Set<number> {
    const colors = new Set<number>();
    for (const client of connected) {
      const color = this.#colors.get(client.name);
      if (color !== undefined) {
        colors.add(color);
      }
    }
    return colors;
  }

  /** The name's own colour unless it is taken: then the next free one (its own if none is). */
  #freeColor(name: string, taken: ReadonlySet<number>): number {
    const preferred = preferredColor(name);
    for (let step = 0; step < CLIENT_COLORS; step++) {
      const color = (preferred + step) % CLIENT_COLORS;
      if (!taken.has(color)) {
        return color;
      }
    }
    return preferred;
  }

  #forgetOldest(): void {
    for (const map of [this.#colors, this.#sessions]) {
      while (map.size > NAMES_KEPT) {
        const oldest = map.keys().next().value;
        if (oldest === undefined) {
          break;
        }
        map.delete(oldest);
      }
    }
  }

  #build(): ClientStyles {
    const styles = new Map<string, ClientStyle>();
    for (const [name, ids] of this.#sessions) {
      const color = this.#colors.get(name) ?? preferredColor(name);
      ids.forEach((id, index) => {
        styles.set(id, ids.length > 1 ? {color, session: index + 1} : {color});
      });
    }
    return styles;
  }
}
