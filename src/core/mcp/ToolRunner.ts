/**
 * The call pipeline every tool call goes through (DESIGN.md "What every tool call goes through"):
 * enabled? → known arguments? → browser up → locks, with the page resolved under its lock
 * (bounded) → file paths → dialog gate → handler → render → inspector events and a telemetry
 * record. A handler error becomes isError text with the page context still rendered; a client
 * cancel aborts the handler's work.
 */
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import type {CallStatus, ClientRef} from '../../shared/protocol.js';
import type {BrowserSession, BrowserView} from '../browser/BrowserSession.js';
import {ReadWriteLock} from '../browser/lock.js';
import type {PageState} from '../browser/PageState.js';
import type {ServerConfig} from '../config/serverConfig.js';
import type {FileAccess} from '../files/FileAccess.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import type {TelemetryRecorder} from '../telemetry/TelemetryRecorder.js';
import type {Tool, ValidationResult} from '../tools/definition.js';
import {ResponseBuilder} from '../tools/response/ResponseBuilder.js';
import type {EngineServices} from '../tools/services.js';
import type {ToolCatalog} from '../tools/ToolCatalog.js';
import type {CallRecord} from '../sessions/callRecord.js';
import {acquireCallLocks} from './callLocks.js';
import {recordedElements} from './callElements.js';
import {CallEvents} from './callEvents.js';
import {errorMessage, errorResult} from './callResult.js';
import type {HoldGate} from './hold/HoldGate.js';
import {CallProgress, type ProgressToken, type SendNotification} from './progress.js';
import {renderResponse} from './render.js';

/** After a cancel, the lock is held at most this long for the handler to wind down. */
const CANCEL_GRACE_MS = 10_000;

export interface CallOrigin {
  client: ClientRef;
  files: FileAccess;
  signal?: AbortSignal | undefined;
  /** What this client last saw of the browser (one per MCP session), for the reconnect note. */
  browserView: BrowserView;
  /** Set when the request asked for progress (`_meta.progressToken`). */
  progressToken?: ProgressToken | undefined;
  sendNotification?: SendNotification | undefined;
}

export interface ToolRunnerDeps {
  catalog: ToolCatalog;
  session: BrowserSession;
  config: ServerConfig;
  hub: InspectorHub;
  telemetry: TelemetryRecorder;
  services: EngineServices;
  /** Hold rules: a matching agent call waits for a person before it takes any lock. */
  hold?: HoldGate;
  /** Links calls to their page activity and screenshots (issue 11). */
  callRecord?: CallRecord;
}

type ValidCall = Extract<ValidationResult, {ok: true}>;

export class ToolRunner {
  readonly #browserLock = new ReadWriteLock('The browser');

  constructor(private readonly deps: ToolRunnerDeps) {}

  /** Runs one call; whatever goes wrong in it ends as this call's error, never beyond it. */
  async call(
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
  ): Promise<CallToolResult> {
    let events: CallEvents | undefined;
    try {
      events = new CallEvents(this.deps.hub, name, args, origin.client, this.deps.callRecord);
      return await this.#call(name, args, origin, events);
    } catch (error) {
      const result = errorResult(
        `Internal error in ${name}: ${errorMessage(error)}. The server keeps running; retry the call, and if it fails again report it with the arguments that caused it.`,
      );
      return events?.finish(result, 'error') ?? result;
    }
  }

  async #call(
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
    events: CallEvents,
  ): Promise<CallToolResult> {
    const checked = this.#check(name, args);
    if (!checked.ok) {
      return events.finish(errorResult(checked.message), 'error');
    }
    const {tool, valid} = checked;
    const response = new ResponseBuilder(this.deps.catalog.slim);
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
      result = errorResult(errorMessage(error));
    } finally {
      stopProgress();
    }
    if (origin.signal?.aborted) {
      outcome = 'cancelled';
    }
    const page = response.page;
    const telemetry = this.deps.telemetry.record({
      tool: tool.pageTool ? {name: tool.pageTool.telemetryName, paramKinds: {}} : tool,
      params: valid.params,
      client: origin.client,
      success,
      latencyMs: events.elapsedMs,
      pageUrl: page?.url,
    });
    return events.finish(result, outcome, {page, telemetry, response});
  }

  /** Steps 1 and 2: the tool exists, is enabled now, and the arguments fit its schema. */
  #check(
    name: string,
    args: Record<string, unknown>,
  ): {ok: true; tool: Tool; valid: ValidCall} | {ok: false; message: string} {
    const {catalog} = this.deps;
    const tool = catalog.get(name);
    if (!tool) {
      return {ok: false, message: catalog.unknownToolMessage(name)};
    }
    const status = catalog.status(tool);
    if (!status.enabled) {
      return {ok: false, message: status.reason};
    }
    // Before the schema (and any page tool's JSON Schema) walks them.
    if (nestsDeeperThan(args, VALUE_DEPTH_LIMIT)) {
      return {
        ok: false,
        message: `The arguments of ${name} nest deeper than ${VALUE_DEPTH_LIMIT} levels of objects and arrays; nothing ran. Send flatter arguments.`,
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
    const {session, catalog} = this.deps;
    const signal = origin.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    if (!tool.offline) {
      await session.ensure();
      const reconnectNote = session.reconnectNoteFor(origin.browserView);
      if (reconnectNote) {
        response.notes.push(reconnectNote);
      }
    }
    // Hold rules, before any lock: a held call keeps no other call waiting.
    const valid = await this.#holdIfRuled(tool, given, response, {
      origin,
      signal,
      progress,
      callId: events.callId,
    });
    if ('content' in valid) {
      return valid;
    }
    const pageId = valid.params.pageId;
    const locks = await acquireCallLocks({
      tool,
      pageId: catalog.pageIdRouting && typeof pageId === 'number' ? pageId : undefined,
      session,
      browserLock: this.#browserLock,
      signal,
      onPage: page => response.setPage(page),
    });
    // Under the page lock, so the uids are read from the snapshot the call acts on.
    events.elements(recordedElements(locks.page, valid.params));
    const work = this.#runHandler(tool, valid, response, {
      origin,
      page: locks.page,
      signal,
      progress,
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
      if (response.includePagesList && catalog.isCategoryEnabled('extensions')) {
        response.extensionWorkers = session.extensionWorkers
          .list(session.browser)
          .map(({id, url}) => ({id, url}));
      }
      catalog.addPageStateSections(response);
      return await renderResponse(response, session.pages, origin.files);
    } finally {
      locks.release();
    }
  }

  /** The call as a person let it run (maybe with edited arguments), or the denial to return. */
  async #holdIfRuled(
    tool: Tool,
    given: ValidCall,
    response: ResponseBuilder,
    call: {origin: CallOrigin; signal: AbortSignal; progress: CallProgress; callId: string},
  ): Promise<ValidCall | CallToolResult> {
    const namedPage = given.params.pageId;
    const held = this.deps.hold?.gate({
      callId: call.callId,
      tool,
      params: given.params,
      client: call.origin.client,
      pageId:
        this.deps.catalog.pageIdRouting && typeof namedPage === 'number' ? namedPage : undefined,
      signal: call.signal,
      progress: call.progress,
    });
    const decided = held ? await held : undefined;
    if (decided?.kind === 'denied') {
      return errorResult(decided.text);
    }
    if (decided?.kind === 'edited') {
      response.notes.push(decided.note);
      return decided.valid;
    }
    return given;
  }

  /** Steps 5 to 7: the dialog gate, file paths and the handler; never rejects (errors go in). */
  async #runHandler(
    tool: Tool,
    valid: ValidCall,
    response: ResponseBuilder,
    run: {
      origin: CallOrigin;
      page: PageState | undefined;
      signal: AbortSignal;
      progress: CallProgress;
    },
  ): Promise<void> {
    const {session, config, catalog, services} = this.deps;
    const {origin, page, signal, progress} = run;
    try {
      if (page && tool.blockedByDialog) {
        page.throwIfDialogOpen();
      }
      await valid.run(
        {
          page,
          session,
          config,
          files: origin.files,
          client: origin.client,
          signal,
          services,
          pageIdGiven: catalog.pageIdRouting && typeof valid.params.pageId === 'number',
          reportProgress: status => progress.report(status),
          addPageToolSections: (target, shown) =>
            catalog.addPageToolSections(target, shown, {session, services}),
          resolvePath: value =>
            tool.filePaths.some(entry => entry.scope === 'localBrowser') && !session.isLocal
              ? Promise.resolve(value)
              : origin.files.validatePathOrUrl(value),
        },
        response,
      );
    } catch (error) {
      response.setError(error instanceof Error ? error : new Error(String(error)));
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
