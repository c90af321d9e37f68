/**
 * The engine façade: everything the desktop shell and the headless CLI need, in plain Node. It
 * wires config → browser → tool catalog and pipeline → client sessions (HTTP and stdio) →
 * inspector hub, and answers inspector commands.
 */
import path from 'node:path';
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js';
import type {Readable, Writable} from 'node:stream';
import type {
  ClientRef,
  InspectorCommand,
  InspectorState,
  LiveFrame,
  PageInfo,
} from '../shared/protocol.js';
import type {CommandOf, CommandResult, ReplyMap} from '../shared/replies.js';
import {INSPECTOR_CLIENT, InProcessClientPages} from './browser/pages/ClientPages.js';
import {ManagedBrowser, type SeenBrowser} from './browser/launch/ManagedBrowser.js';
import type {AttachableFeature} from './browser/pages/PageState.js';
import {collectorFeatures} from './browser/collectors/index.js';
import {emulationFeatures} from './browser/pages/emulationState.js';
import {frameTargetsFeature} from './browser/pages/frames.js';
import {snapshotFeatures} from './browser/snapshot/snapshot.js';
import {slowdownFeature} from './browser/timeouts.js';
import {toolConditions, type ServerConfig} from './config/serverConfig.js';
import {resolveToken, tokenLocation, type ResolvedToken} from './config/token.js';
import {HttpEndpoint} from './http/HttpEndpoint.js';
import type {HttpServer} from './http/HttpServer.js';
import {InspectorHub} from './inspector/InspectorHub.js';
import {commandHandlers, runCommand, type CommandHandlers} from './inspectorCommands.js';
import {LiveView} from './inspector/LiveView.js';
import {BrowserFileRoots} from './files/roots.js';
import {TemporaryFiles} from './files/temporary.js';
import {FileAccess, type FileAccessShared} from './files/FileAccess.js';
import {HoldGate} from './mcp/hold/HoldGate.js';
import type {ClientSession} from './mcp/ClientSession.js';
import {ClientRoster} from './mcp/clientRoster.js';
import {toolResultOf} from './mcp/callResult.js';
import {ToolRunner} from './mcp/ToolRunner.js';
import {TelemetryRecorder} from './telemetry/TelemetryRecorder.js';
import {allTools} from './tools/index.js';
import {ToolCatalog} from './tools/base/ToolCatalog.js';
import {WebMcpService} from './webmcp/WebMcpService.js';
import {WebMcpToolBridge} from './tools/webmcpToolBridge.js';
import {HeapSnapshotStore} from './heap/HeapSnapshotStore.js';
import {ReplyMemory} from './mcp/replyMemory.js';
import {secretRedactor} from './recordings/secrets.js';
import {Recordings} from './recordings/Recordings.js';
import {createCallActivityTracker} from './recordings/callActivity.js';
import {pageActivityFeature} from './recordings/pageActivity.js';
import {LiveReplays} from './recordings/replay/live.js';
import {ServerAnnouncements} from './serverAnnouncements.js';

export interface EngineOptions {
  version: string;
  /** stderr in headless mode; never stdout, which may carry MCP. */
  log: (line: string) => void;
  rendererDir: string | undefined;
  /** Where the persisted token lives (tests point it at a temp dir). */
  configDir?: string;
  env?: Record<string, string | undefined>;
  /** This run replays that recording (its path): its own recording says so. */
  replayOf?: string;
  /** Whether UIs open their Hold tab when a call is held (the desktop app's saved choice). */
  openHoldOnHeld?: boolean;
  /**
   * Bound on starting or attaching the browser, instead of the product's (60 s to start, 20 s to
   * attach): tests of a hung endpoint set it lower.
   */
  browserAcquireTimeoutMs?: number;
}

export {PortInUseError} from './http/HttpEndpoint.js';

export class Engine {
  readonly hub: InspectorHub;
  readonly browser: ManagedBrowser;
  readonly catalog: ToolCatalog;
  readonly runner: ToolRunner;
  readonly telemetry: TelemetryRecorder;
  readonly token: ResolvedToken;
  readonly liveView: LiveView;
  readonly webmcp: WebMcpService;
  readonly hold: HoldGate;
  /** The selected page's WebMCP tools as webmcp_<name> tools (--webmcpTools). */
  readonly webmcpTools: WebMcpToolBridge;
  readonly heapSnapshots = new HeapSnapshotStore();
  /** Frees a big reply's copies once it has gone out. */
  readonly replyMemory = new ReplyMemory();
  /** This run's recording and the recordings folder. */
  readonly recordings: Recordings;
  /** The client sessions: live ones, and the ones that ended (for the Connection panel). */
  readonly roster: ClientRoster;
  /** In-process callers (the Run panel, each replay), each with its own selected page. */
  readonly inProcess: InProcessClientPages;

  readonly #frameListeners = new Set<(frame: LiveFrame) => void>();
  /** The HTTP server (once started) and the inspector sockets on it. */
  readonly #http: HttpEndpoint;
  #stdioClientSession: ClientSession | undefined;
  #stopped = false;
  /** The ready files and this server's entry in the per-user runtime folder (`list`). */
  readonly announcements: ServerAnnouncements;
  /** The server's temporary files (large screenshots…), removed when it stops. */
  readonly temporaryFiles: TemporaryFiles;
  /** Which file: URLs the browser may load; shared with every client session's file checks. */
  readonly browserFileRoots: BrowserFileRoots;
  /** The inspector's own runs see the browser like one more client. */
  readonly #inspectorSeenBrowser: SeenBrowser = {generation: 0};
  readonly #commands: CommandHandlers;
  /** Replay and export of recordings from the UI. */
  readonly replays: LiveReplays;

  constructor(
    readonly config: ServerConfig,
    private readonly options: EngineOptions,
  ) {
    this.token = resolveToken(config.token, options.configDir);
    const redact = secretRedactor(config, this.token.token);
    this.hub = new InspectorHub({redact, log: options.log});
    this.recordings = this.#startRecording();
    this.temporaryFiles = new TemporaryFiles(undefined, dir =>
      options.log(`Temporary files (removed when the server stops) go to ${dir}`),
    );
    this.browserFileRoots = new BrowserFileRoots(
      config.workspaceRoots,
      this.token.file === undefined ? [] : [path.dirname(this.token.file)],
    );
    this.browser = this.#createManagedBrowser();
    this.inProcess = new InProcessClientPages(this.browser.pages);
    this.webmcp = new WebMcpService({
      browser: this.browser,
      hub: this.hub,
      categoryEnabled: category => !this.catalog.slim && this.catalog.isCategoryEnabled(category),
    });
    this.browser.pages.addFeatures(this.webmcp.features);
    this.liveView = new LiveView(this.browser, frame => this.publishFrame(frame));
    this.catalog = new ToolCatalog(allTools(), {
      slim: config.slim,
      pageIdRouting: config.pageIdRouting,
      categories: config.categories,
      conditions: toolConditions(config),
    });
    this.telemetry = new TelemetryRecorder(options.version, config.telemetryLog, options.log);
    this.hold = this.#createHoldGate();
    this.runner = new ToolRunner({
      hold: this.hold,
      catalog: this.catalog,
      browser: this.browser,
      config,
      hub: this.hub,
      telemetry: this.telemetry,
      services: {webmcp: this.webmcp, heapSnapshots: this.heapSnapshots},
      replyMemory: this.replyMemory,
      callActivity: createCallActivityTracker({
        hub: this.hub,
        capture: this.recordings.enabled,
        streamingPageId: () => this.liveView.pageId,
        onFrame: listener => this.onFrame(listener),
        pages: this.browser.pages,
      }),
    });

    this.roster = new ClientRoster({
      hub: this.hub,
      pages: this.browser.pages,
      isolateClients: config.isolateClients,
      sessions: {
        catalog: this.catalog,
        runner: this.runner,
        version: options.version,
        workspaceRoots: config.workspaceRoots,
        files: this.#fileShared(),
        browserGeneration: () => this.browser.generation,
        log: options.log,
      },
    });
    this.webmcpTools = new WebMcpToolBridge({
      catalog: this.catalog,
      pages: this.browser.pages,
      webmcp: this.webmcp,
    });
    this.#http = this.#createHttpEndpoint();
    this.#forwardChanges();
    this.announcements = this.#createAnnouncements();
    this.replays = this.#createReplays();
    this.#commands = this.#createCommands();
    this.#publishTools();
  }

  #createCommands(): CommandHandlers {
    return commandHandlers({
      state: () => this.state(),
      catalog: this.catalog,
      // The Run panel's calls go through the pipeline as the inspector's own client.
      runTool: (tool, args) => this.runToolAs(INSPECTOR_CLIENT, tool, args),
      setIsolateClients: enabled => this.roster.setIsolateClients(enabled),
      token: this.token.token,
      liveView: this.liveView,
      webmcp: this.webmcp,
      hold: this.hold,
      pages: this.browser.pages,
      browserConnected: () => this.browser.chromium?.connected === true,
      recordings: this.recordings,
      replays: this.replays,
      runningServers: () => this.announcements.runningServers(),
    });
  }

  #createManagedBrowser(): ManagedBrowser {
    const features: AttachableFeature[] = [
      frameTargetsFeature,
      ...snapshotFeatures(),
      slowdownFeature,
      ...collectorFeatures,
      ...emulationFeatures,
      pageActivityFeature,
    ];
    return new ManagedBrowser({
      config: this.config.browser,
      features,
      log: this.options.log,
      fileUrls: this.browserFileRoots,
      extensionsEnabled: () => !this.catalog.slim && this.catalog.isCategoryEnabled('extensions'),
      ...(this.options.env ? {env: this.options.env} : {}),
      ...(this.options.browserAcquireTimeoutMs === undefined
        ? {}
        : {acquireTimeoutMs: this.options.browserAcquireTimeoutMs}),
    });
  }

  /** Tool, browser and page changes go to the MCP clients (tools only) and to the inspector. */
  #forwardChanges(): void {
    this.roster.followToolChanges(this.catalog, () => this.#publishTools());
    // The status now: WebMCP's listener (before this one) may have updated it meanwhile.
    this.browser.on('status', () =>
      this.hub.publish({type: 'browserStatus', status: this.browser.status}),
    );
    this.browser.pages.on('changed', () =>
      this.hub.publish({type: 'pagesChanged', pages: this.#pageInfos()}),
    );
  }

  #createHoldGate(): HoldGate {
    const gate = new HoldGate({
      hub: this.hub,
      rules: this.config.hold.rules,
      timeoutMs: this.config.hold.timeoutMs,
      openOnHeld: this.options.openHoldOnHeld ?? false,
      webmcp: this.webmcp,
      toolNames: () => this.catalog.all().map(tool => tool.name),
      validate: (tool, args) => tool.validate(args, this.catalog.schemaOptions()),
    });
    for (const name of gate.unknownTools()) {
      this.options.log(
        `Warning: --hold tool:${name} names no tool of this server; it never holds.`,
      );
    }
    return gate;
  }

  /** Records every hub event (unless --no-record); the file starts at the first tool call. */
  #startRecording(): Recordings {
    // version, configDir, env, log and replayOf come from the options as they are.
    const recording = new Recordings({
      ...this.options,
      config: this.config,
      token: this.token.token,
    });
    this.hub.onEvent(envelope => recording.record(envelope));
    return recording;
  }

  #createAnnouncements(): ServerAnnouncements {
    return new ServerAnnouncements({
      version: this.options.version,
      token: this.token.token,
      tokenWhere: tokenLocation(this.token),
      urls: () => this.#http.server,
      clients: () => this.roster.clients(),
      onEvent: listener => this.hub.onEvent(envelope => listener(envelope.event)),
      ...(this.options.env ? {env: this.options.env} : {}),
      log: this.options.log,
    });
  }

  #createReplays(): LiveReplays {
    return new LiveReplays({
      hub: this.hub,
      recordings: this.recordings,
      pagesOf: client => this.inProcess.of(client),
      releasePages: client => this.inProcess.release(client),
      onPageAdded: listener => {
        this.browser.pages.on('pageAdded', listener);
        return () => this.browser.pages.off('pageAdded', listener);
      },
      runTool: (client, tool, args) => this.runToolAs(client, tool, args),
      elementPaths: tool => this.catalog.get(tool)?.elementPaths,
      ensureBrowser: () => this.browser.ensure().then(() => undefined),
      version: this.options.version,
    });
  }

  #publishTools(): void {
    this.hub.publish({
      type: 'toolsChanged',
      slim: this.catalog.slim,
      categories: this.catalog.categoryStates(),
      conditions: this.catalog.conditionStates(),
      tools: this.catalog.toolInfos(),
    });
  }

  createClientSession(kind: 'http' | 'stdio'): ClientSession {
    return this.roster.create(kind);
  }

  #fileShared(): FileAccessShared {
    return {temporary: this.temporaryFiles, browserRoots: this.browserFileRoots};
  }

  /** A browser problem found before the first call (missing executable), as one line. */
  preflight(): string | undefined {
    return this.browser.preflight();
  }

  get http(): HttpServer | undefined {
    return this.#http.server;
  }

  /**
   * Starts the HTTP server. With `allowPortFallback` (stdio mode, where HTTP only serves the
   * inspector), a busy port falls back to any free one instead of failing.
   */
  startHttp(allowPortFallback: boolean): Promise<HttpServer> {
    return this.#http.start(allowPortFallback);
  }

  #createHttpEndpoint(): HttpEndpoint {
    return new HttpEndpoint({
      config: this.config,
      token: this.token,
      version: this.options.version,
      rendererDir: this.options.rendererDir,
      log: this.options.log,
      createClientSession: () => this.createClientSession('http'),
      onClientSessionReaped: (clientSession, reason, idleMs) =>
        this.roster.ending(clientSession, reason, idleMs),
      inspector: {
        subscribe: (fromSeq, listener, streamId) => this.hub.subscribe(fromSeq, listener, streamId),
        handleCommand: (command, watcher) => this.handleCommand(command, {watcher}),
        onFrame: listener => this.onFrame(listener),
        stopWatching: watcher => this.liveView.stop(watcher),
      },
    });
  }

  async connectStdio(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
  ): Promise<ClientSession> {
    const clientSession = this.createClientSession('stdio');
    this.#stdioClientSession = clientSession;
    await clientSession.connect(new StdioServerTransport(stdin, stdout));
    // The stdio peer is live while its stream is open (it ends with the session).
    clientSession.beginActivity();
    return clientSession;
  }

  /** Writes the --readyFile (atomically, mode 0600); it is removed again when the engine stops. */
  writeReadyFile(file: string): void {
    this.announcements.writeReadyFile(file);
  }

  /** The one line printed at startup: where to connect and how to get the token, never the token. */
  startupLine(): string {
    return this.#http.startupLine();
  }

  /** The inspector URL with the token in its fragment: for a terminal only, never for logs. */
  inspectorUrlWithToken(): string | undefined {
    return this.#http.inspectorUrlWithToken();
  }

  state(): InspectorState {
    const server = this.#http.server;
    return {
      serverVersion: this.options.version,
      ...(server ? {mcpUrl: server.mcpUrl, inspectorUrl: server.inspectorUrl} : {}),
      ...(this.config.telemetryLog === undefined
        ? {}
        : {telemetryLogPath: this.config.telemetryLog}),
      slim: this.catalog.slim,
      categories: this.catalog.categoryStates(),
      conditions: this.catalog.conditionStates(),
      tools: this.catalog.toolInfos(),
      pages: this.#pageInfos(),
      browser: this.browser.status,
      clients: this.roster.clients(),
      closedClients: this.roster.closedClients(),
      isolateClients: this.roster.isolateClients,
      webmcpTools: this.webmcp.tools(),
    };
  }

  /** Live-view frames for a transport (WebSocket or IPC); returns the unsubscribe function. */
  onFrame(listener: (frame: LiveFrame) => void): () => void {
    this.#frameListeners.add(listener);
    return () => this.#frameListeners.delete(listener);
  }

  publishFrame(frame: LiveFrame): void {
    for (const listener of this.#frameListeners) {
      listener(frame);
    }
  }

  /**
   * Answers one inspector command. `origin.watcher` names the UI connection (for the live view);
   * without it the command counts as coming from the one default watcher (the desktop window).
   */
  handleCommand<C extends InspectorCommand>(
    command: C & CommandOf<C['type']>,
    origin: {watcher?: string} = {},
  ): Promise<CommandResult<C['type']>> {
    return runCommand<C['type']>(this.#commands, command.type, command, origin.watcher);
  }

  /** Runs a tool through the pipeline as an in-process client (the Run panel, a replay). */
  async runToolAs(
    client: ClientRef,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<ReplyMap['runTool']> {
    const noClientRoots = {clientRoots: () => Promise.resolve([])};
    const files = new FileAccess(this.config.workspaceRoots, noClientRoots, this.#fileShared());
    const result = await this.runner.callInProcess(tool, args, {
      client,
      pages: this.inProcess.of(client),
      files,
      seenBrowser: this.#inspectorSeenBrowser,
    });
    return {...toolResultOf(result), isError: result.isError === true};
  }

  /** Every page for the inspector: who opened it, who selected it, the Run panel's selection. */
  #pageInfos(): PageInfo[] {
    return this.browser.pages.inspectorInfos(this.inProcess.of(INSPECTOR_CLIENT));
  }

  async stop(): Promise<void> {
    if (this.#stopped) {
      return;
    }
    this.#stopped = true;
    // First: from here on the run no longer serves what the ready file announces.
    this.announcements.removeAll();
    this.webmcpTools.dispose();
    this.replyMemory.dispose();
    this.replays.stop();
    this.roster.stop();
    await this.liveView.stop();
    await this.#stdioClientSession?.close();
    await this.#http.close();
    // Before the browser (whose close may run into the exit backstop).
    this.temporaryFiles.removeAll();
    await this.browser.close();
    await this.heapSnapshots.closeAll();
    await this.telemetry.close();
    // Last, so the shutdown's own events (browser closed, clients gone) are in the file.
    this.recordings.close();
  }
}
