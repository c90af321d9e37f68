/**
 * The pages' own WebMCP tools: a registry fed by the CDP WebMCP domain (PageWebMcp per page),
 * invocations from anyone recorded in the InvocationLog, execute and cancel that always settle,
 * the availability check and the doctor, and the inspector's WebMCP commands.
 */
import type {WebMcpDoctorReport, WebMcpInvocation, WebMcpToolInfo} from '../../shared/protocol.js';
import type {ToolCategory} from '../../shared/categories.js';
import {errorText} from '../../shared/values.js';
import type {ManagedBrowser} from '../browser/launch/ManagedBrowser.js';
import {sendUntyped} from '../browser/cdp.js';
import {PageFeature, type AttachableFeature, type PageState} from '../browser/pages/PageState.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import {WebMcpAvailability} from './availability.js';
import {invokeToolResultSchema} from './cdpSchemas.js';
import {diagnose} from './doctor.js';
import {browserFacts, pageFacts} from './doctorFacts.js';
import {highlightForm} from './highlightForm.js';
import {declarativeForms} from './formFacts.js';
import {lintForms, lintTools} from '../../shared/webmcpLint.js';
import {
  CANCEL_GRACE_MS,
  InvocationLog,
  type CancelReason,
  type Claim,
  type InvocationOutcome,
  type InvocationRecord,
} from './InvocationLog.js';
import {PageWebMcp, type KeyedTool, type ToolEntry} from './PageWebMcp.js';

export type Invoker = WebMcpInvocation['invoker'];

export interface WebMcpServiceDeps {
  browser: ManagedBrowser;
  hub: InspectorHub;
  /** Whether a tool category is on now (the sections of page-offered tools follow the live switches). */
  categoryEnabled?: (category: ToolCategory) => boolean;
  /** How long a cancel may go unanswered before the invocation counts as timed out. */
  cancelGraceMs?: number;
}

/** Default bound of an invocation run from the inspector (a person may need to submit a form). */
export const INSPECTOR_TIMEOUT_MS = 120_000;

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

class ToolLookupError extends Error {}

/** The same registration seen the same way (its frame's URL and origin can be learned later). */
function sameTool(before: KeyedTool, now: KeyedTool): boolean {
  return (
    before.raw === now.raw &&
    before.info.frameUrl === now.info.frameUrl &&
    before.info.origin === now.info.origin &&
    before.info.mainFrame === now.info.mainFrame
  );
}

export class WebMcpService {
  readonly #feature: PageFeature<PageWebMcp>;
  readonly features: AttachableFeature[];
  readonly #log: InvocationLog;
  readonly #availability: WebMcpAvailability;
  readonly #publishScheduled = new Set<PageWebMcp>();
  /** Each page's tools as last published (what the next change is computed against). */
  readonly #published = new WeakMap<PageWebMcp, Map<string, KeyedTool>>();
  /** Told (after the burst) when a page's tool set changed: the webmcp_ tools follow it. */
  readonly #toolsListeners = new Set<(page: PageState) => void>();

  constructor(readonly deps: WebMcpServiceDeps) {
    this.#log = new InvocationLog(
      invocation => deps.hub.publish({type: 'webmcpInvocation', invocation}),
      deps.cancelGraceMs ?? CANCEL_GRACE_MS,
    );
    this.#availability = new WebMcpAvailability(deps.browser);
    this.#feature = new PageFeature('webmcp', page => this.#createTracker(page), {
      eager: true,
      dispose: tracker => this.#pageGone(tracker),
    });
    this.features = [this.#feature];
    deps.browser.on('status', status =>
      this.#availability.onBrowserStatus(status, this.#trackers()),
    );
  }

  /** Subscribes to tool-set changes of any page; returns the unsubscribe function. */
  onToolsChanged(listener: (page: PageState) => void): () => void {
    this.#toolsListeners.add(listener);
    return () => this.#toolsListeners.delete(listener);
  }

  #toolsChanged(page: PageState): void {
    for (const listener of this.#toolsListeners) {
      listener(page);
    }
  }

  /** The page's tracker if it has one already (never creates it). */
  peekTracker(page: PageState): PageWebMcp | undefined {
    return this.#feature.peek(page);
  }

  categoryEnabled(category: ToolCategory): boolean {
    return this.deps.categoryEnabled?.(category) ?? false;
  }

  // --- registry --------------------------------------------------------------------------------

  #createTracker(page: PageState): PageWebMcp {
    const log = this.#log;
    const tracker = new PageWebMcp(page, {
      toolsChanged: changed => this.#schedulePublish(changed),
      invoked: (owner, source, event) => log.onInvoked(owner, source, event),
      responded: (_owner, source, event) => log.onResponded(source, event),
      frameGone: (owner, source, frameId, reason, url) =>
        log.onFrameGone(owner, source, frameId, reason, url),
      frameStoppedLoading: (_owner, source, frameId) => log.onFrameStopped(source, frameId),
      cdpGone: (owner, source) =>
        log.interruptWhere(
          record => record.tracker === owner && record.source === source,
          'The iframe holding the tool went away before the tool answered.',
        ),
      mainFrameLoaded: owner => void this.#availability.verify(owner).catch(() => undefined),
    });
    void tracker.ready.then(() => this.#availability.enableFailed(tracker.enableError));
    return tracker;
  }

  #schedulePublish(tracker: PageWebMcp): void {
    if (this.#publishScheduled.has(tracker)) {
      return;
    }
    this.#publishScheduled.add(tracker);
    // Pages register tools one event at a time; one change per burst is enough for the UI.
    setTimeout(() => {
      this.#publishScheduled.delete(tracker);
      if (!tracker.disposed) {
        this.#publishTools(tracker);
        this.#toolsChanged(tracker.page);
      }
    }, 0);
  }

  /**
   * What changed since the page's last publication: the whole list the first time and whenever
   * that is no bigger, else only the tools added or changed and those removed, so a page that
   * registers many tools one by one costs each tool once, not the whole list each time.
   */
  #publishTools(tracker: PageWebMcp): void {
    const current = tracker.keyedTools();
    const previous = this.#published.get(tracker);
    this.#published.set(tracker, current);
    const pageId = tracker.page.id;
    const changed = [...current].flatMap(([key, now]) => {
      const before = previous?.get(key);
      return before === undefined || !sameTool(before, now) ? [now.info] : [];
    });
    const removed = [...(previous ?? [])].flatMap(([key, {info}]) =>
      current.has(key) ? [] : [{frameId: info.frameId, name: info.name}],
    );
    if (previous === undefined || changed.length + removed.length >= current.size) {
      const tools = [...current.values()].map(({info}) => info);
      this.deps.hub.publish({type: 'webmcpToolsChanged', pageId, tools});
    } else if (changed.length + removed.length > 0) {
      this.deps.hub.publish({
        type: 'webmcpToolsChanged',
        pageId,
        tools: changed,
        delta: true,
        removed,
      });
    }
  }

  #trackers(): PageWebMcp[] {
    const out: PageWebMcp[] = [];
    for (const page of this.deps.browser.pages.list()) {
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
  tools(): WebMcpToolInfo[] {
    return this.#trackers().flatMap(tracker => tracker.toolInfos());
  }

  /** One page's tools, once the browser replayed the registered ones. */
  async toolsOf(page: PageState): Promise<WebMcpToolInfo[]> {
    const tracker = this.tracker(page);
    await tracker.ready;
    return tracker.toolInfos();
  }

  /** The registry entries of a page (for the third-party developer tools). */
  async entriesOf(page: PageState): Promise<ToolEntry[]> {
    const tracker = this.tracker(page);
    await tracker.ready;
    return tracker.entries();
  }

  #pageGone(tracker: PageWebMcp): void {
    tracker.dispose();
    const browserGone = this.deps.browser.chromium?.connected !== true;
    this.#log.interruptWhere(
      record => record.tracker === tracker,
      browserGone
        ? 'The browser disconnected before the tool answered.'
        : 'The page was closed before the tool answered.',
    );
    this.#published.delete(tracker);
    this.deps.hub.publish({type: 'webmcpToolsChanged', pageId: tracker.page.id, tools: []});
    this.#toolsChanged(tracker.page);
  }

  // --- invocations -----------------------------------------------------------------------------

  /** The recorded invocations, oldest first. */
  invocations(): WebMcpInvocation[] {
    return this.#log.list();
  }

  invocation(invocationId: string): WebMcpInvocation | undefined {
    return this.#log.get(invocationId)?.invocation;
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
        .map(entry => `frameId="${entry.raw.frameId}" (${tracker.info(entry).frameUrl})`)
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
    this.#log.claim(claim);
    let invocationId: string;
    try {
      ({invocationId} = await sendUntyped(
        entry.source.cdp,
        'WebMCP.invokeTool',
        {frameId: claim.frameId, toolName: claim.toolName, input: request.input},
        invokeToolResultSchema,
      ));
    } catch (error) {
      this.#log.releaseClaim(claim);
      throw new Error(
        `The browser could not start ${request.toolName}: ${errorText(error).replace(/^Protocol error \([^)]*\): /, '')}. Call list_webmcp_tools to check that it is still registered.`,
        {cause: error},
      );
    }
    return this.#log.started(
      tracker,
      claim,
      {
        invocationId,
        frameId: claim.frameId,
        toolName: claim.toolName,
        input: JSON.stringify(request.input),
        invoker: request.invoker,
      },
      request.timeoutMs,
      request.signal,
    );
  }

  /** Resolves when the invocation has ended (always bounded: see InvocationLog). */
  settled(record: InvocationRecord): Promise<InvocationOutcome> {
    return this.#log.settled(record);
  }

  async execute(request: ExecuteRequest): Promise<InvocationOutcome> {
    const record = await this.start(request);
    return this.settled(record);
  }

  /** Asks the page to cancel; an unanswered cancel ends as TimedOut after the grace period. */
  cancel(invocationId: string, reason: CancelReason = 'user'): Promise<WebMcpInvocation> {
    return this.#log.cancel(invocationId, reason);
  }

  // --- doctor and forms ------------------------------------------------------------------------

  async doctor(page: PageState | undefined): Promise<WebMcpDoctorReport> {
    const browser = this.deps.browser;
    const running = browser.chromium?.connected === true;
    if (!running || !page) {
      return diagnose(browserFacts(browser));
    }
    const tracker = this.tracker(page);
    const report = diagnose(await pageFacts(browser, page, tracker));
    // The authoring lint: registered tools of every frame, and the main frame's forms.
    const infos = tracker.toolInfos();
    const lint = [...lintTools(infos), ...lintForms(await declarativeForms(page), infos)];
    return {...report, lint};
  }

  /** Shows the declarative tool's form: scrolled into view and outlined by the overlay for a moment. */
  async highlightForm(
    page: PageState,
    frameId: string,
    toolName: string,
  ): Promise<{x: number; y: number; width: number; height: number}> {
    const tracker = this.tracker(page);
    await tracker.ready;
    return highlightForm(page, this.resolveTool(tracker, toolName, frameId), toolName);
  }
}
