/**
 * What the inspector sees of one call: `toolCallStarted` as it arrives, `toolCallEnded` (and the
 * telemetry record) as it leaves, with timing, the page it acted on and what it touched.
 */
import crypto from 'node:crypto';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import type {CallStatus, ClientRef, RecordedElement} from '../../shared/protocol.js';
import type {TelemetryRecord} from '../../shared/telemetry.js';
import {DomWatch, type DomChanges} from '../browser/domChanges.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import type {CallActivityTracker, CallSpan} from '../recordings/callActivity.js';
import type {ResponseBuilder} from '../tools/base/ResponseBuilder.js';
import {firstErrorLine, inertResult, resultPreview} from './callResult.js';

export interface CallEnd {
  page?: PageState | undefined;
  telemetry?: TelemetryRecord;
  response?: ResponseBuilder;
}

export class CallEvents {
  readonly #callId = crypto.randomUUID();
  readonly #started = performance.now();
  readonly #requestedPageId: number | undefined;
  readonly #span: CallSpan;
  #finished = false;
  #domWatch: DomWatch | undefined;
  #domChanges: DomChanges | undefined;

  constructor(
    private readonly hub: InspectorHub,
    private readonly tool: string,
    args: Record<string, unknown>,
    client: ClientRef,
    /** Links the call to what it did on its page (page activity and screenshots). */
    private readonly record?: CallActivityTracker,
  ) {
    this.#requestedPageId = typeof args.pageId === 'number' ? args.pageId : undefined;
    const startedAt = Date.now();
    const started = hub.publish({
      type: 'toolCallStarted',
      callId: this.#callId,
      tool,
      args,
      client,
      ...this.#pageIdOf(undefined),
    });
    this.#span = {callId: this.#callId, startedAt, startSeq: started.seq, clientId: client.id};
  }

  get callId(): string {
    return this.#callId;
  }

  /** Who the call's element arguments were (from the latest snapshot), once its page is known. */
  elements(elements: RecordedElement[]): void {
    if (elements.length > 0) {
      this.hub.publish({type: 'callElements', callId: this.#callId, elements});
    }
  }

  /**
   * Under the page lock, before the handler: watch what a call that may change its page does to
   * its document (reading tools change nothing).
   */
  async watchDom(page: PageState | undefined, readOnly: boolean): Promise<void> {
    if (page && !readOnly) {
      this.#domWatch = await DomWatch.arm(page, this.#callId);
    }
  }

  /** Once the handler is done, still under the page lock: what it changed in the document. */
  async takeDom(): Promise<void> {
    this.#domChanges = await this.#domWatch?.take();
    this.#domWatch = undefined;
  }

  /** Milliseconds since the call arrived. */
  get elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /** Publishes the end of the call (once) and hands its result back. */
  /** Every reply ends here: made inert (callResult.ts), then logged as the agent gets it. */
  finish(given: CallToolResult, status: CallStatus, end: CallEnd = {}): CallToolResult {
    const result = inertResult(given);
    if (this.#finished) {
      return result;
    }
    this.#finished = true;
    const preview = resultPreview(result);
    const {page, telemetry, response} = end;
    this.hub.publish({
      type: 'toolCallEnded',
      callId: this.#callId,
      tool: this.tool,
      status,
      durationMs: Math.round(this.elapsedMs * 100) / 100,
      result: preview,
      ...(status === 'error' ? {errorText: firstErrorLine(preview.text)} : {}),
      ...this.#pageIdOf(page),
      ...(page && response?.actedOn ? {actedOn: {pageId: page.id, rect: response.actedOn}} : {}),
      ...(telemetry ? {telemetry} : {}),
    });
    if (telemetry) {
      this.hub.publish({type: 'telemetry', callId: this.#callId, record: telemetry});
    }
    this.record?.ended(this.#span, page, this.#domChanges);
    return result;
  }

  /** The page the call acted on, else the one it named. */
  #pageIdOf(page: PageState | undefined): {pageId?: number} {
    const pageId = page?.id ?? this.#requestedPageId;
    return pageId === undefined ? {} : {pageId};
  }
}
