/**
 * Owns the browser: launches it over a pipe (or attaches with --browserUrl / --wsEndpoint) on the
 * first tool call, notices when it goes away, and brings it back on the next call with a one-time
 * note. Close what we launched; disconnect from what we attached to.
 */
import {EventEmitter} from 'node:events';
import puppeteer, {type Browser, type Target} from 'puppeteer-core';
import type {BrowserStatus} from '../../../shared/protocol.js';
import type {BrowserConfig} from '../../config/serverConfig.js';
import {defaultProfileDir} from '../../config/paths.js';
import {findExecutable} from './executable.js';
import {launchArguments, withoutForbiddenFiles} from './launchArguments.js';
import {EXTENSION_URL_PREFIX, ExtensionWorkers} from './extensionWorkers.js';
import {FileNavigationGuard, type FileUrlPolicy} from '../navigation/fileGuard.js';
import {withTimeout} from '../lock.js';
import {PageRegistry} from '../pages/PageRegistry.js';
import {createRunProfile, isProfileInUse, removeRunProfile} from './runProfile.js';
import type {AttachableFeature} from '../pages/PageState.js';
import {batchPipeWrites} from './pipeWrites.js';
import {LaunchedGroups} from './processGroup.js';
import {errorText, firstLine} from '../../../shared/values.js';
import {urlSecrets, withoutSecretsOf, withoutUrlSecrets} from '../../../shared/urlSecrets.js';
import {attachFailureAdvice, EndedSessions, type LostPage} from './remoteBrowser.js';

/** Acquiring the browser (not the tool's own work) is bounded, as in chrome-devtools-mcp 1.11. */
const BROWSER_ACQUIRE_TIMEOUT_MS = 60_000;
/** Attaching is quick when the browser answers at all; a half-open endpoint fails sooner. */
const BROWSER_CONNECT_TIMEOUT_MS = 20_000;
/**
 * Backstop for any single CDP command; shorter than the 45 s lock wait (LOCK_WAIT_MS), so a
 * command that never answers cannot make the next call on its page fail. In-page evaluations
 * have their own, shorter bounds (evaluation.ts).
 */
const PROTOCOL_TIMEOUT_MS = 30_000;

const RECONNECT_NOTE =
  'Note: the browser was restarted or reconnected since the last call. Page ids have changed. Call list_pages to see open pages.';

const BROWSER_GONE = {
  log: 'The browser went away; it will be started again on the next tool call.',
  note: 'The browser closed or crashed. The next tool call starts it again.',
};

const HIDDEN_TARGET_PREFIXES = ['chrome://', 'chrome-untrusted://', 'devtools://'];

export interface ManagedBrowserOptions {
  config: BrowserConfig;
  features: readonly AttachableFeature[];
  log: (line: string) => void;
  /** Whether the Extensions category is on now: a launch then loads Chromium with extension support. */
  extensionsEnabled?: () => boolean;
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** Which file: URLs the browser may load (default: none are policed). */
  fileUrls?: FileUrlPolicy;
  /** Override of the start/attach bound (tests); read at every call. */
  acquireTimeoutMs?: number;
}

/** What one client last saw of the browser, so each is told once about a restart. */
export interface SeenBrowser {
  generation: number;
}

export class ManagedBrowser extends EventEmitter<{status: [BrowserStatus]}> {
  readonly pages: PageRegistry;
  readonly extensionWorkers = new ExtensionWorkers();
  #launchedWithExtensions = false;
  #browser: Browser | undefined;
  #starting: Promise<Browser> | undefined;
  #closing = false;
  /** Counts successful starts/attaches; a client that saw an older one gets the reconnect note. */
  #generation = 0;
  #status: BrowserStatus;
  readonly #fileGuard: FileNavigationGuard | undefined;
  /** WebMCP availability as the WebMCP service found it; shown with the running status. */
  #webmcp: BrowserStatus['webmcp'];
  readonly #env: Record<string, string | undefined>;
  readonly #platform: NodeJS.Platform;
  /** This run's own profile, when the default one was in use by another browser. */
  #runProfile: string | undefined;
  readonly #endedSessions = new EndedSessions();
  /** The process groups of the browsers launched: they end whole, on close and on exit. */
  readonly #groups = new LaunchedGroups();

  constructor(private readonly options: ManagedBrowserOptions) {
    super();
    this.pages = new PageRegistry(options.features);
    this.#env = options.env ?? process.env;
    this.#platform = options.platform ?? process.platform;
    this.#status = {state: 'idle', mode: this.mode};
    this.#fileGuard = options.fileUrls
      ? new FileNavigationGuard(options.fileUrls, options.log)
      : undefined;
  }

  get generation(): number {
    return this.#generation;
  }

  /**
   * Finds a browser problem before the first call (no browser is started): undefined when the
   * executable is there, else one line saying what is wrong and how to fix it.
   */
  preflight(): string | undefined {
    if (this.mode !== 'launch') {
      return undefined;
    }
    const {config} = this.options;
    try {
      findExecutable({
        ...(config.executablePath === undefined ? {} : {executablePath: config.executablePath}),
        ...(config.channel === undefined ? {} : {channel: config.channel}),
        env: this.#env,
        platform: this.#platform,
      });
      return undefined;
    } catch (error) {
      const message = errorText(error);
      const line =
        config.executablePath !== undefined
          ? message
          : `No ${config.channel ? `Chrome ${config.channel}` : 'Chrome or Chromium'} browser found. Install one, or pass --executablePath /path/to/chrome (or set CHROME_PATH), or attach with --browserUrl http://127.0.0.1:9222.`;
      this.#setStatus({state: 'error', mode: this.mode, error: line});
      return `${line} Tool calls will fail until this is fixed.`;
    }
  }

  get mode(): 'launch' | 'connect' {
    const {browserUrl, wsEndpoint} = this.options.config;
    return browserUrl !== undefined || wsEndpoint !== undefined ? 'connect' : 'launch';
  }

  get status(): BrowserStatus {
    return this.#status;
  }

  get chromium(): Browser | undefined {
    return this.#browser;
  }

  /** A browser on this machine: file paths the tools pass to it are checked against the workspace. */
  get isLocal(): boolean {
    if (this.mode === 'launch') {
      return true;
    }
    const endpoint = this.options.config.browserUrl ?? this.options.config.wsEndpoint ?? '';
    try {
      const host = new URL(endpoint).hostname;
      return host === 'localhost' || host === '[::1]' || host === '::1' || host.startsWith('127.');
    } catch {
      return false;
    }
  }

  #setStatus(status: BrowserStatus): void {
    this.#status =
      status.state === 'running' && this.#webmcp !== undefined
        ? {...status, webmcp: this.#webmcp}
        : status;
    this.emit('status', this.#status);
  }

  /** The --browserUrl / --wsEndpoint attached to (connect mode), as shown: without its secrets. */
  get endpoint(): string | undefined {
    const endpoint = this.options.config.browserUrl ?? this.options.config.wsEndpoint;
    return endpoint === undefined ? undefined : withoutUrlSecrets(endpoint);
  }

  /** Set by the WebMCP service (version check, `document.modelContext` on a secure page). */
  setWebMcpAvailability(webmcp: NonNullable<BrowserStatus['webmcp']>): void {
    if (this.#webmcp?.available === webmcp.available && this.#webmcp.reason === webmcp.reason) {
      return;
    }
    this.#webmcp = webmcp;
    if (this.#status.state === 'running') {
      this.#setStatus(this.#status);
    }
  }

  /**
   * The running browser, starting or reattaching it if needed. Concurrent callers share one
   * attempt; an attempt that overruns its bound is abandoned (the next call starts a fresh one)
   * and its late result, if any, is discarded.
   */
  async ensure(): Promise<Browser> {
    if (this.#browser?.connected) {
      return this.#browser;
    }
    let attempt = this.#starting;
    if (!attempt) {
      const started = this.#start(() => this.#starting !== started);
      attempt = started;
      this.#starting = started;
      const clear = (): void => {
        if (this.#starting === started) {
          this.#starting = undefined;
        }
      };
      started.then(clear, clear);
    }
    const timeoutMs =
      this.options.acquireTimeoutMs ??
      (this.mode === 'launch' ? BROWSER_ACQUIRE_TIMEOUT_MS : BROWSER_CONNECT_TIMEOUT_MS);
    try {
      return await withTimeout(
        attempt,
        timeoutMs,
        `Timed out after ${timeoutMs / 1000} s waiting for the browser to ${this.mode === 'launch' ? 'start' : 'connect'}${this.endpoint === undefined ? '' : ` at ${this.endpoint}`}. The next call will try again.`,
      );
    } catch (error) {
      if (this.#starting === attempt && !this.#browser?.connected) {
        // Abandon it: a later call starts over instead of waiting on the same dead attempt.
        this.#starting = undefined;
        if (this.#status.state === 'starting') {
          this.#setStatus({
            state: 'error',
            mode: this.mode,
            error: errorText(error),
          });
        }
      }
      throw error;
    }
  }

  /** Why the extension tools cannot work with this browser, or undefined when they can. */
  extensionSupportProblem(): string | undefined {
    if (this.mode === 'connect') {
      return `Extensions need a browser this server launches (over a pipe, with --enable-unsafe-extension-debugging); this one is attached via ${this.options.config.browserUrl === undefined ? '--wsEndpoint' : '--browserUrl'}. Restart the server without --browserUrl/--wsEndpoint, with --categoryExtensions.`;
    }
    if (this.#browser && !this.#launchedWithExtensions) {
      return 'The browser was started before the Extensions category was switched on, so it runs without extension support. Restart the server with --categoryExtensions (or close the browser so the next tool call starts it again with extensions).';
    }
    return undefined;
  }

  /**
   * The one-time note for a client that last saw an older browser; updates what it saw. When the
   * remote end closed the session it saw, the note says so and lists the lost pages it `sees`.
   */
  reconnectNoteFor(
    client: SeenBrowser,
    sees: (page: LostPage) => boolean = () => true,
  ): string | undefined {
    const seen = client.generation;
    client.generation = this.#generation;
    if (seen < 1 || this.#generation <= seen) {
      return undefined;
    }
    return this.#endedSessions.noteFor(seen, sees) ?? RECONNECT_NOTE;
  }

  async #start(abandoned: () => boolean): Promise<Browser> {
    const {config, log} = this.options;
    this.#webmcp = undefined;
    this.#setStatus({state: 'starting', mode: this.mode});
    let browser: Browser;
    try {
      browser = this.mode === 'launch' ? await this.#launch() : await this.#connect();
    } catch (error) {
      const message = errorText(error);
      if (!abandoned()) {
        this.#setStatus({state: 'error', mode: this.mode, error: message});
      }
      throw error;
    }
    if (abandoned() || this.#closing) {
      // Too late: the caller gave up and a newer attempt (or shutdown) owns the browser now.
      await this.#release(browser);
      throw new Error('A browser start that had timed out finished late; it was discarded.');
    }
    const versionReady = browser.version().catch(() => 'unknown');
    this.#generation++;
    this.#browser = browser;
    browser.once('disconnected', () => this.#onDisconnected(browser));
    await this.#fileGuard?.attach(browser, this.pages);
    if (this.#launchedWithExtensions) {
      this.extensionWorkers.attach(browser);
    }
    await this.pages.attach(browser);
    await this.#fileGuard?.clearForbidden(this.pages.list());
    if (this.pages.list().length === 0) {
      await this.pages.register(await browser.newPage());
    }
    const version = await versionReady;
    // Only a browser this server launches runs headless for want of a display.
    const note =
      this.mode === 'launch' && config.headlessBecauseNoDisplay
        ? 'No display found, so the browser runs headless. Set DISPLAY or pass --headless to silence this.'
        : undefined;
    if (note) {
      log(note);
    }
    this.#setStatus({
      state: 'running',
      mode: this.mode,
      version,
      headless: this.mode === 'launch' ? config.headless : undefined,
      ...(note === undefined ? {} : {note}),
    });
    return browser;
  }

  #targetFilter = (target: Target): boolean => {
    const url = target.url();
    if (url.startsWith(EXTENSION_URL_PREFIX)) {
      return this.#launchedWithExtensions;
    }
    return !HIDDEN_TARGET_PREFIXES.some(prefix => url.startsWith(prefix));
  };

  async #launch(): Promise<Browser> {
    const {config, log} = this.options;
    const executablePath = findExecutable({
      ...(config.executablePath === undefined ? {} : {executablePath: config.executablePath}),
      ...(config.channel === undefined ? {} : {channel: config.channel}),
      env: this.#env,
      platform: this.#platform,
    });
    const runningAsRoot = this.#platform === 'linux' && process.getuid?.() === 0;
    if (runningAsRoot && !config.chromeArgs.includes('--no-sandbox')) {
      log('Running as root: Chromium is started with --no-sandbox.');
    }
    const userDataDir = config.isolated
      ? undefined
      : (this.#runProfile ?? config.userDataDir ?? defaultProfileDir(config.channel, this.#env));
    // Set before launch: the target filter reads it for the targets that exist at start.
    this.#launchedWithExtensions = this.options.extensionsEnabled?.() ?? false;
    const args = launchArguments(
      {
        ...config,
        chromeArgs: await withoutForbiddenFiles(config.chromeArgs, this.options.fileUrls, log),
      },
      runningAsRoot,
    );
    const launch = async (profile: string | undefined): Promise<Browser> => {
      const browser = await puppeteer.launch({
        executablePath,
        headless: config.headless,
        pipe: true,
        // A copy per launch: puppeteer edits the array in place (it moves --enable-features and
        // --disable-features out), so a retry with the same array would start without them.
        args: [...args],
        ignoreDefaultArgs: [...config.ignoreDefaultChromeArgs],
        defaultViewport: config.viewport ?? null,
        acceptInsecureCerts: config.acceptInsecureCerts,
        protocolTimeout: PROTOCOL_TIMEOUT_MS,
        targetFilter: this.#targetFilter,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        // Drops --disable-extensions and adds --enable-unsafe-extension-debugging (for Extensions.*).
        enableExtensions: this.#launchedWithExtensions,
        ...(profile === undefined ? {} : {userDataDir: profile}),
      });
      batchPipeWrites(browser.process());
      this.#groups.add(browser.process()?.pid);
      return browser;
    };
    try {
      return await launch(userDataDir);
    } catch (error) {
      const message = errorText(error);
      if (!isProfileInUse(message)) {
        const shown = this.#withoutSecrets(message);
        throw new Error(`Could not start ${executablePath}: ${firstLine(shown)}`, {
          // eslint-disable-next-line preserve-caught-error -- the agent reads the cause: a cleaned copy
          cause: new Error(shown),
        });
      }
      if (config.userDataDir !== undefined || userDataDir === undefined || this.#runProfile) {
        throw new Error(
          config.userDataDir === undefined
            ? `The browser is already running for ${userDataDir ?? 'this profile'}. Use --isolated to run several browser instances, or close the other one.`
            : `The browser is already running for --userDataDir ${config.userDataDir}. Close the browser that uses it, or start this server with another --userDataDir (or --isolated for a temporary profile).`,
          {cause: error},
        );
      }
      return this.#launchOnRunProfile(userDataDir, launch);
    }
  }

  /**
   * The default profile is in use (another server's browser, e.g. a second agent with the same
   * stdio setup): this run uses a fresh profile next to it, removed when it exits.
   */
  async #launchOnRunProfile(
    defaultDir: string,
    launch: (profile: string) => Promise<Browser>,
  ): Promise<Browser> {
    const profile = createRunProfile(defaultDir);
    this.#runProfile = profile;
    this.options.log(
      `The profile ${defaultDir} is in use by another browser (another MCP Browser Inspector?); this run uses its own profile ${profile}, removed when it exits.`,
    );
    try {
      return await launch(profile);
    } catch (error) {
      const shown = this.#withoutSecrets(errorText(error));
      throw new Error(`Could not start the browser on ${profile}: ${firstLine(shown)}`, {
        // eslint-disable-next-line preserve-caught-error -- the agent reads the cause: a cleaned copy
        cause: new Error(shown),
      });
    }
  }

  /** Removes this run's own profile, if it needed one (synchronous: also runs on exit). */
  removeRunProfile(): void {
    if (this.#runProfile !== undefined) {
      removeRunProfile(this.#runProfile);
      this.#runProfile = undefined;
    }
  }

  /** A browser error as the agent may read it: without what the endpoint and proxy flags carry. */
  #withoutSecrets(text: string): string {
    const {browserUrl, wsEndpoint, proxyServer, wsHeaders} = this.options.config;
    return withoutSecretsOf(text, [
      ...[browserUrl, wsEndpoint, proxyServer].flatMap(flag => urlSecrets(flag ?? '')),
      ...Object.values(wsHeaders ?? {}),
    ]);
  }

  async #connect(): Promise<Browser> {
    const {config} = this.options;
    try {
      return await puppeteer.connect({
        ...(config.browserUrl === undefined ? {} : {browserURL: config.browserUrl}),
        ...(config.wsEndpoint === undefined ? {} : {browserWSEndpoint: config.wsEndpoint}),
        ...(config.wsHeaders === undefined ? {} : {headers: config.wsHeaders}),
        defaultViewport: null,
        acceptInsecureCerts: config.acceptInsecureCerts,
        protocolTimeout: PROTOCOL_TIMEOUT_MS,
        targetFilter: this.#targetFilter,
      });
    } catch (error) {
      // Shown without its credentials and query values (hosted browsers put a token there).
      const endpoint = this.endpoint ?? '';
      // Puppeteer's own text may quote the endpoint whole (credentials, a token in its query);
      // the agent reads the cause too, so it gets the cleaned text, never the original error.
      const message = this.#withoutSecrets(errorText(error));
      const advice = attachFailureAdvice(error, config, firstLine(message));
      throw new Error(
        `Could not connect to the browser at ${endpoint}: ${advice}`,
        // eslint-disable-next-line preserve-caught-error -- the agent reads the cause: a cleaned copy
        {cause: new Error(message)},
      );
    }
  }

  /** Closes a browser we launched, every process of it, or disconnects from one we attached to. */
  async #release(browser: Browser): Promise<void> {
    const work = this.mode === 'launch' ? browser.close() : browser.disconnect();
    await withTimeout(work, 5_000, 'Browser did not close in 5 s').catch(() => {
      browser.process()?.kill('SIGKILL');
    });
    // Its helpers (renderers, GPU, network) go with it, not a second later.
    await this.#groups.end(browser.process()?.pid);
  }

  /** Kills what is left of every browser this run launched, synchronously (exit handlers). */
  endProcessesNow(): void {
    this.#groups.endAllNow();
  }

  #onDisconnected(browser: Browser): void {
    if (this.#browser !== browser) {
      return;
    }
    this.#browser = undefined;
    this.#fileGuard?.detach();
    // A crashed browser's helpers do not all notice at once.
    void this.#groups.end(browser.process()?.pid);
    if (!this.#closing) {
      // Before the pages go: the clients of a remote session that ended hear which were lost.
      const {log, note} =
        this.mode === 'connect'
          ? this.#endedSessions.ended(this.#generation, this.pages.list(), this.endpoint)
          : BROWSER_GONE;
      this.options.log(log);
      this.#setStatus({state: 'disconnected', mode: this.mode, note});
    }
    this.pages.detachAll();
  }

  /** Closes a browser we launched, disconnects from one we attached to. Bounded at 5 s. */
  async close(): Promise<void> {
    this.#closing = true;
    const browser = this.#browser ?? (await this.#starting?.catch(() => undefined));
    if (!browser) {
      return;
    }
    await this.#release(browser);
    this.#browser = undefined;
    this.removeRunProfile();
    this.#setStatus({state: 'idle', mode: this.mode});
  }
}
