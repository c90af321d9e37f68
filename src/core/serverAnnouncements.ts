/**
 * Where this server says it is running: the --readyFile(s) a caller asked for, and its file in the
 * per-user runtime folder (config/runtimeFiles.ts) that `mcp-browser-inspector list` and every
 * inspector's Servers tab read. The runtime file is rewritten (debounced) when clients connect,
 * leave, or become live or idle; all of them are removed when the server stops, synchronously, so
 * an exit handler can do it too.
 */
import {
  RUNNING_CLIENTS_SHOWN,
  type RunningServer,
  type RuntimeFile,
} from '../shared/runningServers.js';
import type {ConnectedClient, InspectorEvent} from '../shared/protocol.js';
import {errorText} from '../shared/values.js';
import {removeOwnReadyFile, writeReadyFile} from './config/readyFiles.js';
import {
  listRuntimeFiles,
  processStartTicks,
  runtimeDir,
  writeRuntimeFile,
} from './config/runtimeFiles.js';

/** Client changes come in bursts (a client connects and becomes live): one write per burst. */
const REWRITE_AFTER_MS = 300;
const CLIENT_EVENTS = new Set<InspectorEvent['type']>([
  'clientConnected',
  'clientDisconnected',
  'clientActivity',
]);

export interface AnnouncementDeps {
  version: string;
  token: string;
  tokenWhere: string;
  /** The HTTP server's URLs, once it listens. */
  urls(): {mcpUrl: string; inspectorUrl: string} | undefined;
  clients(): ConnectedClient[];
  onEvent(listener: (event: InspectorEvent) => void): () => void;
  env?: Record<string, string | undefined>;
  log(line: string): void;
}

export class ServerAnnouncements {
  readonly #readyFiles = new Set<string>();
  readonly #startedAt = Date.now();
  #runtime:
    {file: string | undefined; entry: Omit<RuntimeFile, 'clients' | 'moreClients'>} | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: AnnouncementDeps) {}

  #ready(): {mcpUrl: string; inspectorUrl: string; token: string; pid: number} {
    const urls = this.deps.urls();
    if (!urls) {
      throw new Error('The HTTP server is not running.');
    }
    // Read by name: the HTTP server's URLs are getters (a spread would copy its other fields).
    const {mcpUrl, inspectorUrl} = urls;
    return {mcpUrl, inspectorUrl, token: this.deps.token, pid: process.pid};
  }

  /** Writes a --readyFile (atomically, mode 0600); it is removed again when the server stops. */
  writeReadyFile(file: string): void {
    this.#readyFiles.add(writeReadyFile(file, this.#ready()));
  }

  /** Announces the server in the runtime folder; a failure is a warning, never the end of a start. */
  announce(kind: RuntimeFile['kind'], stdio: boolean): void {
    const ticks = processStartTicks(process.pid);
    this.#runtime = {
      file: undefined,
      entry: {
        ...this.#ready(),
        version: this.deps.version,
        kind,
        stdio,
        startedAt: this.#startedAt,
        ...(ticks === undefined ? {} : {startTicks: ticks}),
        cwd: process.cwd(),
        tokenWhere: this.deps.tokenWhere,
      },
    };
    this.#writeRuntime();
    this.#unsubscribe = this.deps.onEvent(event => {
      if (CLIENT_EVENTS.has(event.type) && this.#timer === undefined) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#writeRuntime();
        }, REWRITE_AFTER_MS);
        this.#timer.unref();
      }
    });
  }

  #writeRuntime(): void {
    const runtime = this.#runtime;
    if (!runtime) {
      return;
    }
    const clients = this.deps.clients().filter(client => client.transport !== 'inspector');
    const dir = runtimeDir(this.deps.env);
    try {
      const file = writeRuntimeFile(dir, {
        ...runtime.entry,
        clients: clients.slice(0, RUNNING_CLIENTS_SHOWN).map(client => ({
          name: client.name.slice(0, 200),
          transport: client.transport,
          live: client.live === true,
        })),
        moreClients: Math.max(0, clients.length - RUNNING_CLIENTS_SHOWN),
      });
      runtime.file = file;
    } catch (error) {
      this.deps.log(
        `Warning: cannot announce this server in ${dir} (mcp-browser-inspector list will not show it): ${errorText(error)}`,
      );
      // Said once: no further attempts.
      this.#runtime = undefined;
    }
  }

  /** Every server running for this user now, as an inspector shows them. */
  runningServers(): RunningServer[] {
    return listRuntimeFiles(runtimeDir(this.deps.env)).map(
      ({token, tokenWhere: _where, startTicks: _ticks, ...server}) => ({
        ...server,
        openUrl: `${server.inspectorUrl}#token=${token}`,
        self: server.pid === process.pid,
      }),
    );
  }

  /** Removes what this run wrote (synchronous: it also runs in an exit handler). */
  removeAll(): void {
    clearTimeout(this.#timer);
    this.#unsubscribe?.();
    const runtimeFile = this.#runtime?.file;
    this.#runtime = undefined;
    for (const file of [...this.#readyFiles, ...(runtimeFile === undefined ? [] : [runtimeFile])]) {
      removeOwnReadyFile(file);
    }
    this.#readyFiles.clear();
  }
}
