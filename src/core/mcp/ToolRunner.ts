/**
 * The call pipeline: the one description of what every tool call goes through, in the order the
 * code below does it (docs/architecture.md points here).
 *
 *  1. The call is announced: a `toolCallStarted` inspector event as it arrives (callEvents.ts).
 *  2. Checks (#check): an unknown tool → a JSON-RPC error -32602 listing the tools; a disabled
 *     category or condition (a tool missing from tools/list, so unknown to the client) → the same
 *     JSON-RPC error, naming the switch that enables it (ToolNotListedError); arguments nested
 *     deeper than VALUE_DEPTH_LIMIT or holding more than REQUEST_VALUE_LIMIT values, or one string
 *     over ARGUMENT_TEXT_LIMIT → refused before any schema walks them (tools/inputLimits.ts has the
 *     tighter bounds of inputs that become browser work); an unknown or invalid argument → an
 *     error listing the expected ones
 *     (the first few of many). Progress heartbeats start here and cover the rest.
 *  3. The browser (#execute): unless the tool works offline, a lazy start or reconnect
 *     (ManagedBrowser.ensure, bounded), and once per client the note that page ids changed.
 *  4. The hold gate, before any lock: a call a hold rule matches waits for a person without
 *     holding anything, so no other call waits on it; denied → the denial is the result, edited →
 *     the person's arguments run, with a note.
 *  5. Locks (callLocks.ts): the browser lock (shared or exclusive, as the tool declares), then for
 *     a page-scoped tool the page's own lock; the page (the one named with pageId routing, else
 *     the selected one) is resolved, locked, and the selection checked again under the lock (a
 *     moved selection is followed, a bounded number of times); every wait within LOCK_WAIT_MS.
 *  6. The hold gate again, under the locks (hold/lockChecked.ts): the page may have changed while
 *     the call waited; if a rule matches now, the locks are released, the call is held, and the
 *     locks are taken again once a person let it run.
 *  7. The element arguments are recorded under the page lock (`callElements`), from the snapshot
 *     the call acts on; for a call that may change its page, a watch of its document's changes
 *     starts (browser/domChanges.ts), taken once the handler is done.
 *  8. The handler (#runHandler): the open-dialog gate first (a tool marked blockedByDialog
 *     refuses while a dialog is open), then, for a call that may change its page, its
 *     navigations watched against the hold URL rules; then the handler, which resolves its file
 *     paths as it needs them (`resolvePath`: checked against the allowed roots, so after the
 *     dialog gate). A handler error becomes isError text with the page context still rendered;
 *     a navigation the rules stopped does too.
 *  9. A client's cancel answers at once; the page stays locked until the handler's work has
 *     stopped (at most CANCEL_GRACE_MS).
 * 10. Rendering to MCP content (render.ts): page-state sections from the catalog, the pages list
 *     (with extension workers), a snapshot saved to its filePath; then the locks are released.
 * 11. The end: one telemetry record (shown, never sent), `toolCallEnded`, and the call's page
 *     activity and screenshots (recordings/callActivity.ts). Anything unexpected on the way ends
 *     as this call's error (call()), never beyond it.
 */
import {ErrorCode, type CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {
  holdsMoreValuesThan,
  nestsDeeperThan,
  REQUEST_VALUE_LIMIT,
  VALUE_DEPTH_LIMIT,
} from '../../shared/boundedValue.js';
import {oneLine} from '../../shared/inertText.js';
import type {CallStatus, ClientRef} from '../../shared/protocol.js';
import type {ClientPages} from '../browser/pages/ClientPages.js';
import type {ManagedBrowser, SeenBrowser} from '../browser/launch/ManagedBrowser.js';
import {ReadWriteLock} from '../browser/lock.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {ServerConfig} from '../config/serverConfig.js';
import type {FileAccess} from '../files/FileAccess.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import type {TelemetryRecorder} from '../telemetry/TelemetryRecorder.js';
import type {Tool, ValidationResult} from '../tools/base/definition.js';
import {ARGUMENT_TEXT_LIMIT, overlongArgument} from '../tools/base/inputLimits.js';
import {ResponseBuilder} from '../tools/base/ResponseBuilder.js';
import type {EngineServices} from '../tools/base/services.js';
import {
  webmcpToolAudience,
  type WebMcpToolAudience,
  type ToolCatalog,
} from '../tools/base/ToolCatalog.js';
import type {CallActivityTracker} from '../recordings/callActivity.js';
import {acquireCallLocks} from './callLocks.js';
import {recordedElements} from './callElements.js';
import {CallEvents} from './callEvents.js';
import {errorMessage, errorResult} from './callResult.js';
import type {AskClient} from './hold/askClient.js';
import type {CallHold} from './hold/CallHold.js';
import {CallNavigations} from './hold/callNavigations.js';
import type {HoldGate} from './hold/HoldGate.js';
import {lockChecked} from './hold/lockChecked.js';
import {CallProgress, type ProgressToken, type SendNotification} from './progress.js';
import {renderResponse, type SnapshotAudience} from './render.js';
import type {ReplyMemory} from './replyMemory.js';

const INVALID_PARAMS: number = ErrorCode.InvalidParams;

/** After a cancel, the lock is held at most this long for the handler to wind down. */
const CANCEL_GRACE_MS = 10_000;

export interface CallOrigin {
  client: ClientRef;
  /** The pages as this caller sees them: its own selected page (one per client session). */
  pages: ClientPages;
  files: FileAccess;
  signal?: AbortSignal | undefined;
  /** What this client last saw of the browser (one per client session), for the reconnect note. */
  seenBrowser: SeenBrowser;
  /** Set when the request asked for progress (`_meta.progressToken`). */
  progressToken?: ProgressToken | undefined;
  sendNotification?: SendNotification | undefined;
  /** Asks the client's person (MCP elicitation), when the client supports it: held calls do. */
  askClient?: AskClient | undefined;
}

export interface ToolRunnerDeps {
  catalog: ToolCatalog;
  browser: ManagedBrowser;
  config: ServerConfig;
  hub: InspectorHub;
  telemetry: TelemetryRecorder;
  services: EngineServices;
  /** Hold rules: a matching agent call waits for a person before it takes any lock. */
  hold?: HoldGate;
  /** Links calls to their page activity and screenshots (step 11). */
  callActivity?: CallActivityTracker;
  /** Gives back what a big reply's copies used once it has gone out. */
  replyMemory?: ReplyMemory;
}

type ValidCall = Extract<ValidationResult, {ok: true}>;

/**
 * A call of a tool the client's tools/list does not offer (unknown, or switched off). The MCP
 * specification answers it with a JSON-RPC error, not a tool result (as chrome-devtools-mcp does);
 * the SDK's Protocol sends `code` and `message` as they are. Invalid arguments of a listed tool stay
 * tool results, so the model can correct itself.
 */
export class ToolNotListedError extends Error {
  readonly code = INVALID_PARAMS;
}

export class ToolRunner {
  readonly #browserLock = new ReadWriteLock('The browser');

  constructor(private readonly deps: ToolRunnerDeps) {}

  /**
   * Runs one call; whatever goes wrong in it ends as this call's error, never beyond it, except a
   * tool that is not listed: ToolNotListedError (after the inspector saw the call fail).
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
  ): Promise<CallToolResult> {
    let events: CallEvents | undefined;
    try {
      events = new CallEvents(this.deps.hub, name, args, origin.client, this.deps.callActivity);
      const result = await this.#call(name, args, origin, events);
      this.deps.replyMemory?.replied(result);
      return result;
    } catch (error) {
      if (error instanceof ToolNotListedError) {
        throw error;
      }
      const result = errorResult(
        `Internal error in ${name}: ${errorMessage(error)}. The server keeps running; retry the call, and if it fails again report it with the arguments that caused it.`,
      );
      return events?.finish(result, 'error') ?? result;
    }
  }

  /** For in-process callers (the Run panel, replays): a tool that is not listed is a failed call. */
  async callInProcess(
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
  ): Promise<CallToolResult> {
    try {
      return await this.call(name, args, origin);
    } catch (error) {
      if (error instanceof ToolNotListedError) {
        return errorResult(error.message);
      }
      throw error;
    }
  }

  async #call(
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
    events: CallEvents,
  ): Promise<CallToolResult> {
    const checked = this.#check(name, args, webmcpToolAudience(origin.pages));
    if (!checked.ok) {
      events.finish(errorResult(checked.message), 'error');
      if (checked.notListed) {
        throw new ToolNotListedError(checked.message);
      }
      return errorResult(checked.message);
    }
    const {tool, valid} = checked;
    const response = new ResponseBuilder(this.deps.catalog.slim);
    // Another client closed the page this one had selected: said first, once, whatever happens.
    const lostNote = origin.pages.takeLostNote();
    if (lostNote) {
      response.notes.push(lostNote);
    }
    // Heartbeats cover the whole call: lock waits, the handler, rendering.
    const progress = new CallProgress(origin.progressToken, origin.sendNotification, name);
    const stopProgress = progress.start();
    let success = false;
    let outcome: CallStatus;
    let result: CallToolResult;
    try {
      result = await this.#execute(tool, valid, response, origin, {progress, events});
      success = true;
      outcome = result.isError ? 'error' : 'ok';
    } catch (error) {
      outcome = 'error';
      result = errorResult(lostNote ? `${lostNote}\n${errorMessage(error)}` : errorMessage(error));
    } finally {
      stopProgress();
    }
    if (origin.signal?.aborted) {
      outcome = 'cancelled';
    }
    const page = response.page;
    const telemetry = this.deps.telemetry.record({
      tool: tool.webmcpTool ? {name: tool.webmcpTool.telemetryName, paramKinds: {}} : tool,
      params: valid.params,
      client: origin.client,
      success,
      latencyMs: events.elapsedMs,
      pageUrl: page?.url,
    });
    return events.finish(result, outcome, {page, telemetry, response});
  }

  /** Step 2: the tool exists, is enabled now, and the arguments fit its schema. */
  #check(
    name: string,
    args: Record<string, unknown>,
    audience: WebMcpToolAudience,
  ): {ok: true; tool: Tool; valid: ValidCall} | {ok: false; message: string; notListed?: true} {
    const {catalog} = this.deps;
    // WebMCP tools as this caller is offered them (an isolated client: its own page's only).
    const tool = catalog.get(name, audience);
    if (!tool) {
      return {ok: false, message: catalog.unknownToolMessage(name, audience), notListed: true};
    }
    const status = catalog.status(tool);
    if (!status.enabled) {
      return {ok: false, message: status.reason, notListed: true};
    }
    // Before the schema (and any WebMCP tool's JSON Schema) walks them.
    if (nestsDeeperThan(args, VALUE_DEPTH_LIMIT)) {
      return {
        ok: false,
        message: `The arguments of ${name} nest deeper than ${VALUE_DEPTH_LIMIT} levels of objects and arrays; nothing ran. Send flatter arguments.`,
      };
    }
    if (holdsMoreValuesThan(args, REQUEST_VALUE_LIMIT)) {
      return {
        ok: false,
        message: `The arguments of ${name} hold more than ${REQUEST_VALUE_LIMIT} values; nothing ran. Send smaller arguments.`,
      };
    }
    const overlong = overlongArgument(args, ARGUMENT_TEXT_LIMIT);
    if (overlong) {
      return {
        ok: false,
        message: `The argument ${oneLine(overlong.path.slice(0, 100))} of ${name} is ${overlong.length} characters, over the limit of ${ARGUMENT_TEXT_LIMIT} for one argument; nothing ran. Send less in one call.`,
      };
    }
    const valid = tool.validate(args, catalog.schemaOptions());
    return valid.ok ? {ok: true, tool, valid} : valid;
  }

  async #execute(
    tool: Tool,
    given: ValidCall,
    response: ResponseBuilder,
    origin: CallOrigin,
    track: {progress: CallProgress; events: CallEvents},
  ): Promise<CallToolResult> {
    const {progress, events} = track;
    const signal = origin.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    if (!tool.offline) {
      await this.#ensureBrowser(origin, response);
    }
    const hold = this.deps.hold?.forCall({
      callId: events.callId,
      tool,
      client: origin.client,
      pages: origin.pages,
      signal,
      progress,
      ask: origin.askClient,
      progressRequested: origin.progressToken !== undefined,
    });
    // Hold rules, before any lock: a held call keeps no other call waiting.
    const first = await this.#holdIfRuled(hold, given, response);
    if ('content' in first) {
      return first;
    }
    // Checked again under the locks: the page may have changed while the call waited.
    const checked = await lockChecked(
      hold,
      first,
      valid =>
        acquireCallLocks({
          tool,
          pageId: this.#routedPageId(valid),
          pages: origin.pages,
          browserLock: this.#browserLock,
          signal,
          onPage: page => response.setPage(page),
        }),
      response.notes,
    );
    if ('denied' in checked) {
      return errorResult(checked.denied);
    }
    const {locks, valid} = checked;
    // Under the page lock, so the uids are read from the snapshot the call acts on.
    events.elements(recordedElements(locks.page, tool, valid.params));
    await events.watchDom(locks.page, tool.readOnly);
    const work = this.#runHandler(tool, valid, response, {
      origin,
      page: locks.page,
      signal,
      progress,
      navigations: new CallNavigations(hold),
    });
    if (await cancelledFirst(work, signal)) {
      // Keep the page locked until the aborted work has actually stopped (bounded), so the next call
      // does not collide with its tail.
      const force = setTimeout(locks.release, CANCEL_GRACE_MS);
      void work.finally(() => {
        clearTimeout(force);
        locks.release();
      });
      return errorResult('The call was cancelled by the client.');
    }
    try {
      await events.takeDom();
      return await this.#render(response, origin);
    } finally {
      locks.release();
    }
  }

  /** Step 3: a lazy start or reconnect, and once per client the note that page ids changed. */
  async #ensureBrowser(origin: CallOrigin, response: ResponseBuilder): Promise<void> {
    const {browser} = this.deps;
    await browser.ensure();
    const reconnectNote = browser.reconnectNoteFor(origin.seenBrowser, page =>
      origin.pages.sees(page),
    );
    if (reconnectNote) {
      response.notes.push(reconnectNote);
    }
  }

  /** Step 10, under the locks: the page-state sections, the caller's pages list, the content. */
  async #render(response: ResponseBuilder, origin: CallOrigin): Promise<CallToolResult> {
    const {browser, catalog} = this.deps;
    if (response.includePagesList && catalog.isCategoryEnabled('extensions')) {
      response.extensionWorkers = browser.extensionWorkers
        .list(browser.chromium)
        .map(({id, url}) => ({id, url}));
    }
    catalog.addPageStateSections(response);
    if (response.includePagesList) {
      // The titles as the pages show them now (a script may have changed one), bounded.
      await origin.pages.refreshTitles();
    }
    return renderResponse(response, origin.pages, origin.files, this.#audience(origin));
  }

  /** Who the reply's snapshot is for (snapshot diffs are kept per client session). */
  #audience(origin: CallOrigin): SnapshotAudience {
    return {client: origin.client.id, diffs: this.deps.catalog.isConditionEnabled('snapshotDiffs')};
  }

  /** The page a call is routed to: the one it is bound to or names (pageId routing on). */
  #routedPageId(valid: ValidCall): number | undefined {
    if (!this.deps.catalog.pageIdRouting) {
      return undefined;
    }
    const named = valid.params.pageId;
    return valid.boundPageId ?? (typeof named === 'number' ? named : undefined);
  }

  /** The call as a person let it run (maybe with edited arguments), or the denial to return. */
  async #holdIfRuled(
    hold: CallHold | undefined,
    given: ValidCall,
    response: ResponseBuilder,
  ): Promise<ValidCall | CallToolResult> {
    const held = hold?.before(given.params, this.#routedPageId(given));
    const decided = held ? await held : undefined;
    if (decided?.kind === 'denied') {
      return errorResult(decided.text);
    }
    if (decided?.kind === 'edited') {
      response.notes.push(decided.note);
      return decided.valid;
    }
    if (decided?.note !== undefined) {
      response.notes.push(decided.note);
    }
    return given;
  }

  /** Step 8; never rejects (errors go in the response). */
  async #runHandler(
    tool: Tool,
    valid: ValidCall,
    response: ResponseBuilder,
    run: {
      origin: CallOrigin;
      page: PageState | undefined;
      signal: AbortSignal;
      progress: CallProgress;
      navigations: CallNavigations;
    },
  ): Promise<void> {
    const {browser, config, catalog, services} = this.deps;
    const {origin, page, signal, progress, navigations} = run;
    try {
      if (page && tool.blockedByDialog) {
        page.throwIfDialogOpen();
      }
      // A page's own tool runs the page's code, whatever its readOnlyHint says: always watched.
      if (page && (!tool.readsOnly(valid.params) || tool.webmcpTool !== undefined)) {
        await navigations.watch(page);
      }
      await valid.run(
        {
          page,
          browser,
          pages: origin.pages,
          config,
          files: origin.files,
          client: origin.client,
          signal,
          services,
          pageIdGiven: this.#routedPageId(valid) !== undefined,
          reportProgress: status => progress.report(status),
          addPageOfferedToolSections: (target, shown) =>
            catalog.addPageOfferedToolSections(target, shown, {browser, services}),
          resolvePath: value =>
            tool.filePaths.some(entry => entry.scope === 'localBrowser') && !browser.isLocal
              ? Promise.resolve(value)
              : origin.files.validatePathOrUrl(value),
          guardNavigations: target => navigations.watch(target),
        },
        response,
      );
    } catch (error) {
      response.setError(error instanceof Error ? error : new Error(String(error)));
    }
    const stopped = await navigations.release();
    if (stopped !== undefined) {
      response.setError(new Error(stopped));
    }
  }
}

/** Waits for the work or the client's cancel, whichever comes first; true if the cancel did. */
async function cancelledFirst(work: Promise<void>, signal: AbortSignal): Promise<boolean> {
  const cancelled = new Promise<true>(resolve => {
    if (signal.aborted) {
      resolve(true);
    }
    signal.addEventListener('abort', () => resolve(true), {once: true});
  });
  return Promise.race([work.then(() => false), cancelled]);
}
