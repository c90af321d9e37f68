/**
 * The one external store of the UI (read with useSyncExternalStore). The engine is the source of
 * truth: this mirrors it from `getState` plus the event stream, applies each batch at once and
 * notifies React once per batch. Every slice is an immutable object replaced only when it changes,
 * so selectors stay cheap; the call log itself is the mutable, versioned CallLog.
 */
import type {ConnectionStatus} from '../../../shared/connection.js';
import type {
  BrowserStatus,
  CategoryState,
  ClosedClient,
  ConditionState,
  ConnectedClient,
  EventBatch,
  EventEnvelope,
  InspectorEvent,
  InspectorState,
  PageInfo,
  ToolInfo,
  WebMcpInvocation,
  WebMcpToolInfo,
} from '../../../shared/protocol.js';
import type {HoldState} from '../../../shared/hold.js';
import {
  handleEvent,
  type EventHandlers,
  type InspectorEventType,
} from '../../../shared/eventTable.js';
import {applyWebMcpToolsChanged} from '../../../shared/webmcpToolsChange.js';
import {type ActedOn, CallLog} from './CallLog.js';
import {applyClientEvent, type ClientEvent, type ClientsSlice} from './clients.js';
import {HoldTracker, type HoldEvent, type HoldSlice} from './HoldTracker.js';
import {eventsOf} from './logEvents.js';
import {applyReplayEvent, type ReplayProgress} from './replays.js';
import {telemetryEntry, type TelemetryEntry} from './telemetryEntry.js';
import {ClientStyler, type ClientStyles, type ColorMemory} from '../ui/clientStyles.js';

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

export interface LogSlice {
  /** Bumps on every change of the live log (append, end, clear). */
  version: number;
  size: number;
  /** Events the server's bounded store evicted before this UI saw them. */
  serverDropped: number;
  /** Calls this UI trimmed to stay within its own bound. */
  uiDropped: number;
  /** Events the server could not keep as they were (malformed or past every bound). */
  serverOmitted: number;
}

export interface OfflineRecording {
  fileName: string;
  log: CallLog;
  telemetry: readonly TelemetryEntry[];
  /** When the Log panel exported it (epoch ms), for a file it saved. */
  exportedAt?: number;
  serverVersion?: string;
  /** Opened from the Recordings panel (a recording on the server or a file), read-only. */
  recorded?: boolean;
  /** Its id on the server (undefined for a file from elsewhere). */
  recordingId?: string;
  /** Still reading the rest of the file (the first rows show before). */
  loading?: boolean;
  /** Fetches a recorded image by its file name (recordings on the server only). */
  loadImage?: (file: string) => Promise<{mimeType: string; data: string} | undefined>;
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
  /** Open client sessions (live or not), store/clients.ts. */
  clients: readonly ConnectedClient[];
  /** Client sessions that ended, with when and why, newest first (bounded). */
  closedClients: readonly ClosedClient[];
  /** Each client's colour and session number, by client id (ui/clientStyles.ts). */
  clientStyles: ClientStyles;
  /** New client sessions get a browser context of their own (--isolateClients or the switch). */
  isolateClients: boolean;
  webmcpTools: readonly WebMcpToolInfo[];
  /** Latest state of each WebMCP invocation, oldest first (bounded). */
  webmcpInvocations: readonly WebMcpInvocation[];
  telemetry: readonly TelemetryEntry[];
  log: LogSlice;
  lastActedOn: LastActedOn | undefined;
  /** Hold rules and the queue of held calls (undefined until the server said). */
  hold: HoldSlice | undefined;
  /** Replays of recordings seen in the stream, newest last (bounded, replays.ts). */
  replays: readonly ReplayProgress[];
  offline: OfflineRecording | undefined;
  /** Last sequence id applied from the live stream (0 before any). */
  lastSeq: number;
}

const TELEMETRY_CAPACITY = 5_000;
const WEBMCP_INVOCATION_CAPACITY = 1_000;

const EMPTY_TOOLS: ToolsSlice = {slim: false, categories: [], conditions: [], tools: []};

/** What one batch changes, gathered so the snapshot is replaced (and React told) once. */
interface BatchChanges {
  patch: Partial<InspectorSnapshot>;
  clients?: ClientsSlice;
  /** Clients the batch named (a session connected, a call started). */
  seenClients?: {id: string; name: string}[];
  telemetry?: TelemetryEntry[];
  invocations?: WebMcpInvocation[];
  webmcpTools?: WebMcpToolInfo[];
  replays?: ReplayProgress[];
}

/** Replaces the invocation's earlier state, or adds it. */
function upsertInvocation(invocations: WebMcpInvocation[], invocation: WebMcpInvocation): void {
  const index = invocations.findIndex(
    existing => existing.invocationId === invocation.invocationId,
  );
  if (index === -1) {
    invocations.push(invocation);
  } else {
    invocations[index] = invocation;
  }
}

function toolsSlice(
  event: Omit<ToolsSlice, 'conditions'> & {conditions?: ConditionState[]},
): ToolsSlice {
  return {
    slim: event.slim,
    categories: event.categories,
    conditions: event.conditions ?? [],
    tools: event.tools,
  };
}

function lastActedOn(actedOn: ActedOn, call: {callId: string; tool: string}): LastActedOn {
  return {...actedOn, callId: call.callId, tool: call.tool, receivedAt: Date.now()};
}

export class InspectorStore {
  readonly log: CallLog;
  #snapshot: InspectorSnapshot;
  readonly #listeners = new Set<() => void>();
  /** Calls seen per client id in the stream (the state's count can be older). */
  readonly #callsByClient = new Map<string, number>();
  /** Calls per client as of the last getState (covers calls evicted before this UI saw them). */
  readonly #stateCalls = new Map<string, number>();
  #streamId: string | undefined;
  readonly #hold: HoldTracker;
  readonly #styler: ClientStyler;
  #serverOmitted = 0;
  #notifyPending = false;

  /**
   * `schedule` decides when listeners hear about changes. The app passes requestAnimationFrame, so
   * several batches arriving within one frame cost one render; tests use the default (at once).
   */
  constructor(
    callCapacity?: number,
    private readonly schedule?: (notify: () => void) => void,
    /** Where client colours are remembered between runs (the browser's storage). */
    colorMemory?: ColorMemory,
  ) {
    this.log = new CallLog(callCapacity);
    this.#hold = new HoldTracker(this.log);
    this.#styler = new ClientStyler(colorMemory);
    this.#snapshot = {
      connection: {state: 'connecting'},
      ready: false,
      server: undefined,
      tools: EMPTY_TOOLS,
      pages: [],
      browser: undefined,
      clients: [],
      closedClients: [],
      clientStyles: this.#styler.styles,
      isolateClients: false,
      webmcpTools: [],
      webmcpInvocations: [],
      telemetry: [],
      log: {version: 0, size: 0, serverDropped: 0, uiDropped: 0, serverOmitted: 0},
      lastActedOn: undefined,
      hold: undefined,
      replays: [],
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
      tools: toolsSlice(state),
      pages: state.pages,
      browser: state.browser,
      clients: state.clients.map(client => ({
        ...client,
        calls: Math.max(client.calls, this.#callsByClient.get(client.id) ?? 0),
      })),
      // Sessions numbered in the order they connected, ended ones included.
      clientStyles: this.#styler.note(
        [...state.clients, ...(state.closedClients ?? [])].sort(
          (a, b) => a.connectedAt - b.connectedAt,
        ),
        state.clients.filter(client => client.live !== false),
      ),
      closedClients: state.closedClients ?? [],
      isolateClients: state.isolateClients ?? false,
      webmcpTools: state.webmcpTools,
    });
  }

  /** The hold state was asked for (holdGetState): hold events wait for the answer. */
  expectHold(): void {
    this.#hold.expectState();
  }

  /** The hold state as the server answered it, with the hold events after it applied. */
  applyHold(state: HoldState): void {
    this.#set({hold: this.#hold.applyState(state)});
  }

  /** Applies one batch from the live stream and notifies once. */
  applyBatch(batch: EventBatch): void {
    const changes: BatchChanges = {patch: {}};
    if (batch.streamId !== undefined && batch.streamId !== this.#streamId) {
      if (this.#streamId !== undefined) {
        // The server restarted: its sequence ids start over and old running calls never end.
        this.log.abandonRunning('The server restarted before this call ended.');
        this.#callsByClient.clear();
        this.#stateCalls.clear();
        changes.clients = {clients: [], closed: this.#snapshot.closedClients};
        changes.replays = this.#snapshot.replays.map(replay =>
          replay.finished
            ? replay
            : {...replay, finished: true, error: 'The server restarted before this replay ended.'},
        );
        changes.patch.lastSeq = 0;
      }
      this.#streamId = batch.streamId;
    }
    let lastSeq = changes.patch.lastSeq ?? this.#snapshot.lastSeq;
    for (const envelope of batch.events) {
      if (envelope.seq > lastSeq) {
        lastSeq = envelope.seq;
        this.#applyEvent(changes, envelope);
      }
    }
    const {patch, telemetry, invocations, clients, webmcpTools, replays} = changes;
    if (telemetry) {
      patch.telemetry = telemetry.slice(-TELEMETRY_CAPACITY);
    }
    if (invocations) {
      patch.webmcpInvocations = invocations.slice(-WEBMCP_INVOCATION_CAPACITY);
    }
    if (clients) {
      patch.clients = clients.clients;
      patch.closedClients = clients.closed;
    }
    if (changes.seenClients || clients) {
      patch.clientStyles = this.#styler.note(
        changes.seenClients ?? [],
        (clients?.clients ?? this.#snapshot.clients).filter(client => client.live !== false),
      );
    }
    if (webmcpTools) {
      patch.webmcpTools = webmcpTools;
    }
    if (replays) {
      patch.replays = replays;
    }
    patch.lastSeq = lastSeq;
    patch.log = this.#logSlice(batch.dropped);
    this.#set(patch);
  }

  #applyEvent(changes: BatchChanges, {seq, time, event}: EventEnvelope): void {
    handleEvent(this.#handlers, event.type, event, changes, seq, time);
  }

  /** A client event (a call started counts too: its client's calls and last activity). */
  readonly #applyClientEvent = (
    event: ClientEvent | Extract<InspectorEvent, {type: 'isolateClientsChanged'}>,
    changes: BatchChanges,
    _seq: number,
    time: number,
  ): void => {
    if (event.type === 'isolateClientsChanged') {
      changes.patch.isolateClients = event.enabled;
      return;
    }
    if (event.type === 'toolCallStarted') {
      const count = (this.#callsByClient.get(event.client.id) ?? 0) + 1;
      this.#callsByClient.set(event.client.id, count);
    }
    if (event.type === 'toolCallStarted' || event.type === 'clientConnected') {
      (changes.seenClients ??= []).push(event.client);
    }
    const slice = changes.clients ?? {
      clients: this.#snapshot.clients,
      closed: this.#snapshot.closedClients,
    };
    const next = applyClientEvent(slice, event, time, clientId =>
      Math.max(this.#stateCalls.get(clientId) ?? 0, this.#callsByClient.get(clientId) ?? 0),
    );
    if (next !== slice) {
      changes.clients = next;
    }
  };

  readonly #applyHoldEvent = (
    event: HoldEvent,
    changes: BatchChanges,
    seq: number,
    time: number,
  ): void => {
    const hold = this.#hold.applyEvent(seq, event, time);
    if (hold) {
      changes.patch.hold = hold;
    }
  };

  /** How each event type changes a batch: one entry per type (shared/eventTable.ts). */
  readonly #handlers: EventHandlers<
    InspectorEventType,
    [changes: BatchChanges, seq: number, time: number]
  > = {
    toolCallStarted: (event, changes, seq, time) => {
      this.log.started(event, seq, time);
      this.#applyClientEvent(event, changes, seq, time);
    },
    toolCallEnded: (event, {patch}, seq, time) => {
      this.log.ended(event, seq, time);
      if (event.actedOn) {
        patch.lastActedOn = lastActedOn(event.actedOn, event);
      }
    },
    toolsChanged: (event, {patch}) => {
      patch.tools = toolsSlice(event);
    },
    pagesChanged: (event, {patch}) => {
      patch.pages = event.pages;
    },
    browserStatus: (event, {patch}) => {
      patch.browser = event.status;
    },
    clientConnected: this.#applyClientEvent,
    clientDisconnected: this.#applyClientEvent,
    clientSessionExpired: this.#applyClientEvent,
    clientActivity: this.#applyClientEvent,
    isolateClientsChanged: this.#applyClientEvent,
    telemetry: (event, changes, seq, time) => {
      (changes.telemetry ??= this.#snapshot.telemetry.slice()).push(
        telemetryEntry(seq, time, event),
      );
    },
    webmcpToolsChanged: (event, changes) => {
      changes.webmcpTools = applyWebMcpToolsChanged(
        changes.webmcpTools ?? this.#snapshot.webmcpTools,
        event,
      );
    },
    holdRulesChanged: this.#applyHoldEvent,
    holdOpenOnHeldChanged: this.#applyHoldEvent,
    callHeld: this.#applyHoldEvent,
    callHoldTarget: this.#applyHoldEvent,
    callHoldEnded: this.#applyHoldEvent,
    holdChanged: () => {
      // Whole states, in recordings of earlier versions only.
    },
    callActivity: event => this.log.attach(event),
    callScreenshots: event => this.log.attach(event),
    callElements: event => this.log.attach(event),
    webmcpInvocation: (event, changes) => {
      upsertInvocation(
        (changes.invocations ??= this.#snapshot.webmcpInvocations.slice()),
        event.invocation,
      );
    },
    eventOmitted: () => {
      // The server kept a note in its place: counted next to the events it dropped.
      this.#serverOmitted++;
    },
    replayProgress: (event, changes) => {
      applyReplayEvent((changes.replays ??= this.#snapshot.replays.slice()), event);
    },
    replayFinished: (event, changes) => {
      applyReplayEvent((changes.replays ??= this.#snapshot.replays.slice()), event);
    },
  };

  #logSlice(serverDropped: number): LogSlice {
    const current = this.#snapshot.log;
    if (
      current.version === this.log.version &&
      current.serverDropped === serverDropped &&
      current.uiDropped === this.log.dropped &&
      current.serverOmitted === this.#serverOmitted
    ) {
      return current;
    }
    return {
      version: this.log.version,
      size: this.log.size,
      serverDropped,
      uiDropped: this.log.dropped,
      serverOmitted: this.#serverOmitted,
    };
  }

  clearLog(): void {
    this.log.clear();
    this.#set({log: this.#logSlice(this.#snapshot.log.serverDropped), telemetry: []});
  }

  openOffline(recording: OfflineRecording | undefined): void {
    // A recording's clients get their colours (and numbers) too.
    const clientStyles = this.#styler.note(recording?.log.clients() ?? [], this.#snapshot.clients);
    this.#set({offline: recording, clientStyles});
  }

  /** Every event the UI holds for the live log, for export: calls and telemetry records. */
  exportEvents(): EventEnvelope[] {
    return eventsOf(this.log, this.#snapshot.telemetry);
  }
}
