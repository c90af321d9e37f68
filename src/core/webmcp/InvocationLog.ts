/**
 * Every WebMCP invocation of every page, from anyone (this app, an MCP client, the page itself),
 * recorded from toolInvoked/toolResponded. Every invocation ends: the page answers (Completed,
 * Canceled, Error), or a cancel goes unanswered for the grace period (TimedOut), or its frame
 * navigates, is removed or its page closes (Interrupted). A declarative form that submits to
 * another document answers only after that navigation, so a navigation waits for the new document
 * to load (plus a short grace) before it counts as an interruption.
 */
import {boundValue, detachedPrefix, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import type {WebMcpInvocation} from '../../shared/protocol.js';
import {
  emptyResultSchema,
  normalizeStatus,
  type ToolInvokedEvent,
  type ToolRespondedEvent,
} from './cdpSchemas.js';
import {sendUntyped} from '../browser/cdp.js';
import type {FrameGoneReason, PageWebMcp, TrackedCdp} from './PageWebMcp.js';

export const CANCEL_GRACE_MS = 3_000;
/** After a navigation, the new document's load plus this long may still bring the answer. */
const NAVIGATION_GRACE_MS = 1_000;
/** …but never more than this after the navigation itself. */
const NAVIGATION_CAP_MS = 10_000;
const FINISHED_KEPT = 500;
/** Output kept in the event stream; MCP callers get all of it. */
const OUTPUT_VIEW_LIMIT = 100_000;
/**
 * Finished invocations nobody awaited (the page's own, the inspector's) whose full output is kept,
 * for a caller that asks just after the end; older ones keep only the bounded invocation.
 */
const UNCLAIMED_OUTPUTS_KEPT = 8;

export type CancelReason = 'user' | 'client' | 'timeout';

export interface InvocationRecord {
  invocation: WebMcpInvocation;
  tracker: PageWebMcp;
  source: TrackedCdp;
  /** Not yet published: waiting to learn whether this app started it. */
  deferred: boolean;
  output: unknown;
  exception: {description?: string | undefined; value?: unknown} | undefined;
  cancelReason: CancelReason | undefined;
  timers: Set<NodeJS.Timeout>;
  waiters: Set<() => void>;
  /** Someone waits for the outcome: the full output goes to them, then is let go. */
  awaited: boolean;
  /** Set when the frame navigated while the tool ran. */
  navigatedTo: string | undefined;
}

/** This app is invoking this tool right now: its toolInvoked event is ours, not the page's. */
export interface Claim {
  source: TrackedCdp;
  frameId: string;
  toolName: string;
}

export interface InvocationOutcome {
  invocation: WebMcpInvocation;
  /** The page's result, untrusted. */
  output: unknown;
  exception: {description?: string | undefined; value?: unknown} | undefined;
}

type InvocationStart = Pick<
  WebMcpInvocation,
  'invocationId' | 'frameId' | 'toolName' | 'input' | 'invoker'
>;

/** A running invocation, as first seen (from the page's event or from this app's own call). */
function newRecord(
  tracker: PageWebMcp,
  source: TrackedCdp,
  start: InvocationStart,
  deferred: boolean,
): InvocationRecord {
  return {
    invocation: {...start, pageId: tracker.page.id, status: 'running', startedAt: Date.now()},
    tracker,
    source,
    deferred,
    output: undefined,
    exception: undefined,
    cancelReason: undefined,
    timers: new Set(),
    waiters: new Set(),
    awaited: false,
    navigatedTo: undefined,
  };
}

function isTerminal(invocation: WebMcpInvocation): boolean {
  return invocation.status !== 'running';
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

export class InvocationLog {
  readonly #records = new Map<string, InvocationRecord>();
  readonly #finishedOrder: string[] = [];
  readonly #claims: Claim[] = [];
  readonly #unclaimed: InvocationRecord[] = [];

  constructor(
    /** Tells the inspector about a published invocation's new state. */
    private readonly publish: (invocation: WebMcpInvocation) => void,
    private readonly cancelGraceMs: number,
  ) {}

  /** The recorded invocations, oldest first. */
  list(): WebMcpInvocation[] {
    return [...this.#records.values()]
      .filter(record => !record.deferred)
      .map(record => record.invocation);
  }

  get(invocationId: string): InvocationRecord | undefined {
    return this.#records.get(invocationId);
  }

  #publish(record: InvocationRecord): void {
    if (!record.deferred) {
      this.publish(record.invocation);
    }
  }

  #update(record: InvocationRecord, patch: Partial<WebMcpInvocation>): void {
    record.invocation = {...record.invocation, ...patch};
    this.#publish(record);
  }

  // --- what the pages report -------------------------------------------------------------------

  onInvoked(tracker: PageWebMcp, source: TrackedCdp, event: ToolInvokedEvent): void {
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

  onResponded(source: TrackedCdp, event: ToolRespondedEvent): void {
    const record = this.#records.get(event.invocationId);
    if (record?.source !== source || isTerminal(record.invocation)) {
      return;
    }
    const status = normalizeStatus(event.status);
    // The page's value goes to the agent, the UI and the recording: cut at the depth bound.
    record.output =
      event.output === undefined
        ? undefined
        : boundValue(event.output, {maxDepth: VALUE_DEPTH_LIMIT}).value;
    record.exception = event.exception
      ? {
          description: event.exception.description,
          value: boundValue(event.exception.value, {maxDepth: VALUE_DEPTH_LIMIT}).value,
        }
      : undefined;
    const outputText = status === 'Completed' ? jsonText(record.output) : undefined;
    const exceptionText =
      event.exception?.description ??
      (record.exception?.value === undefined ? undefined : jsonText(record.exception.value));
    let errorText = event.errorText === '' ? undefined : event.errorText;
    if (status === undefined) {
      errorText = `The browser reported an unknown status "${event.status}".`;
    } else if (status === 'Canceled' && record.cancelReason === 'timeout') {
      errorText = `Timed out after ${record.invocation.timeoutMs ?? 0} ms; the tool was cancelled.`;
    } else if (status === 'Canceled' && record.cancelReason === 'client') {
      errorText = 'The MCP client cancelled the call.';
    }
    this.#finish(record, {
      status: status ?? 'Error',
      ...(outputText === undefined
        ? {}
        : outputText.length > OUTPUT_VIEW_LIMIT
          ? {output: detachedPrefix(outputText, OUTPUT_VIEW_LIMIT), outputTruncated: true}
          : {output: outputText}),
      ...(errorText === undefined ? {} : {errorText}),
      ...(exceptionText === undefined ? {} : {exception: exceptionText}),
    });
  }

  onFrameGone(
    tracker: PageWebMcp,
    source: TrackedCdp,
    frameId: string,
    reason: FrameGoneReason,
    url: string | undefined,
  ): void {
    for (const record of this.#records.values()) {
      if (
        isTerminal(record.invocation) ||
        record.tracker !== tracker ||
        record.source !== source ||
        record.invocation.frameId !== frameId
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

  onFrameStopped(source: TrackedCdp, frameId: string): void {
    for (const record of this.#records.values()) {
      if (
        !isTerminal(record.invocation) &&
        record.navigatedTo !== undefined &&
        record.source === source &&
        record.invocation.frameId === frameId
      ) {
        this.#timer(record, NAVIGATION_GRACE_MS, () => this.#interruptNavigated(record));
      }
    }
  }

  /** Ends every running invocation that matches as Interrupted, saying why. */
  interruptWhere(match: (record: InvocationRecord) => boolean, errorText: string): void {
    for (const record of [...this.#records.values()]) {
      if (!isTerminal(record.invocation) && match(record)) {
        record.deferred = false;
        this.#finish(record, {status: 'Interrupted', errorText});
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

  #finish(record: InvocationRecord, patch: Partial<WebMcpInvocation>): void {
    if (isTerminal(record.invocation)) {
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
    this.#letGoOfOutput(record);
    this.#finishedOrder.push(record.invocation.invocationId);
    while (this.#finishedOrder.length > FINISHED_KEPT) {
      const oldest = this.#finishedOrder.shift();
      if (oldest !== undefined) {
        this.#records.delete(oldest);
      }
    }
  }

  /** The full output went to its caller, or waits (bounded) for one: it is not kept longer. */
  #letGoOfOutput(record: InvocationRecord): void {
    if (!record.awaited) {
      this.#unclaimed.push(record);
      if (this.#unclaimed.length <= UNCLAIMED_OUTPUTS_KEPT) {
        return;
      }
      record = this.#unclaimed.shift() ?? record;
    }
    record.output = undefined;
    if (record.exception !== undefined) {
      record.exception = {description: record.exception.description};
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

  // --- what this app starts --------------------------------------------------------------------

  #claimed(source: TrackedCdp, frameId: string, toolName: string): boolean {
    return this.#claims.some(
      claim => claim.source === source && claim.frameId === frameId && claim.toolName === toolName,
    );
  }

  claim(claim: Claim): void {
    this.#claims.push(claim);
  }

  releaseClaim(claim: Claim): void {
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
        record.invocation.frameId === claim.frameId &&
        record.invocation.toolName === claim.toolName
      ) {
        record.deferred = false;
        this.#publish(record);
      }
    }
  }

  /**
   * The invocation the browser started for this app's claim: the record its toolInvoked event made,
   * or a new one when the reply beat the event. Published with its invoker and bound from now on.
   */
  started(
    tracker: PageWebMcp,
    claim: Claim,
    start: InvocationStart,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): InvocationRecord {
    let record = this.#records.get(start.invocationId);
    if (!record) {
      record = newRecord(tracker, claim.source, start, true);
      this.#records.set(start.invocationId, record);
    }
    record.deferred = false;
    this.#update(record, {invoker: start.invoker, timeoutMs});
    this.releaseClaim(claim);
    this.#watch(record, timeoutMs, signal);
    return record;
  }

  #watch(record: InvocationRecord, timeoutMs: number, signal: AbortSignal | undefined): void {
    if (isTerminal(record.invocation)) {
      return;
    }
    this.#timer(record, timeoutMs, () => {
      void this.cancel(record.invocation.invocationId, 'timeout').catch(() => undefined);
    });
    if (signal) {
      const onAbort = (): void => {
        void this.cancel(record.invocation.invocationId, 'client').catch(() => undefined);
      };
      if (signal.aborted) {
        onAbort();
      } else {
        signal.addEventListener('abort', onAbort, {once: true});
        record.waiters.add(() => signal.removeEventListener('abort', onAbort));
      }
    }
  }

  /** Resolves when the invocation has ended (always bounded: see the file comment). */
  settled(record: InvocationRecord): Promise<InvocationOutcome> {
    const outcome = (): InvocationOutcome => ({
      invocation: record.invocation,
      output: record.output,
      exception: record.exception,
    });
    record.awaited = true;
    if (isTerminal(record.invocation)) {
      const ended = outcome();
      const index = this.#unclaimed.indexOf(record);
      if (index >= 0) {
        this.#unclaimed.splice(index, 1);
      }
      this.#letGoOfOutput(record);
      return Promise.resolve(ended);
    }
    return new Promise(resolve => {
      record.waiters.add(() => resolve(outcome()));
    });
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
    if (isTerminal(record.invocation) || record.invocation.cancelRequested === true) {
      return Promise.resolve(record.invocation);
    }
    record.cancelReason = reason;
    this.#update(record, {cancelRequested: true});
    this.#timer(record, this.cancelGraceMs, () => {
      const why =
        reason === 'timeout'
          ? `Timed out after ${record.invocation.timeoutMs ?? 0} ms, and the page`
          : 'The page';
      this.#finish(record, {
        status: 'TimedOut',
        errorText: `${why} did not answer the cancel within ${this.cancelGraceMs} ms.`,
      });
    });
    // Not awaited: a page whose main thread is busy answers the cancel only when it is free.
    // "No pending execution" means it ended a moment ago and its answer is on the way; the
    // grace timer settles every other case.
    void sendUntyped(
      record.source.cdp,
      'WebMCP.cancelInvocation',
      {invocationId},
      emptyResultSchema,
    ).catch(() => undefined);
    return Promise.resolve(record.invocation);
  }
}
