/**
 * The pages' own WebMCP tools: a registry fed by the CDP WebMCP domain (PageWebMcp per page),
 * invocations from anyone (this app, an MCP client, the page itself) recorded from
 * toolInvoked/toolResponded, execute and cancel that always settle, and the doctor.
 *
 * Every invocation ends: the page answers (Completed, Canceled, Error), or a cancel goes unanswered
 * for CANCEL_GRACE_MS (TimedOut), or its frame navigates, is removed or its page closes
 * (Interrupted). A declarative form that submits to another document answers only after that
 * navigation, so a navigation waits for the new document to load (plus a short grace) before it
 * counts as an interruption.
 */
import type {
  BrowserStatus,
  WebMcpDoctorReport,
  WebMcpInvocation,
  WebMcpToolView,
} from '../../shared/protocol.js';
import type {ToolCategory} from '../../shared/categories.js';
import type {BrowserSession} from '../browser/BrowserSession.js';
import {sendUntyped} from '../browser/cdp.js';
import {evaluateInPage, PROBE_TIMEOUT_MS} from '../browser/evaluation.js';
import {PageFeature, type AttachableFeature, type PageState} from '../browser/PageState.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import {
  boxModelSchema,
  emptyResultSchema,
  invokeToolResultSchema,
  normalizeStatus,
  permissionsPolicyStateSchema,
  type ToolInvokedEvent,
  type ToolRespondedEvent,
} from './cdpSchemas.js';
import {
  diagnose,
  majorVersion,
  MIN_CHROME_VERSION,
  type DoctorFacts,
  type FrameFacts,
} from './doctor.js';
import {
  PageWebMcp,
  type FrameGoneReason,
  type ToolEntry,
  type TrackedSession,
} from './PageWebMcp.js';

export type Invoker = WebMcpInvocation['invoker'];

export interface WebMcpServiceDeps {
  session: BrowserSession;
  hub: InspectorHub;
  /** Whether a tool category is on now (the page-tools sections follow the live switches). */
  categoryEnabled?: (category: ToolCategory) => boolean;
  /** How long a cancel may go unanswered before the invocation counts as timed out. */
  cancelGraceMs?: number;
}

/** Default bound of an invocation run from the inspector (a person may need to submit a form). */
export const INSPECTOR_TIMEOUT_MS = 120_000;
export const CANCEL_GRACE_MS = 3_000;
/** After a navigation, the new document's load plus this long may still bring the answer. */
const NAVIGATION_GRACE_MS = 1_000;
/** …but never more than this after the navigation itself. */
const NAVIGATION_CAP_MS = 10_000;
const FINISHED_KEPT = 500;
/** Output kept in the event stream; MCP callers get all of it. */
const OUTPUT_VIEW_LIMIT = 100_000;
const HIGHLIGHT_MS = 3_000;

type CancelReason = 'user' | 'client' | 'timeout';

interface InvocationRecord {
  view: WebMcpInvocation;
  tracker: PageWebMcp;
  source: TrackedSession;
  /** Not yet published: waiting to learn whether this app started it. */
  deferred: boolean;
  output: unknown;
  exception: {description?: string | undefined; value?: unknown} | undefined;
  cancelReason: CancelReason | undefined;
  timers: Set<NodeJS.Timeout>;
  waiters: Set<() => void>;
  /** Set when the frame navigated while the tool ran. */
  navigatedTo: string | undefined;
}

/** A running invocation, as first seen (from the page's event or from this app's own call). */
function newRecord(
  tracker: PageWebMcp,
  source: TrackedSession,
  start: Pick<WebMcpInvocation, 'invocationId' | 'frameId' | 'toolName' | 'input' | 'invoker'>,
  deferred: boolean,
): InvocationRecord {
  return {
    view: {...start, pageId: tracker.page.id, status: 'running', startedAt: Date.now()},
    tracker,
    source,
    deferred,
    output: undefined,
    exception: undefined,
    cancelReason: undefined,
    timers: new Set(),
    waiters: new Set(),
    navigatedTo: undefined,
  };
}

interface Claim {
  source: TrackedSession;
  frameId: string;
  toolName: string;
}

export interface ExecuteRequest {
  page: PageState;
  toolName: string;
  /** Required when two frames of the page register the same name. */
  frameId?: string | undefined;
  input: Record<string, unknown>;
  invoker: Invoker;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface InvocationOutcome {
  view: WebMcpInvocation;
  /** The page's result, untrusted. */
  output: unknown;
  exception: {description?: string | undefined; value?: unknown} | undefined;
}

export class ToolLookupError extends Error {}

function isTerminal(view: WebMcpInvocation): boolean {
  return view.status !== 'running';
}

function jsonText(value: unknown): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  try {
    return JSON.stringify(value);
  } catch {
    // The browser sends JSON, so this only guards against the impossible.
    return '"(output could not be shown)"';
  }
}

export class WebMcpService {
  readonly #feature: PageFeature<PageWebMcp>;
  readonly features: AttachableFeature[];
  readonly #records = new Map<string, InvocationRecord>();
  readonly #finishedOrder: string[] = [];
  readonly #claims: Claim[] = [];
  readonly #publishScheduled = new Set<PageWebMcp>();
  readonly #cancelGraceMs: number;
  /** Availability was checked on a real secure page of the current browser. */
  #verified = false;
  #lastBrowserState: BrowserStatus['state'] | undefined;

  constructor(readonly deps: WebMcpServiceDeps) {
    this.#cancelGraceMs = deps.cancelGraceMs ?? CANCEL_GRACE_MS;
    this.#feature = new PageFeature('webmcp', page => this.#createTracker(page), {
      eager: true,
      dispose: tracker => this.#pageGone(tracker),
    });
    this.features = [this.#feature];
    deps.session.on('status', status => this.#onBrowserStatus(status));
  }

  categoryEnabled(category: ToolCategory): boolean {
    return this.deps.categoryEnabled?.(category) ?? false;
  }

  // --- registry --------------------------------------------------------------------------------

  #createTracker(page: PageState): PageWebMcp {
    const tracker = new PageWebMcp(page, {
      toolsChanged: changed => this.#schedulePublish(changed),
      invoked: (owner, source, event) => this.#onInvoked(owner, source, event),
      responded: (_owner, source, event) => this.#onResponded(source, event),
      frameGone: (owner, source, frameId, reason, url) =>
        this.#onFrameGone(owner, source, frameId, reason, url),
      frameStoppedLoading: (_owner, source, frameId) => this.#onFrameStopped(source, frameId),
      sessionGone: (owner, source) =>
        this.#interruptWhere(
          record => record.tracker === owner && record.source === source,
          'The iframe holding the tool went away before the tool answered.',
        ),
      mainFrameLoaded: owner => void this.#verifyAvailability(owner).catch(() => undefined),
    });
    void tracker.ready.then(() => {
      if (
        tracker.enableError !== undefined &&
        /wasn't found|not found/i.test(tracker.enableError)
      ) {
        this.deps.session.setWebMcpAvailability({
          available: false,
          reason: `This browser has no WebMCP DevTools domain. Use Chrome ${MIN_CHROME_VERSION} or newer with --enable-features=WebMCP.`,
        });
      }
    });
    return tracker;
  }

  #schedulePublish(tracker: PageWebMcp): void {
    if (this.#publishScheduled.has(tracker)) {
      return;
    }
    this.#publishScheduled.add(tracker);
    // Pages register tools one event at a time; one list per burst is enough for the UI.
    setTimeout(() => {
      this.#publishScheduled.delete(tracker);
      if (!tracker.disposed) {
        this.deps.hub.publish({
          type: 'webmcpToolsChanged',
          pageId: tracker.page.id,
          tools: tracker.views(),
        });
      }
    }, 0);
  }

  #trackers(): PageWebMcp[] {
    const out: PageWebMcp[] = [];
    for (const page of this.deps.session.pages.list()) {
      const tracker = this.#feature.peek(page);
      if (tracker) {
        out.push(tracker);
      }
    }
    return out;
  }

  tracker(page: PageState): PageWebMcp {
    return this.#feature.get(page);
  }

  /** Every page's tools (InspectorState.webmcpTools). */
  tools(): WebMcpToolView[] {
    return this.#trackers().flatMap(tracker => tracker.views());
  }

  /** One page's tools, once the browser replayed the registered ones. */
  async toolsOf(page: PageState): Promise<WebMcpToolView[]> {
    const tracker = this.tracker(page);
    await tracker.ready;
    return tracker.views();
  }

  /** The registry entries of a page (for the third-party developer tools). */
  async entriesOf(page: PageState): Promise<ToolEntry[]> {
    const tracker = this.tracker(page);
    await tracker.ready;
    return tracker.entries();
  }

  /** The recorded invocations, oldest first. */
  invocations(): WebMcpInvocation[] {
    return [...this.#records.values()]
      .filter(record => !record.deferred)
      .map(record => record.view);
  }

  invocation(invocationId: string): WebMcpInvocation | undefined {
    return this.#records.get(invocationId)?.view;
  }

  // --- invocations -----------------------------------------------------------------------------

  #publish(record: InvocationRecord): void {
    if (!record.deferred) {
      this.deps.hub.publish({type: 'webmcpInvocation', invocation: record.view});
    }
  }

  #update(record: InvocationRecord, patch: Partial<WebMcpInvocation>): void {
    record.view = {...record.view, ...patch};
    this.#publish(record);
  }

  #claimed(source: TrackedSession, frameId: string, toolName: string): boolean {
    return this.#claims.some(
      claim => claim.source === source && claim.frameId === frameId && claim.toolName === toolName,
    );
  }

  #onInvoked(tracker: PageWebMcp, source: TrackedSession, event: ToolInvokedEvent): void {
    const existing = this.#records.get(event.invocationId);
    if (existing) {
      return;
    }
    const record = newRecord(
      tracker,
      source,
      {
        invocationId: event.invocationId,
        frameId: event.frameId,
        toolName: event.toolName,
        input: event.input,
        invoker: {kind: 'page'},
      },
      // If this app is invoking the same tool right now, the invokeTool reply tells whose it is.
      this.#claimed(source, event.frameId, event.toolName),
    );
    this.#records.set(event.invocationId, record);
    this.#publish(record);
  }

  #onResponded(source: TrackedSession, event: ToolRespondedEvent): void {
    const record = this.#records.get(event.invocationId);
    if (record?.source !== source || isTerminal(record.view)) {
      return;
    }
    const status = normalizeStatus(event.status);
    record.output = event.output;
    record.exception = event.exception
      ? {description: event.exception.description, value: event.exception.value}
      : undefined;
    const outputText = status === 'Completed' ? jsonText(event.output) : undefined;
    const exceptionText =
      event.exception?.description ??
      (event.exception?.value === undefined ? undefined : jsonText(event.exception.value));
    let errorText = event.errorText === '' ? undefined : event.errorText;
    if (status === undefined) {
      errorText = `The browser reported an unknown status "${event.status}".`;
    } else if (status === 'Canceled' && record.cancelReason === 'timeout') {
      errorText = `Timed out after ${record.view.timeoutMs ?? 0} ms; the tool was cancelled.`;
    } else if (status === 'Canceled' && record.cancelReason === 'client') {
      errorText = 'The MCP client cancelled the call.';
    }
    this.#finish(record, {
      status: status ?? 'Error',
      ...(outputText === undefined
        ? {}
        : outputText.length > OUTPUT_VIEW_LIMIT
          ? {output: outputText.slice(0, OUTPUT_VIEW_LIMIT), outputTruncated: true}
          : {output: outputText}),
      ...(errorText === undefined ? {} : {errorText}),
      ...(exceptionText === undefined ? {} : {exception: exceptionText}),
    });
  }

  #finish(record: InvocationRecord, patch: Partial<WebMcpInvocation>): void {
    if (isTerminal(record.view)) {
      return;
    }
    for (const timer of record.timers) {
      clearTimeout(timer);
    }
    record.timers.clear();
    this.#update(record, {...patch, endedAt: Date.now()});
    for (const waiter of [...record.waiters]) {
      waiter();
    }
    record.waiters.clear();
    this.#finishedOrder.push(record.view.invocationId);
    while (this.#finishedOrder.length > FINISHED_KEPT) {
      const oldest = this.#finishedOrder.shift();
      if (oldest !== undefined) {
        this.#records.delete(oldest);
      }
    }
  }

  #timer(record: InvocationRecord, ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      record.timers.delete(timer);
      action();
    }, ms);
    timer.unref();
    record.timers.add(timer);
  }

  #interruptWhere(match: (record: InvocationRecord) => boolean, errorText: string): void {
    for (const record of [...this.#records.values()]) {
      if (!isTerminal(record.view) && match(record)) {
        record.deferred = false;
        this.#finish(record, {status: 'Interrupted', errorText});
      }
    }
  }

  #onFrameGone(
    tracker: PageWebMcp,
    source: TrackedSession,
    frameId: string,
    reason: FrameGoneReason,
    url: string | undefined,
  ): void {
    for (const record of this.#records.values()) {
      if (
        isTerminal(record.view) ||
        record.tracker !== tracker ||
        record.source !== source ||
        record.view.frameId !== frameId
      ) {
        continue;
      }
      if (reason === 'removed') {
        record.deferred = false;
        this.#finish(record, {
          status: 'Interrupted',
          errorText: 'The frame holding the tool was removed before the tool answered.',
        });
      } else if (record.navigatedTo === undefined) {
        record.navigatedTo = url ?? '';
        this.#timer(record, NAVIGATION_CAP_MS, () => this.#interruptNavigated(record));
      }
    }
  }

  #onFrameStopped(source: TrackedSession, frameId: string): void {
    for (const record of this.#records.values()) {
      if (
        !isTerminal(record.view) &&
        record.navigatedTo !== undefined &&
        record.source === source &&
        record.view.frameId === frameId
      ) {
        this.#timer(record, NAVIGATION_GRACE_MS, () => this.#interruptNavigated(record));
      }
    }
  }

  #interruptNavigated(record: InvocationRecord): void {
    record.deferred = false;
    this.#finish(record, {
      status: 'Interrupted',
      errorText: `The page navigated${record.navigatedTo ? ` to ${record.navigatedTo}` : ''} before the tool answered.`,
    });
  }

  #pageGone(tracker: PageWebMcp): void {
    tracker.dispose();
    const browserGone = this.deps.session.browser?.connected !== true;
    this.#interruptWhere(
      record => record.tracker === tracker,
      browserGone
        ? 'The browser disconnected before the tool answered.'
        : 'The page was closed before the tool answered.',
    );
    this.deps.hub.publish({type: 'webmcpToolsChanged', pageId: tracker.page.id, tools: []});
  }

  /** Finds the one tool a call means, with errors that say how to choose. */
  resolveTool(tracker: PageWebMcp, toolName: string, frameId?: string): ToolEntry {
    const matches = tracker.find(toolName, frameId);
    const first = matches[0];
    if (first && matches.length === 1) {
      return first;
    }
    if (matches.length > 1) {
      const frames = matches
        .map(entry => `frameId="${entry.raw.frameId}" (${tracker.view(entry).frameUrl})`)
        .join(', ');
      throw new ToolLookupError(
        `Tool ${toolName} is registered by ${matches.length} frames: ${frames}. Pass frameId to choose one.`,
      );
    }
    const available = [...new Set(tracker.entries().map(entry => entry.raw.name))];
    const where = frameId === undefined ? '' : ` in frame ${frameId}`;
    throw new ToolLookupError(
      `Tool ${toolName} not found${where}. ${
        available.length === 0
          ? `Page ${tracker.page.id} has no WebMCP tools registered.`
          : `Available tools: ${available.slice(0, 50).join(', ')}${available.length > 50 ? ', …' : ''}.`
      } Call list_webmcp_tools to see them.`,
    );
  }

  /** Starts an invocation and returns as soon as the browser gave it an id. */
  async start(request: ExecuteRequest): Promise<InvocationRecord> {
    const tracker = this.tracker(request.page);
    await tracker.ready;
    const entry = this.resolveTool(tracker, request.toolName, request.frameId);
    const claim: Claim = {
      source: entry.source,
      frameId: entry.raw.frameId,
      toolName: entry.raw.name,
    };
    this.#claims.push(claim);
    let invocationId: string;
    try {
      ({invocationId} = await sendUntyped(
        entry.source.session,
        'WebMCP.invokeTool',
        {frameId: claim.frameId, toolName: claim.toolName, input: request.input},
        invokeToolResultSchema,
      ));
    } catch (error) {
      this.#releaseClaim(claim);
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `The browser could not start ${request.toolName}: ${message.replace(/^Protocol error \([^)]*\): /, '')}. Call list_webmcp_tools to check that it is still registered.`,
        {cause: error},
      );
    }
    let record = this.#records.get(invocationId);
    if (!record) {
      // The reply beat the toolInvoked event.
      record = newRecord(
        tracker,
        entry.source,
        {
          invocationId,
          frameId: claim.frameId,
          toolName: claim.toolName,
          input: JSON.stringify(request.input),
          invoker: request.invoker,
        },
        true,
      );
      this.#records.set(invocationId, record);
    }
    record.deferred = false;
    this.#update(record, {invoker: request.invoker, timeoutMs: request.timeoutMs});
    this.#releaseClaim(claim);
    this.#watch(record, request.timeoutMs, request.signal);
    return record;
  }

  #releaseClaim(claim: Claim): void {
    const index = this.#claims.indexOf(claim);
    if (index >= 0) {
      this.#claims.splice(index, 1);
    }
    if (this.#claimed(claim.source, claim.frameId, claim.toolName)) {
      return;
    }
    // Invocations of the same tool nobody here claimed were started by the page (or another client).
    for (const record of this.#records.values()) {
      if (
        record.deferred &&
        record.source === claim.source &&
        record.view.frameId === claim.frameId &&
        record.view.toolName === claim.toolName
      ) {
        record.deferred = false;
        this.#publish(record);
      }
    }
  }

  #watch(record: InvocationRecord, timeoutMs: number, signal: AbortSignal | undefined): void {
    if (isTerminal(record.view)) {
      return;
    }
    this.#timer(record, timeoutMs, () => {
      void this.cancel(record.view.invocationId, 'timeout').catch(() => undefined);
    });
    if (signal) {
      const onAbort = (): void => {
        void this.cancel(record.view.invocationId, 'client').catch(() => undefined);
      };
      if (signal.aborted) {
        onAbort();
      } else {
        signal.addEventListener('abort', onAbort, {once: true});
        record.waiters.add(() => signal.removeEventListener('abort', onAbort));
      }
    }
  }

  /** Resolves when the invocation has ended (always bounded: see the class comment). */
  settled(record: InvocationRecord): Promise<InvocationOutcome> {
    const outcome = (): InvocationOutcome => ({
      view: record.view,
      output: record.output,
      exception: record.exception,
    });
    if (isTerminal(record.view)) {
      return Promise.resolve(outcome());
    }
    return new Promise(resolve => {
      record.waiters.add(() => resolve(outcome()));
    });
  }

  async execute(request: ExecuteRequest): Promise<InvocationOutcome> {
    const record = await this.start(request);
    return this.settled(record);
  }

  /** Asks the page to cancel; an unanswered cancel ends as TimedOut after the grace period. */
  cancel(invocationId: string, reason: CancelReason = 'user'): Promise<WebMcpInvocation> {
    const record = this.#records.get(invocationId);
    if (!record) {
      return Promise.reject(
        new Error(
          `No WebMCP invocation ${invocationId}. It may be older than the last ${FINISHED_KEPT} invocations.`,
        ),
      );
    }
    if (isTerminal(record.view) || record.view.cancelRequested === true) {
      return Promise.resolve(record.view);
    }
    record.cancelReason = reason;
    this.#update(record, {cancelRequested: true});
    this.#timer(record, this.#cancelGraceMs, () => {
      const why =
        reason === 'timeout'
          ? `Timed out after ${record.view.timeoutMs ?? 0} ms, and the page`
          : 'The page';
      this.#finish(record, {
        status: 'TimedOut',
        errorText: `${why} did not answer the cancel within ${this.#cancelGraceMs} ms.`,
      });
    });
    // Not awaited: a page whose main thread is busy answers the cancel only when it is free.
    // "No pending execution" means it ended a moment ago and its answer is on the way; the
    // grace timer settles every other case.
    void sendUntyped(
      record.source.session,
      'WebMCP.cancelInvocation',
      {invocationId},
      emptyResultSchema,
    ).catch(() => undefined);
    return Promise.resolve(record.view);
  }

  // --- availability and doctor -----------------------------------------------------------------

  #onBrowserStatus(status: BrowserStatus): void {
    const previous = this.#lastBrowserState;
    this.#lastBrowserState = status.state;
    if (status.state !== 'running' || previous === 'running') {
      if (status.state !== 'running') {
        this.#verified = false;
      }
      return;
    }
    const major = majorVersion(status.version);
    if (this.#verified) {
      // A page already answered the real question while the browser was starting.
    } else if (major !== undefined && major < MIN_CHROME_VERSION) {
      this.deps.session.setWebMcpAvailability({
        available: false,
        reason: `${status.version ?? 'This browser'} is too old for WebMCP; use Chrome ${MIN_CHROME_VERSION} or newer.`,
      });
    } else if (this.deps.session.mode === 'launch') {
      this.deps.session.setWebMcpAvailability({available: true});
    }
    for (const tracker of this.#trackers()) {
      void this.#verifyAvailability(tracker).catch(() => undefined);
    }
  }

  /** Once per browser, on the first secure page: does `document.modelContext` exist? */
  async #verifyAvailability(tracker: PageWebMcp): Promise<void> {
    if (this.#verified) {
      return;
    }
    const frame = tracker.pageSession?.frames.get(tracker.page.mainFrameId);
    if (frame?.secureContextType !== 'Secure' && frame?.secureContextType !== 'SecureLocalhost') {
      return;
    }
    const present = await this.#hasModelContext(tracker.page);
    if (present === undefined) {
      return;
    }
    this.#verified = true;
    this.deps.session.setWebMcpAvailability(
      present
        ? {available: true}
        : {
            available: false,
            reason:
              this.deps.session.mode === 'connect'
                ? 'The attached browser was started without --enable-features=WebMCP. Restart it with that flag.'
                : 'WebMCP is switched off in this browser (a --chromeArg disables it).',
          },
    );
  }

  async #hasModelContext(page: PageState): Promise<boolean | undefined> {
    try {
      const {result} = await evaluateInPage(
        page,
        {expression: "'modelContext' in document", returnByValue: true},
        {timeoutMs: PROBE_TIMEOUT_MS},
      );
      return typeof result.value === 'boolean' ? result.value : undefined;
    } catch {
      return undefined;
    }
  }

  async doctor(page: PageState | undefined): Promise<WebMcpDoctorReport> {
    const session = this.deps.session;
    const facts: DoctorFacts = {
      browserRunning: session.browser?.connected === true,
      mode: session.mode,
      endpoint: session.endpoint,
      browserVersion: session.status.version,
      enableError: undefined,
      page: undefined,
      frames: [],
      toolCount: 0,
    };
    if (!facts.browserRunning || !page) {
      return diagnose(facts);
    }
    const tracker = this.tracker(page);
    await tracker.ready;
    facts.enableError = tracker.enableError;
    facts.toolCount = tracker.entries().length;
    const {frameTree} = await page.session.send('Page.getFrameTree');
    facts.page = {
      id: page.id,
      url: frameTree.frame.url + (frameTree.frame.urlFragment ?? ''),
      secureContextType: frameTree.frame.secureContextType,
      modelContext: await this.#hasModelContext(page),
    };
    const frames: FrameFacts[] = [];
    for (const {frame, source} of tracker.allFrames()) {
      if (frame.id === page.mainFrameId) {
        continue;
      }
      let toolsAllowed: boolean | undefined;
      let blockReason: string | undefined;
      try {
        const {states} = await sendUntyped(
          source.session,
          'Page.getPermissionsPolicyState',
          {frameId: frame.id},
          permissionsPolicyStateSchema,
        );
        const state = states.find(candidate => candidate.feature === 'tools');
        toolsAllowed = state?.allowed;
        blockReason = state?.locator?.blockReason;
      } catch {
        // Frames that are gone or not yet committed cannot be asked.
      }
      // An out-of-process iframe also shows up (as a placeholder) in its parent's session.
      const existing = frames.find(candidate => candidate.frameId === frame.id);
      if (existing) {
        if (source.kind === 'oopif') {
          existing.toolsAllowed = toolsAllowed;
          existing.blockReason = blockReason;
          existing.secureContextType = frame.secureContextType;
        }
        continue;
      }
      frames.push({
        frameId: frame.id,
        url: frame.url,
        secureContextType: frame.secureContextType,
        toolsAllowed,
        blockReason,
      });
    }
    facts.frames = frames;
    return diagnose(facts);
  }

  /** Shows the declarative tool's form: scrolled into view and outlined by the overlay for a moment. */
  async highlightForm(
    page: PageState,
    frameId: string,
    toolName: string,
  ): Promise<{x: number; y: number; width: number; height: number}> {
    const tracker = this.tracker(page);
    await tracker.ready;
    const entry = this.resolveTool(tracker, toolName, frameId);
    const backendNodeId = entry.raw.backendNodeId;
    if (backendNodeId === undefined) {
      throw new Error(
        `Tool ${toolName} was registered by script, not by a <form>, so there is no form to highlight.`,
      );
    }
    // A session of its own: enabling DOM and Overlay there leaves the page session untouched, and
    // detaching it later removes the highlight.
    const session =
      entry.source.kind === 'page' ? await page.page.createCDPSession() : entry.source.session;
    const ownSession = entry.source.kind === 'page';
    try {
      await session.send('DOM.enable');
      await session.send('Overlay.enable');
      await session.send('DOM.scrollIntoViewIfNeeded', {backendNodeId}).catch(() => undefined);
      await session.send('Overlay.highlightNode', {
        backendNodeId,
        highlightConfig: {
          showInfo: true,
          contentColor: {r: 111, g: 168, b: 220, a: 0.35},
          borderColor: {r: 255, g: 0, b: 170, a: 0.9},
          paddingColor: {r: 147, g: 196, b: 125, a: 0.3},
          marginColor: {r: 246, g: 178, b: 107, a: 0.3},
        },
      });
      const {model} = await sendUntyped(
        session,
        'DOM.getBoxModel',
        {backendNodeId},
        boxModelSchema,
      );
      const [x = 0, y = 0] = model.border;
      const timer = setTimeout(() => {
        if (ownSession) {
          void session.detach().catch(() => undefined);
        } else {
          void session.send('Overlay.hideHighlight').catch(() => undefined);
        }
      }, HIGHLIGHT_MS);
      timer.unref();
      return {x, y, width: model.width, height: model.height};
    } catch (error) {
      if (ownSession) {
        void session.detach().catch(() => undefined);
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Could not highlight the form of ${toolName}: ${message}. The form may have been removed; list the tools again.`,
        {cause: error},
      );
    }
  }
}
