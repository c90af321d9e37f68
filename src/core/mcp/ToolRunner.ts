/**
 * The call pipeline every tool call goes through (DESIGN.md "What every tool call goes through"):
 * enabled? → known arguments? → browser up → page resolved → per-page lock (bounded) → file paths →
 * dialog gate → handler → render → inspector events and a telemetry record. A handler error becomes
 * isError text with the page context still rendered; a client cancel aborts the handler's work.
 */
import crypto from 'node:crypto';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import type {CallStatus, ClientRef, ToolResultView} from '../../shared/protocol.js';
import type {TelemetryRecord} from '../../shared/telemetry.js';
import type {BrowserSession, BrowserView} from '../browser/BrowserSession.js';
import type {Release} from '../browser/lock.js';
import {LOCK_WAIT_MS, ReadWriteLock} from '../browser/lock.js';
import type {PageState} from '../browser/PageState.js';
import type {ServerConfig} from '../config/flags.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import type {TelemetryRecorder} from '../telemetry/TelemetryRecorder.js';
import type {Tool} from '../tools/definition.js';
import type {EngineServices} from '../tools/services.js';
import type {ToolCatalog} from '../tools/ToolCatalog.js';
import type {FileAccess} from '../files/FileAccess.js';
import {renderResponse} from './render.js';
import {ResponseBuilder} from '../tools/response/ResponseBuilder.js';

export {LOCK_WAIT_MS} from '../browser/lock.js';
/** After a cancel, the lock is held at most this long for the handler to wind down. */
const CANCEL_GRACE_MS = 10_000;

export interface CallOrigin {
  client: ClientRef;
  files: FileAccess;
  signal?: AbortSignal | undefined;
  /** What this client last saw of the browser (one per MCP session), for the reconnect note. */
  browserView: BrowserView;
}

export interface ToolRunnerDeps {
  catalog: ToolCatalog;
  session: BrowserSession;
  config: ServerConfig;
  hub: InspectorHub;
  telemetry: TelemetryRecorder;
  services: EngineServices;
}

export class ToolRunner {
  readonly #browserLock = new ReadWriteLock('The browser');

  constructor(private readonly deps: ToolRunnerDeps) {}

  async call(
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
  ): Promise<CallToolResult> {
    const {catalog, hub} = this.deps;
    const callId = crypto.randomUUID();
    const started = performance.now();
    const requestedPageId = typeof args.pageId === 'number' ? args.pageId : undefined;
    hub.publish({
      type: 'toolCallStarted',
      callId,
      tool: name,
      args,
      client: origin.client,
      ...(requestedPageId === undefined ? {} : {pageId: requestedPageId}),
    });

    const finish = (
      result: CallToolResult,
      status: CallStatus,
      extras: {
        page?: PageState | undefined;
        telemetry?: TelemetryRecord;
        response?: ResponseBuilder;
      },
    ): CallToolResult => {
      const view = resultView(result);
      const page = extras.page;
      hub.publish({
        type: 'toolCallEnded',
        callId,
        tool: name,
        status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        result: view,
        ...(status === 'error' ? {errorText: firstErrorLine(view.text)} : {}),
        ...(page
          ? {pageId: page.id}
          : requestedPageId === undefined
            ? {}
            : {pageId: requestedPageId}),
        ...(page && extras.response?.actedOn
          ? {actedOn: {pageId: page.id, rect: extras.response.actedOn}}
          : {}),
        ...(extras.telemetry ? {telemetry: extras.telemetry} : {}),
      });
      if (extras.telemetry) {
        hub.publish({type: 'telemetry', callId, record: extras.telemetry});
      }
      return result;
    };

    const tool = catalog.get(name);
    if (!tool) {
      const available = catalog.enabledTools().map(t => t.name);
      return finish(
        errorResult(`Unknown tool "${name}". Available tools: ${available.join(', ')}.`),
        'error',
        {},
      );
    }
    const status = catalog.status(tool);
    if (!status.enabled) {
      return finish(errorResult(status.reason), 'error', {});
    }
    const validation = tool.validate(args, catalog.schemaOptions());
    if (!validation.ok) {
      return finish(errorResult(validation.message), 'error', {});
    }

    const response = new ResponseBuilder(catalog.slim);
    let page: PageState | undefined;
    let success = false;
    let outcome: CallStatus = 'ok';
    let result: CallToolResult;
    try {
      result = await this.#execute(tool, validation, response, origin);
      page = response.page;
      success = true;
      if (result.isError) {
        outcome = 'error';
      }
      if (origin.signal?.aborted) {
        outcome = 'cancelled';
      }
    } catch (error) {
      page = response.page;
      outcome = origin.signal?.aborted ? 'cancelled' : 'error';
      result = errorResult(errorMessage(error));
    }
    const telemetry = this.deps.telemetry.record({
      tool,
      params: validation.params,
      client: origin.client,
      success,
      latencyMs: performance.now() - started,
      pageUrl: page?.url,
    });
    return finish(result, outcome, {page, telemetry, response});
  }

  async #execute(
    tool: Tool,
    validation: Extract<ReturnType<Tool['validate']>, {ok: true}>,
    response: ResponseBuilder,
    origin: CallOrigin,
  ): Promise<CallToolResult> {
    const {session, config, catalog, services} = this.deps;
    const signal = origin.signal ?? new AbortController().signal;
    signal.throwIfAborted();

    if (!tool.offline) {
      await session.ensure();
      const reconnectNote = session.reconnectNoteFor(origin.browserView);
      if (reconnectNote) {
        response.notes.push(reconnectNote);
      }
    }

    let page: PageState | undefined;
    if (tool.pageScoped) {
      const pageId = validation.params.pageId;
      if (catalog.pageIdRouting && typeof pageId === 'number') {
        page = session.pages.byId(pageId);
      } else {
        page = session.pages.selected;
        if (!page) {
          throw new Error(
            'No page selected. Call list_pages to see open pages, then select_page or new_page.',
          );
        }
      }
      response.setPage(page);
    }

    const releases: Release[] = [];
    const label = tool.name;
    try {
      if (tool.browserLock === 'exclusive') {
        releases.push(await this.#browserLock.acquireExclusive(label, LOCK_WAIT_MS, signal));
      } else if (tool.browserLock === 'shared') {
        releases.push(await this.#browserLock.acquireShared(label, LOCK_WAIT_MS, signal));
      }
      if (page) {
        releases.push(await page.lock.acquire(label, LOCK_WAIT_MS, signal));
        if (page.closed) {
          throw new Error(
            `Page ${page.id} was closed while this call waited for it. Call list_pages to see open pages.`,
          );
        }
      }
    } catch (error) {
      for (const release of releases.reverse()) {
        release();
      }
      throw error;
    }

    const releaseAll = (): void => {
      for (const release of releases.reverse()) {
        release();
      }
    };
    const work = (async () => {
      try {
        if (page && tool.blockedByDialog) {
          page.throwIfDialogOpen();
        }
        await validation.run(
          {
            page,
            session,
            config,
            files: origin.files,
            client: origin.client,
            signal,
            services,
            pageIdGiven: catalog.pageIdRouting && typeof validation.params.pageId === 'number',
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
    })();

    const outcome = {cancelled: false};
    await Promise.race([
      work,
      new Promise<void>(resolve => {
        if (signal.aborted) {
          resolve();
        }
        signal.addEventListener('abort', () => resolve(), {once: true});
      }).then(() => {
        outcome.cancelled = true;
      }),
    ]);
    if (outcome.cancelled) {
      // Keep the page locked until the aborted work has actually stopped (bounded), so the next call
      // does not collide with its tail.
      const force = setTimeout(releaseAll, CANCEL_GRACE_MS);
      void work.finally(() => {
        clearTimeout(force);
        releaseAll();
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
      releaseAll();
    }
  }
}

function errorResult(text: string): CallToolResult {
  return {content: [{type: 'text', text}], isError: true};
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.cause instanceof Error
      ? `${error.message}\nCause: ${error.cause.message}`
      : error.message;
  }
  return String(error);
}

function firstErrorLine(text: string): string {
  const errorLine = text.split('\n').find(line => line.startsWith('Error: '));
  return (errorLine ?? text.split('\n')[0] ?? '').slice(0, 500);
}

export function resultView(result: CallToolResult): ToolResultView {
  const texts: string[] = [];
  const images: {mimeType: string; data: string}[] = [];
  for (const item of result.content) {
    if (item.type === 'text') {
      texts.push(item.text);
    } else if (item.type === 'image') {
      images.push({mimeType: item.mimeType, data: item.data});
    }
  }
  return {
    text: texts.join('\n'),
    images,
    ...(result.structuredContent ? {structuredContent: result.structuredContent} : {}),
  };
}
