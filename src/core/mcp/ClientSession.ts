/* eslint-disable @typescript-eslint/no-deprecated -- The low-level Server is deliberate: the pipeline
   validates arguments itself (self-healing errors) and the tool list changes at run time, which
   McpServer's registration model does not fit. */
/**
 * One MCP server object per connected client (an HTTP session or the stdio peer), all over the
 * same engine. Each knows its client's name and roots; tools/list and tools/call go to the shared
 * catalog and pipeline.
 */
import crypto from 'node:crypto';
import {fileURLToPath} from 'node:url';
import {Server} from '@modelcontextprotocol/sdk/server/index.js';
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {APP_ID} from '../../shared/constants.js';
import type {ClientRef} from '../../shared/protocol.js';
import type {ClientPages} from '../browser/pages/ClientPages.js';
import type {SeenBrowser} from '../browser/launch/ManagedBrowser.js';
import {FileAccess, type FileAccessShared, type RootsSource} from '../files/FileAccess.js';
import type {ToolRunner} from './ToolRunner.js';
import {readAnswer, supportsFormElicitation, type AskClient} from './hold/askClient.js';
import {webmcpToolAudience, type ToolCatalog} from '../tools/base/ToolCatalog.js';
import {errorText} from '../../shared/values.js';

/** roots/list is bounded: an unanswered request must not stall tool calls (chrome-devtools-mcp #2476). */
const ROOTS_TIMEOUT_MS = 5_000;

const INSTRUCTIONS =
  'Browser automation for a real Chromium. Typical loop: new_page or navigate_page, take_snapshot, then act with uids (click, fill, fill_form). Page-scoped tools need the pageId from list_pages.';

/** A client's name and version ride in every event of its calls: a long one is cut. */
const CLIENT_LABEL_CHARS = 200;

function clientLabel(text: string): string {
  return text.length > CLIENT_LABEL_CHARS ? `${text.slice(0, CLIENT_LABEL_CHARS)}…` : text;
}

export interface ClientSessionDeps {
  catalog: ToolCatalog;
  runner: ToolRunner;
  version: string;
  workspaceRoots: readonly string[];
  /** Temporary files and the browser-wide file: URL policy, shared by every session. */
  files: FileAccessShared;
  /** The browser generation now, so a session created after a restart gets no reconnect note. */
  browserGeneration: () => number;
  /** This client's pages (its own selection; its own context when isolated). */
  pagesFor: (client: () => ClientRef) => ClientPages;
  log: (line: string) => void;
  onConnected: (clientSession: ClientSession) => void;
  onClosed: (clientSession: ClientSession) => void;
  /** Its first request or stream started, or its last one ended. */
  onActivity?: (clientSession: ClientSession) => void;
}

/**
 * The client's roots, asked for lazily inside the first tool call that needs them (so the request
 * travels on that call's response stream, which every transport delivers) and again after
 * notifications/roots/list_changed.
 */
class ClientRoots {
  #roots: string[] = [];
  #fresh = false;
  #pending: Promise<void> | undefined;

  constructor(private readonly clientSession: ClientSession) {}

  invalidate(): void {
    this.#fresh = false;
  }

  async get(relatedRequestId: string | number | undefined): Promise<string[]> {
    if (!this.clientSession.server.getClientCapabilities()?.roots) {
      return [];
    }
    if (!this.#fresh) {
      this.#pending ??= this.#fetch(relatedRequestId).finally(() => (this.#pending = undefined));
      await this.#pending;
    }
    return this.#roots;
  }

  async #fetch(relatedRequestId: string | number | undefined): Promise<void> {
    try {
      const result = await this.clientSession.server.listRoots(undefined, {
        timeout: ROOTS_TIMEOUT_MS,
        ...(relatedRequestId === undefined ? {} : {relatedRequestId}),
      });
      this.#roots = result.roots.flatMap(root => {
        try {
          return root.uri.startsWith('file:') ? [fileURLToPath(root.uri)] : [];
        } catch {
          return [];
        }
      });
      this.#fresh = true;
    } catch (error) {
      // Unanswered or failed: carry on with --workspace and the temp dir, and ask again next time.
      this.clientSession.log(
        `roots/list failed for ${this.clientSession.client.name}: ${errorText(error)}`,
      );
    }
  }
}

export class ClientSession {
  readonly id = crypto.randomUUID();
  readonly server: Server;
  readonly #roots: ClientRoots;
  #client: ClientRef;
  calls = 0;
  readonly connectedAt = Date.now();
  /** When its last request or stream started or ended. */
  lastActivityAt = Date.now();
  /** Requests and streams in flight (HTTP), or 1 while the stdio stream is open. */
  #open = 0;
  /** It opened a stream of its own (HTTP GET): one that ended with nothing in flight means it left. */
  #streamed = false;
  /** What this client last saw of the browser; each client is told once about a restart. */
  readonly seenBrowser: SeenBrowser;
  /** The pages as this client sees them; its own selected page. */
  readonly pages: ClientPages;
  #closed = false;
  /** Tool calls in flight, by JSON-RPC request id. */
  readonly #running = new Map<string | number, AbortController>();

  constructor(
    private readonly deps: ClientSessionDeps,
    readonly transportKind: 'http' | 'stdio',
  ) {
    this.#client = {id: this.id, name: 'unknown', version: '', transport: transportKind};
    this.seenBrowser = {generation: deps.browserGeneration()};
    this.pages = deps.pagesFor(() => this.client);
    this.server = new Server(
      {name: APP_ID, title: 'MCP Browser Inspector', version: deps.version},
      {capabilities: {tools: {listChanged: true}, logging: {}}, instructions: INSTRUCTIONS},
    );
    this.#roots = new ClientRoots(this);

    this.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: deps.catalog.listDefinitions(webmcpToolAudience(this.pages)),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      this.calls++;
      const roots: RootsSource = {clientRoots: () => this.#roots.get(extra.requestId)};
      // Aborted by notifications/cancelled (the SDK's signal) or by the client closing the HTTP
      // stream the answer was to travel on (cancelRequest).
      const running = new AbortController();
      const forward = (): void => running.abort(extra.signal.reason);
      if (extra.signal.aborted) {
        forward();
      }
      extra.signal.addEventListener('abort', forward, {once: true});
      this.#running.set(extra.requestId, running);
      try {
        return await deps.runner.call(request.params.name, request.params.arguments ?? {}, {
          client: this.#client,
          pages: this.pages,
          files: new FileAccess(deps.workspaceRoots, roots, deps.files),
          signal: running.signal,
          seenBrowser: this.seenBrowser,
          progressToken: request.params._meta?.progressToken,
          sendNotification: extra.sendNotification,
          askClient: this.#askClient(extra.requestId),
        });
      } finally {
        extra.signal.removeEventListener('abort', forward);
        if (this.#running.get(extra.requestId) === running) {
          this.#running.delete(extra.requestId);
        }
      }
    });
    // Clients may set a log level; the server logs to stderr only, so there is nothing to change.
    this.server.setRequestHandler(SetLevelRequestSchema, () => ({}));
    this.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.#roots.invalidate();
    });
    this.server.oninitialized = () => {
      const info = this.server.getClientVersion();
      this.#client = {
        id: this.id,
        name: clientLabel(info?.name ?? 'unknown'),
        version: clientLabel(info?.version ?? ''),
        transport: transportKind,
      };
      deps.onConnected(this);
    };
    this.server.onclose = () => this.#onClose();
  }

  /**
   * Asks this client's person (elicitation/create, on the tool call's own response stream), when
   * the client supports form elicitation; held calls ask there too (hold/askClient.ts).
   */
  #askClient(relatedRequestId: string | number): AskClient | undefined {
    if (!supportsFormElicitation(this.server.getClientCapabilities())) {
      return undefined;
    }
    return async (question, signal, timeoutMs) =>
      readAnswer(
        await this.server.request(
          {method: 'elicitation/create', params: question},
          ElicitResultSchema,
          {relatedRequestId, signal, timeout: timeoutMs},
        ),
      );
  }

  get client(): ClientRef {
    if (this.#client.name === 'unknown') {
      // Known from the initialize request already, even if notifications/initialized never came.
      const info = this.server.getClientVersion();
      if (info) {
        return {...this.#client, name: clientLabel(info.name), version: clientLabel(info.version)};
      }
    }
    return this.#client;
  }

  /** Tool calls running now (a call whose stream dropped runs on while its client may resume). */
  get runningCalls(): number {
    return this.#running.size;
  }

  /** A request or stream in flight now. */
  get busy(): boolean {
    return this.#open > 0;
  }

  /**
   * Its stream ended and nothing is in flight: the client went away (an SDK client's close()
   * ends its stream without ending its session), not merely between two requests.
   */
  get left(): boolean {
    return this.#streamed && this.#open === 0;
  }

  /**
   * One request (or the client's own stream, `stream`) starts; the function returned ends it
   * (once).
   */
  beginActivity(kind: 'request' | 'stream' = 'request'): () => void {
    this.#open++;
    this.#streamed ||= kind === 'stream';
    this.lastActivityAt = Date.now();
    if (this.#open === 1) {
      this.deps.onActivity?.(this);
    }
    let ended = false;
    return () => {
      if (ended) {
        return;
      }
      ended = true;
      this.#open--;
      this.lastActivityAt = Date.now();
      if (this.#open === 0) {
        this.deps.onActivity?.(this);
      }
    };
  }

  log(line: string): void {
    this.deps.log(line);
  }

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  /**
   * Cancels a running tool call as notifications/cancelled would: the client can no longer get its
   * answer (it closed the HTTP stream). False if no such call runs.
   */
  cancelRequest(requestId: string | number, reason: string): boolean {
    const running = this.#running.get(requestId);
    if (!running || running.signal.aborted) {
      return false;
    }
    running.abort(new Error(reason));
    return true;
  }

  notifyToolsChanged(): void {
    if (!this.#closed) {
      void this.server.sendToolListChanged().catch(() => undefined);
    }
  }

  #onClose(): void {
    if (this.#closed) {
      return;
    }
    this.#closed = true;
    // Its selection goes; an isolated client's context closes with its pages (bounded).
    void this.pages.dispose().catch(() => undefined);
    this.deps.onClosed(this);
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => undefined);
    this.#onClose();
  }
}
