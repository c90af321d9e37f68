/**
 * Trace analysis with the DevTools trace engine (@paulirish/trace_engine), loaded on first use so
 * server start-up does not pay for it.
 */
import type * as TraceEngine from '@paulirish/trace_engine';
import {errorText, isRecord} from '../../../shared/values.js';

export type TraceEngineModule = typeof TraceEngine;
export type ParsedTrace = TraceEngine.TraceModel.ParsedTrace;
export type InsightSet = TraceEngine.Insights.Types.InsightSet;
type TraceEvent = TraceEngine.Types.Events.Event;

export interface AnalysedTrace {
  parsed: ParsedTrace;
  /** The loaded engine, for its metric helpers when formatting. */
  engine: TraceEngineModule;
}

export interface TraceConditions {
  cpuThrottling?: number | undefined;
  networkThrottling?: string | undefined;
}

let loading: Promise<TraceEngineModule> | undefined;

function loadTraceEngine(): Promise<TraceEngineModule> {
  loading ??= import('@paulirish/trace_engine').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The fields every handler reads; anything else is the engine's business. */
function isTraceEvent(value: unknown): value is TraceEvent {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.ph === 'string' &&
    typeof value.ts === 'number' &&
    typeof value.pid === 'number' &&
    typeof value.tid === 'number'
  );
}

/** Chrome writes `{"traceEvents": […]}`; saved DevTools traces may also be a bare array. */
function traceEventsFrom(data: Buffer): TraceEvent[] {
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch (error) {
    const reason = errorText(error);
    throw new Error(
      `The trace (${Math.round(data.length / 1_000_000)} MB) could not be read as JSON: ${reason}. Record a shorter trace.`,
      {cause: error},
    );
  }
  const raw = Array.isArray(json) ? json : isRecord(json) ? json.traceEvents : undefined;
  if (!Array.isArray(raw)) {
    throw new Error('The trace has no traceEvents array.');
  }
  return raw.filter(isTraceEvent);
}

export async function analyseTrace(
  data: Buffer,
  conditions: TraceConditions,
): Promise<AnalysedTrace> {
  const events = traceEventsFrom(data);
  if (events.length === 0) {
    throw new Error('No trace events were recorded.');
  }
  const engine = await loadTraceEngine();
  // A fresh model per trace: a model keeps every trace it ever parsed.
  const model = engine.TraceModel.Model.createWithAllHandlers();
  await model.parse(events, {
    isFreshRecording: true,
    // Otherwise times inside insight texts stay unformatted placeholders.
    insightTimeFormatters: {milli: value => `${Math.round(value)} ms`},
    metadata: {
      ...(conditions.cpuThrottling === undefined ? {} : {cpuThrottling: conditions.cpuThrottling}),
      ...(conditions.networkThrottling === undefined
        ? {}
        : {networkThrottling: conditions.networkThrottling}),
    },
  });
  const parsed = model.parsedTrace();
  if (!parsed) {
    throw new Error('The trace engine returned no result for this trace.');
  }
  return {parsed, engine};
}
