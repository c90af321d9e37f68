import type {
  ClientRef,
  EventBatch,
  EventEnvelope,
  InspectorEvent,
  WebMcpInvocation,
  WebMcpToolInfo,
} from '../../src/shared/protocol.js';
import type {TelemetryRecord} from '../../src/shared/telemetry.js';

export const AGENT: ClientRef = {
  id: 'agent-1',
  name: 'claude-code',
  version: '2.1',
  transport: 'http',
};
export const OTHER: ClientRef = {id: 'agent-2', name: 'cursor', version: '1.0', transport: 'http'};

export function record(tool: string, success = true): TelemetryRecord {
  return {
    os_type: 3,
    mcp_client: 1,
    app_version: 'test',
    session_id: 's',
    tool_invocation: {tool_name: tool, success, latency_ms: 50},
  };
}

export function startedEvent(
  callId: string,
  tool: string,
  client: ClientRef = AGENT,
  args: Record<string, unknown> = {},
): InspectorEvent {
  return {type: 'toolCallStarted', callId, tool, args, client};
}

export function endedEvent(
  callId: string,
  tool: string,
  status: 'ok' | 'error' | 'cancelled' = 'ok',
  text = `${tool} done`,
): InspectorEvent {
  return {
    type: 'toolCallEnded',
    callId,
    tool,
    status,
    durationMs: 12,
    result: {text, images: []},
    ...(status === 'error' ? {errorText: `Error: ${tool} failed`} : {}),
    telemetry: record(tool, status !== 'error'),
  };
}

export function batchOf(
  events: InspectorEvent[],
  firstSeq: number,
  streamId = 'stream-1',
): EventBatch {
  const envelopes: EventEnvelope[] = events.map((event, index) => ({
    seq: firstSeq + index,
    time: 1_700_000_000_000 + firstSeq + index,
    event,
  }));
  return {events: envelopes, dropped: 0, nextSeq: firstSeq + events.length, streamId};
}

/** A page's WebMCP tool (the main frame of page 1 unless overridden). */
export function webmcpTool(overrides: Partial<WebMcpToolInfo> = {}): WebMcpToolInfo {
  return {
    pageId: 1,
    frameId: 'MAIN',
    frameUrl: 'http://127.0.0.1/',
    origin: 'http://127.0.0.1',
    name: 'echo',
    description: 'Echoes.',
    annotations: {},
    declarative: false,
    mainFrame: true,
    ...overrides,
  };
}

/** An invocation of the echo tool by this app, running unless overridden. */
export function webmcpInvocation(overrides: Partial<WebMcpInvocation> = {}): WebMcpInvocation {
  return {
    invocationId: 'A',
    pageId: 1,
    frameId: 'MAIN',
    toolName: 'echo',
    input: '{}',
    invoker: {kind: 'inspector'},
    status: 'running',
    startedAt: 1,
    ...overrides,
  };
}
