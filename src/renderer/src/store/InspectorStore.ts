/**
 * The one external store of the UI (read with useSyncExternalStore). The engine is the source of
 * truth: this mirrors it from `getState` plus the event stream, applies each batch at once and
 * notifies React once per batch. Every slice is an immutable object replaced only when it changes,
 * so selectors stay cheap; the call log itself is the mutable, versioned CallLog.
 */
import type {ConnectionStatus} from '../../../shared/connection.js';
import type {
  BrowserStatus,
  ClientRef,
  CategoryState,
  ConditionState,
  ConnectedClient,
  EventBatch,
  EventEnvelope,
  InspectorState,
  PageInfo,
  ToolInfo,
  WebMcpInvocation,
  WebMcpToolView,
} from '../../../shared/protocol.js';
import type {TelemetryRecord} from '../../../shared/telemetry.js';
import {type ActedOn, CallLog} from './CallLog.js';

export interface ServerInfo {
  serverVersion: string;
  mcpUrl?: string;
  inspectorUrl?: string;
  telemetryLogPath?: string;
}

export interface ToolsSlice {
  slim: boolean;
  categories: readonly CategoryState[];
  conditions: readonly ConditionState[];
  tools: readonly ToolInfo[];
}

export interface TelemetryEntry {
  seq: number;
  time: number;
  callId?: string;
  record: TelemetryRecord;
}

export interface LogSlice {
  /** Bumps on every change of the live log (append, end, clear). */
  version: number;
  size: number;
  /** Events the server's bounded store evicted before this UI saw them. */
  serverDropped: number;
  /** Calls this UI trimmed to stay within its own bound. */
  uiDropped: number;
}

export interface OfflineSession {
  fileName: string;
  log: CallLog;
  telemetry: readonly TelemetryEntry[];
  exportedAt?: string;
  serverVersion?: string;
}

export interface LastActedOn extends ActedOn {
  callId: string;
  tool: string;
  /** Local time it arrived, so the live view outlines it only for a moment. */
  receivedAt: number;
}

export interface InspectorSnapshot {
  connection: ConnectionStatus;
  /** True once the first getState reply has arrived. */
  ready: boolean;
  server: ServerInfo | undefined;
  tools: ToolsSlice;
  pages: readonly PageInfo[];
  browser: BrowserStatus | undefined;
  clients: readonly ConnectedClient[];
  /** Sessions the server closed (idle expiry or session cap), newest last (bounded). */
  expiredSessions: readonly ExpiredSession[];
  webmcpTools: readonly WebMcpToolView[];
  /** Latest state of each WebMCP invocation, oldest first (bounded). */
  webmcpInvocations: readonly WebMcpInvocation[];
  telemetry: readonly TelemetryEntry[];
  log: LogSlice;
  lastActedOn: LastActedOn | undefined;
  offline: OfflineSession | undefined;
  /** Last sequence id applied from the live stream (0 before any). */
  lastSeq: number;
}

export interface ExpiredSession {
  client: ClientRef;
  reason: 'idle' | 'limit';
  idleMs: number;
  /** Server time of the event. */
  at: number;
}

export const TELEMETRY_CAPACITY = 5_000;
export const EXPIRED_SESSION_CAPACITY = 20;
export const WEBMCP_INVOCATION_CAPACITY = 1_000;

const EMPTY_TOOLS: ToolsSlice = {slim: false, categories: [], conditions: [], tools: []};

export class InspectorStore {
  readonly log: CallLog;
  #snapshot: InspectorSnapshot;
  readonly #listeners = new Set<() => void>();
  /** Calls seen per client id in the stream (the state's count can be older). */
  readonly #callsByClient = new Map<string, number>();
  /** Calls per client as of the last getState (covers calls evicted before this UI saw them). */
  readonly #stateCalls = new Map<string, number>();
  #streamId: string | undefined;
  #notifyPending = false;

  /**
   * `schedule` decides when listeners hear about changes. The app passes requestAnimationFrame, so
   * several batches arriving within one frame cost one render; tests use the default (at once).
   */
  constructor(
    callCapacity?: number,
    private readonly schedule?: (notify: () => void) => void,
  ) {
    this.log = new CallLog(callCapacity);
    this.#snapshot = {
      connection: {state: 'connecting'},
      ready: false,
      server: undefined,
      tools: EMPTY_TOOLS,
      pages: [],
      browser: undefined,
      clients: [],
      expiredSessions: [],
      webmcpTools: [],
      webmcpInvocations: [],
      telemetry: [],
      log: {version: 0, size: 0, serverDropped: 0, uiDropped: 0},
      lastActedOn: undefined,
      offline: undefined,
      lastSeq: 0,
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): InspectorSnapshot => this.#snapshot;

  #set(patch: Partial<InspectorSnapshot>): void {
    this.#snapshot = {...this.#snapshot, ...patch};
    if (!this.schedule) {
      this.#notify();
      return;
    }
    if (!this.#notifyPending) {
      this.#notifyPending = true;
      this.schedule(() => {
        this.#notifyPending = false;
        this.#notify();
      });
    }
  }

  #notify(): void {
    for (const listener of this.#listeners) {
      listener();
    }
  }

  setConnection(connection: ConnectionStatus): void {
    this.#set({connection});
  }

  applyState(state: InspectorState): void {
    for (const client of state.clients) {
      this.#stateCalls.set(client.id, client.calls);
    }
    this.#set({
      ready: true,
      server: {
        serverVersion: state.serverVersion,
        ...(state.mcpUrl === undefined ? {} : {mcpUrl: state.mcpUrl}),
        ...(state.inspectorUrl === undefined ? {} : {inspectorUrl: state.inspectorUrl}),
        ...(state.telemetryLogPath === undefined ? {} : {telemetryLogPath: state.telemetryLogPath}),
      },
      tools: {
        slim: state.slim,
        categories: state.categories,
        conditions: state.conditions ?? [],
        tools: state.tools,
      },
      pages: state.pages,
      browser: state.browser,
      clients: state.clients.map(client => ({
        ...client,
        calls: Math.max(client.calls, this.#callsByClient.get(client.id) ?? 0),
      })),
      webmcpTools: state.webmcpTools,
    });
  }

  /** Applies one batch from the live stream and notifies once. */
  applyBatch(batch: EventBatch): void {
    const patch: Partial<InspectorSnapshot> = {};
    if (batch.streamId !== undefined && batch.streamId !== this.#streamId) {
      if (this.#streamId !== undefined) {
        // The server restarted: its sequence ids start over and old running calls never end.
        this.log.abandonRunning('The server restarted before this call ended.');
        this.#callsByClient.clear();
        this.#stateCalls.clear();
        patch.clients = [];
        patch.lastSeq = 0;
      }
      this.#streamId = batch.streamId;
    }
    let lastSeq = patch.lastSeq ?? this.#snapshot.lastSeq;
    let telemetry: TelemetryEntry[] | undefined;
    let invocations: WebMcpInvocation[] | undefined;
    let clients: ConnectedClient[] | undefined = patch.clients?.slice();
    let webmcpTools: WebMcpToolView[] | undefined;
    for (const envelope of batch.events) {
      if (envelope.seq <= lastSeq) {
        continue;
      }
      lastSeq = envelope.seq;
      const {event} = envelope;
      switch (event.type) {
        case 'toolCallStarted': {
          this.log.started(event, envelope.seq, envelope.time);
          const count = (this.#callsByClient.get(event.client.id) ?? 0) + 1;
          this.#callsByClient.set(event.client.id, count);
          clients ??= this.#snapshot.clients.slice();
          const index = clients.findIndex(client => client.id === event.client.id);
          const existing = clients[index];
          if (existing) {
            clients[index] = {
              ...existing,
              calls: Math.max(this.#stateCalls.get(existing.id) ?? 0, count),
            };
          }
          break;
        }
        case 'toolCallEnded': {
          this.log.ended(event, envelope.seq, envelope.time);
          if (event.actedOn) {
            patch.lastActedOn = {
              ...event.actedOn,
              callId: event.callId,
              tool: event.tool,
              receivedAt: Date.now(),
            };
          }
          break;
        }
        case 'toolsChanged':
          patch.tools = {
            slim: event.slim,
            categories: event.categories,
            conditions: event.conditions ?? [],
            tools: event.tools,
          };
          break;
        case 'pagesChanged':
          patch.pages = event.pages;
          break;
        case 'browserStatus':
          patch.browser = event.status;
          break;
        case 'clientConnected': {
          clients ??= this.#snapshot.clients.slice();
          if (!clients.some(client => client.id === event.client.id)) {
            clients.push({
              ...event.client,
              connectedAt: envelope.time,
              calls: this.#callsByClient.get(event.client.id) ?? 0,
            });
          }
          break;
        }
        case 'clientDisconnected':
          clients ??= this.#snapshot.clients.slice();
          clients = clients.filter(client => client.id !== event.clientId);
          break;
        case 'sessionExpired':
          clients ??= this.#snapshot.clients.slice();
          clients = clients.filter(client => client.id !== event.client.id);
          patch.expiredSessions = [
            ...(patch.expiredSessions ?? this.#snapshot.expiredSessions),
            {client: event.client, reason: event.reason, idleMs: event.idleMs, at: envelope.time},
          ].slice(-EXPIRED_SESSION_CAPACITY);
          break;
        case 'telemetry':
          telemetry ??= this.#snapshot.telemetry.slice();
          telemetry.push({
            seq: envelope.seq,
            time: envelope.time,
            ...(event.callId === undefined ? {} : {callId: event.callId}),
            record: event.record,
          });
          break;
        case 'webmcpToolsChanged':
          webmcpTools ??= this.#snapshot.webmcpTools.slice();
          webmcpTools = [
            ...webmcpTools.filter(tool => tool.pageId !== event.pageId),
            ...event.tools,
          ];
          break;
        case 'webmcpInvocation': {
          invocations ??= this.#snapshot.webmcpInvocations.slice();
          const index = invocations.findIndex(
            invocation => invocation.invocationId === event.invocation.invocationId,
          );
          if (index === -1) {
            invocations.push(event.invocation);
          } else {
            invocations[index] = event.invocation;
          }
          break;
        }
      }
    }
    if (telemetry) {
      patch.telemetry =
        telemetry.length > TELEMETRY_CAPACITY ? telemetry.slice(-TELEMETRY_CAPACITY) : telemetry;
    }
    if (invocations) {
      patch.webmcpInvocations =
        invocations.length > WEBMCP_INVOCATION_CAPACITY
          ? invocations.slice(-WEBMCP_INVOCATION_CAPACITY)
          : invocations;
    }
    if (clients) {
      patch.clients = clients;
    }
    if (webmcpTools) {
      patch.webmcpTools = webmcpTools;
    }
    patch.lastSeq = lastSeq;
    patch.log = this.#logSlice(batch.dropped);
    this.#set(patch);
  }

  #logSlice(serverDropped: number): LogSlice {
    const current = this.#snapshot.log;
    if (
      current.version === this.log.version &&
      current.serverDropped === serverDropped &&
      current.uiDropped === this.log.dropped
    ) {
      return current;
    }
    return {
      version: this.log.version,
      size: this.log.size,
      serverDropped,
      uiDropped: this.log.dropped,
    };
  }

  clearLog(): void {
    this.log.clear();
    this.#set({log: this.#logSlice(this.#snapshot.log.serverDropped), telemetry: []});
  }

  openOffline(session: OfflineSession | undefined): void {
    this.#set({offline: session});
  }

  /** Every event the UI holds for the live session, for export: calls and telemetry records. */
  exportEvents(): EventEnvelope[] {
    return eventsOf(this.log, this.#snapshot.telemetry);
  }
}

/** Rebuilds the events of a log (start and end of each call, then telemetry) in sequence order. */
export function eventsOf(log: CallLog, telemetry: readonly TelemetryEntry[]): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  for (const record of log.records()) {
    events.push({
      seq: record.seq,
      time: record.startedAt,
      event: {
        type: 'toolCallStarted',
        callId: record.callId,
        tool: record.tool,
        args: record.args,
        client: record.client,
        ...(record.pageId === undefined ? {} : {pageId: record.pageId}),
      },
    });
    if (record.status !== 'running' && record.result) {
      events.push({
        seq: record.endSeq ?? record.seq,
        time: record.endedAt ?? record.startedAt,
        event: {
          type: 'toolCallEnded',
          callId: record.callId,
          tool: record.tool,
          status: record.status,
          durationMs: record.durationMs ?? 0,
          result: record.result,
          ...(record.errorText === undefined ? {} : {errorText: record.errorText}),
          ...(record.pageId === undefined ? {} : {pageId: record.pageId}),
          ...(record.actedOn ? {actedOn: record.actedOn} : {}),
          ...(record.telemetry ? {telemetry: record.telemetry} : {}),
        },
      });
    }
  }
  for (const entry of telemetry) {
    events.push({
      seq: entry.seq,
      time: entry.time,
      event: {
        type: 'telemetry',
        ...(entry.callId === undefined ? {} : {callId: entry.callId}),
        record: entry.record,
      },
    });
  }
  events.sort((a, b) => a.seq - b.seq);
  return events;
}
