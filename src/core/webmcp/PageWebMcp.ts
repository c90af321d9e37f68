/**
 * One page's WebMCP tools, live from the CDP WebMCP domain: on the page's own cdp (which sees
 * the main frame and same-process iframes) and on one cdp per out-of-process iframe (attached
 * by the frame targets feature, because their tools are only reported on their own target). The
 * browser does not send toolsRemoved for a cross-document navigation, so a frame's tools are
 * dropped on Page.frameNavigated (as puppeteer does) and kept on same-document navigations.
 */
import {CDPSessionEvent, type CDPSession, type Protocol} from 'puppeteer-core';
import type {WebMcpToolInfo} from '../../shared/protocol.js';
import {onEvent, onUntyped, sendUntyped} from '../browser/cdp.js';
import type {PageState} from '../browser/pages/PageState.js';
import {
  cdpToolSchema,
  emptyResultSchema,
  toolInvokedSchema,
  toolRespondedSchema,
  toolsAddedSchema,
  toolsRemovedSchema,
  WEBMCP_EVENTS,
  type CdpTool,
  type ToolInvokedEvent,
  type ToolRespondedEvent,
} from './cdpSchemas.js';
import {boundValue, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import {errorText, isRecord} from '../../shared/values.js';

export interface FrameInfo {
  id: string;
  parentId: string | undefined;
  url: string;
  origin: string;
  secureContextType: string | undefined;
}

/** A cdp that reports WebMCP tools: the page's own, or an out-of-process iframe's. */
export class TrackedCdp {
  readonly frames = new Map<string, FrameInfo>();
  readonly #cleanups: (() => void)[] = [];
  closed = false;

  constructor(
    readonly cdp: CDPSession,
    readonly kind: 'page' | 'oopif',
  ) {}

  addCleanup(cleanup: () => void): void {
    this.#cleanups.push(cleanup);
  }

  dispose(): void {
    this.closed = true;
    for (const cleanup of this.#cleanups.splice(0)) {
      cleanup();
    }
  }
}

export interface ToolEntry {
  raw: CdpTool;
  source: TrackedCdp;
  /** Registration order, so lists keep the page's order. */
  order: number;
}

export type FrameGoneReason = 'navigated' | 'removed';

/** What the tracker tells its owner (the WebMcpService). */
export interface PageWebMcpHooks {
  toolsChanged(tracker: PageWebMcp): void;
  invoked(tracker: PageWebMcp, source: TrackedCdp, event: ToolInvokedEvent): void;
  responded(tracker: PageWebMcp, source: TrackedCdp, event: ToolRespondedEvent): void;
  frameGone(
    tracker: PageWebMcp,
    source: TrackedCdp,
    frameId: string,
    reason: FrameGoneReason,
    url?: string,
  ): void;
  frameStoppedLoading(tracker: PageWebMcp, source: TrackedCdp, frameId: string): void;
  cdpGone(tracker: PageWebMcp, source: TrackedCdp): void;
  mainFrameLoaded(tracker: PageWebMcp): void;
}

function toolKey(frameId: string, name: string): string {
  return `${frameId}\u0000${name}`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function frameInfoOf(frame: Protocol.Page.Frame): FrameInfo {
  return {
    id: frame.id,
    parentId: frame.parentId,
    url: frame.url + (frame.urlFragment ?? ''),
    origin: frame.securityOrigin || originOf(frame.url),
    secureContextType: frame.secureContextType,
  };
}

/** Every frame below `frameId` in this cdp's frame tree (children before grandchildren). */
function descendantsOf(tracked: TrackedCdp, frameId: string): string[] {
  const out: string[] = [];
  const queue = [frameId];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const frame of tracked.frames.values()) {
      if (frame.parentId === parent && !out.includes(frame.id)) {
        out.push(frame.id);
        queue.push(frame.id);
      }
    }
  }
  return out;
}

/** A tool's info and the registry entry it comes from. */
export interface KeyedTool {
  raw: CdpTool;
  info: WebMcpToolInfo;
}

/** Characters of one tool's schema or annotations kept from the page (a real schema is far smaller). */
const PAGE_VALUE_CHARS = 256 * 1024;

/**
 * The page's tool with its schema and annotations bounded: they reach every client's tool list,
 * the lint, the forms of the UI and the recording, so what is deeper or larger is cut (marked).
 */
function boundedTool(tool: CdpTool): CdpTool {
  const bound = (value: Record<string, unknown>): Record<string, unknown> => {
    const bounded = boundValue(value, {maxDepth: VALUE_DEPTH_LIMIT, maxChars: PAGE_VALUE_CHARS});
    return isRecord(bounded.value) ? bounded.value : {};
  };
  return {
    ...tool,
    ...(tool.inputSchema === undefined ? {} : {inputSchema: bound(tool.inputSchema)}),
    ...(tool.annotations === undefined ? {} : {annotations: bound(tool.annotations)}),
  };
}

export class PageWebMcp {
  readonly cdps = new Set<TrackedCdp>();
  readonly #tools = new Map<string, ToolEntry>();
  #order = 0;
  /** Why WebMCP.enable failed on the page's own cdp (domain missing in old browsers). */
  enableError: string | undefined;
  /** Resolves once the page's own cdp reported its current tools (enable replays them). */
  readonly ready: Promise<void>;
  disposed = false;

  constructor(
    readonly page: PageState,
    private readonly hooks: PageWebMcpHooks,
  ) {
    const main = new TrackedCdp(page.cdp, 'page');
    this.ready = this.#track(main).catch((error: unknown) => {
      this.enableError = errorText(error);
    });
  }

  get pageCdp(): TrackedCdp | undefined {
    return [...this.cdps].find(tracked => tracked.kind === 'page');
  }

  /** Follows one cdp's tools, invocations and frames, then enables WebMCP on it. */
  async #track(tracked: TrackedCdp): Promise<void> {
    this.cdps.add(tracked);
    this.#listenToWebMcp(tracked);
    this.#listenToFrames(tracked);
    await this.#enable(tracked);
    if (this.disposed) {
      this.#cdpGone(tracked);
    }
  }

  #listenToWebMcp(tracked: TrackedCdp): void {
    const {cdp} = tracked;
    tracked.addCleanup(
      onUntyped(cdp, WEBMCP_EVENTS.toolsAdded, toolsAddedSchema, event => {
        this.#added(tracked, event.tools);
      }),
    );
    tracked.addCleanup(
      onUntyped(cdp, WEBMCP_EVENTS.toolsRemoved, toolsRemovedSchema, event => {
        let changed = false;
        for (const tool of event.tools) {
          const key = toolKey(tool.frameId, tool.name);
          if (this.#tools.get(key)?.source === tracked) {
            this.#tools.delete(key);
            changed = true;
          }
        }
        if (changed) {
          this.hooks.toolsChanged(this);
        }
      }),
    );
    tracked.addCleanup(
      onUntyped(cdp, WEBMCP_EVENTS.toolInvoked, toolInvokedSchema, event => {
        this.hooks.invoked(this, tracked, event);
      }),
    );
    tracked.addCleanup(
      onUntyped(cdp, WEBMCP_EVENTS.toolResponded, toolRespondedSchema, event => {
        this.hooks.responded(this, tracked, event);
      }),
    );
  }

  /** Frame navigations and removals drop that frame's tools; child cdps are tracked too. */
  #listenToFrames(tracked: TrackedCdp): void {
    const {cdp} = tracked;
    const isPage = tracked.kind === 'page';
    const onNavigated = (event: Protocol.Page.FrameNavigatedEvent): void => {
      const frame = frameInfoOf(event.frame);
      // The old document's iframes went with it; the browser sends no frameDetached for them.
      for (const child of descendantsOf(tracked, frame.id)) {
        tracked.frames.delete(child);
        this.#dropFrameTools(tracked, child);
        this.hooks.frameGone(this, tracked, child, 'removed');
      }
      tracked.frames.set(frame.id, frame);
      this.#dropFrameTools(tracked, frame.id);
      this.hooks.frameGone(this, tracked, frame.id, 'navigated', frame.url);
    };
    const onWithinDocument = (event: Protocol.Page.NavigatedWithinDocumentEvent): void => {
      const frame = tracked.frames.get(event.frameId);
      if (frame) {
        tracked.frames.set(event.frameId, {...frame, url: event.url});
        this.hooks.toolsChanged(this);
      }
    };
    const onDetached = (event: Protocol.Page.FrameDetachedEvent): void => {
      tracked.frames.delete(event.frameId);
      this.#dropFrameTools(tracked, event.frameId);
      this.hooks.frameGone(this, tracked, event.frameId, 'removed');
    };
    const onStopped = (event: Protocol.Page.FrameStoppedLoadingEvent): void => {
      this.hooks.frameStoppedLoading(this, tracked, event.frameId);
      if (isPage && event.frameId === this.page.mainFrameId) {
        this.hooks.mainFrameLoaded(this);
      }
    };
    const onAttached = (child: CDPSession): void => {
      void this.#track(new TrackedCdp(child, 'oopif')).catch(() => undefined);
    };
    const unsubscribe = [
      onEvent(cdp, 'Page.frameNavigated', onNavigated),
      onEvent(cdp, 'Page.navigatedWithinDocument', onWithinDocument),
      onEvent(cdp, 'Page.frameDetached', onDetached),
      onEvent(cdp, 'Page.frameStoppedLoading', onStopped),
    ];
    const onChildDetached = (child: CDPSession): void => {
      const gone = [...this.cdps].find(candidate => candidate.cdp === child);
      if (gone) {
        this.#cdpGone(gone);
      }
    };
    cdp.on(CDPSessionEvent.SessionAttached, onAttached);
    cdp.on(CDPSessionEvent.SessionDetached, onChildDetached);
    tracked.addCleanup(() => {
      for (const off of unsubscribe) {
        off();
      }
      cdp.off(CDPSessionEvent.SessionAttached, onAttached);
      cdp.off(CDPSessionEvent.SessionDetached, onChildDetached);
    });
  }

  /** Records the frame tree, auto-attaches to out-of-process iframes, and enables WebMCP. */
  async #enable(tracked: TrackedCdp): Promise<void> {
    const {cdp} = tracked;
    const steps: Promise<unknown>[] = [
      cdp.send('Page.getFrameTree').then(({frameTree}) => {
        const record = (tree: Protocol.Page.FrameTree): void => {
          if (!tracked.frames.has(tree.frame.id)) {
            tracked.frames.set(tree.frame.id, frameInfoOf(tree.frame));
          }
          for (const child of tree.childFrames ?? []) {
            record(child);
          }
        };
        record(frameTree);
      }),
    ];
    // Out-of-process iframes report their tools only on their own target. Their cdps come from
    // the auto-attach that browser/frames.ts sets on every cdp of the page (a second
    // Target.setAutoAttach here, sent while the frame runs, can make a frame being attached hang).
    if (tracked.kind !== 'page') {
      steps.push(cdp.send('Page.enable'));
    }
    // enable replays every registered tool as toolsAdded.
    const enable = sendUntyped(cdp, 'WebMCP.enable', {}, emptyResultSchema);
    await Promise.all([...steps.map(step => step.catch(() => undefined)), enable]);
  }

  #added(source: TrackedCdp, tools: readonly unknown[]): void {
    let changed = false;
    for (const candidate of tools) {
      const parsed = cdpToolSchema.safeParse(candidate);
      if (!parsed.success) {
        continue;
      }
      const tool = boundedTool(parsed.data);
      this.#tools.set(toolKey(tool.frameId, tool.name), {raw: tool, source, order: this.#order++});
      changed = true;
    }
    if (changed) {
      this.hooks.toolsChanged(this);
    }
  }

  #dropFrameTools(source: TrackedCdp, frameId: string): void {
    let changed = false;
    for (const [key, entry] of this.#tools) {
      if (entry.source === source && entry.raw.frameId === frameId) {
        this.#tools.delete(key);
        changed = true;
      }
    }
    if (changed) {
      this.hooks.toolsChanged(this);
    }
  }

  #cdpGone(tracked: TrackedCdp): void {
    if (!this.cdps.delete(tracked)) {
      return;
    }
    tracked.dispose();
    let changed = false;
    for (const [key, entry] of this.#tools) {
      if (entry.source === tracked) {
        this.#tools.delete(key);
        changed = true;
      }
    }
    this.hooks.cdpGone(this, tracked);
    if (changed) {
      this.hooks.toolsChanged(this);
    }
  }

  entries(): ToolEntry[] {
    return [...this.#tools.values()];
  }

  /** Tools named `name`, optionally only in `frameId`. */
  find(name: string, frameId?: string): ToolEntry[] {
    if (frameId !== undefined) {
      const entry = this.#tools.get(toolKey(frameId, name));
      return entry ? [entry] : [];
    }
    return this.entries().filter(entry => entry.raw.name === name);
  }

  frame(source: TrackedCdp, frameId: string): FrameInfo | undefined {
    return source.frames.get(frameId);
  }

  /** All frames this page's cdps know, main frame first. */
  allFrames(): {frame: FrameInfo; source: TrackedCdp}[] {
    const out: {frame: FrameInfo; source: TrackedCdp}[] = [];
    for (const source of this.cdps) {
      for (const frame of source.frames.values()) {
        out.push({frame, source});
      }
    }
    return out;
  }

  info(entry: ToolEntry): WebMcpToolInfo {
    const {raw, source} = entry;
    const frame = source.frames.get(raw.frameId);
    const top = raw.stackTrace?.callFrames[0];
    const frameUrl = frame?.url ?? top?.url ?? '';
    const annotations: WebMcpToolInfo['annotations'] = {};
    for (const [key, value] of Object.entries(raw.annotations ?? {})) {
      annotations[key] = value;
    }
    return {
      pageId: this.page.id,
      frameId: raw.frameId,
      frameUrl,
      origin: frame?.origin ?? originOf(frameUrl),
      name: raw.name,
      ...(raw.title === undefined ? {} : {title: raw.title}),
      description: raw.description,
      ...(raw.inputSchema === undefined ? {} : {inputSchema: raw.inputSchema}),
      annotations,
      declarative: raw.backendNodeId !== undefined,
      ...(top ? {location: {url: top.url, line: top.lineNumber, column: top.columnNumber}} : {}),
      mainFrame: raw.frameId === this.page.mainFrameId,
      ...(raw.backendNodeId === undefined ? {} : {formBackendNodeId: raw.backendNodeId}),
    };
  }

  /** Views of every tool, main frame first, then in registration order. */
  toolInfos(): WebMcpToolInfo[] {
    return [...this.keyedTools().values()].map(({info}) => info);
  }

  /** The same, by tool key (frame and name), with the registry entry each info comes from. */
  keyedTools(): Map<string, KeyedTool> {
    const sorted = this.entries().sort((a, b) => {
      const aMain = a.raw.frameId === this.page.mainFrameId ? 0 : 1;
      const bMain = b.raw.frameId === this.page.mainFrameId ? 0 : 1;
      return aMain - bMain || a.order - b.order;
    });
    return new Map(
      sorted.map(entry => [
        toolKey(entry.raw.frameId, entry.raw.name),
        {raw: entry.raw, info: this.info(entry)},
      ]),
    );
  }

  dispose(): void {
    this.disposed = true;
    for (const tracked of [...this.cdps]) {
      this.cdps.delete(tracked);
      tracked.dispose();
      if (tracked.kind === 'oopif') {
        void tracked.cdp.detach().catch(() => undefined);
      }
    }
    this.#tools.clear();
  }
}
