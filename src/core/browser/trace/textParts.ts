/**
 * Small pieces of trace text shared by the summary and the insight details: the engine's
 * untranslated UI strings filled in, durations, sizes, trace bounds, one request, savings.
 */
import type * as TraceEngine from '@paulirish/trace_engine';
import {isRecord} from '../../../shared/values.js';
import type {AnalysedTrace, InsightSet} from './engine.js';

export type Models = TraceEngine.Insights.Types.InsightModels;
export type AnyInsight = NonNullable<Models[keyof Models]>;
export type NetworkRequest = TraceEngine.Types.Events.SyntheticNetworkRequest;
export type TraceWindow = TraceEngine.Types.Timing.TraceWindowMicro;
export type CriticalRequestNode =
  TraceEngine.Insights.Models.NetworkDependencyTree.CriticalRequestNode;

export interface UiString {
  i18nId: string;
  values?: Readonly<Record<string, unknown>> | undefined;
}

function isUiString(value: unknown): value is UiString {
  return isRecord(value) && typeof value.i18nId === 'string';
}

function placeholderText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') {
    return String(value);
  }
  if (isUiString(value)) {
    return uiText(value);
  }
  return value === undefined ? '' : JSON.stringify(value);
}

/** The engine leaves strings untranslated (`{i18nId, values}`); fill in the placeholders. */
export function uiText(value: UiString): string {
  const values = value.values ?? {};
  return value.i18nId.replace(/\{(\w+)\}/g, (match, key: string) =>
    key in values ? placeholderText(values[key]) : match,
  );
}

export function ms(micro: number): string {
  const milli = micro / 1000;
  return milli < 10 ? `${milli.toFixed(1)} ms` : `${Math.round(milli)} ms`;
}

export function milli(value: number): string {
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

export function bytes(value: number): string {
  if (value < 1_000) {
    return `${Math.round(value)} B`;
  }
  if (value < 1_000_000) {
    return `${(value / 1_000).toFixed(1)} kB`;
  }
  return `${(value / 1_000_000).toFixed(1)} MB`;
}

export function bounds(window: {min: number; max: number}): string {
  return `{min: ${Math.round(window.min)}µs, max: ${Math.round(window.max)}µs}`;
}

export function requestLine(request: NetworkRequest): string {
  const data = request.args.data;
  const parts = [
    data.statusCode ? String(data.statusCode) : 'no response',
    `${data.priority} priority`,
    ms(request.dur),
    bytes(data.encodedDataLength),
  ];
  if (data.protocol) {
    parts.push(data.protocol);
  }
  return `${data.url} (${parts.join(', ')})`;
}

/** The engine uses iterator helpers (Node.js 22+); older Node.js fails a few insights with them. */
export function failureHint(error: Error): string {
  const major = Number(process.versions.node.split('.')[0]);
  return major < 22 && error instanceof TypeError
    ? ` (the trace engine needs Node.js 22 or newer for this; the server runs on Node.js ${process.versions.node})`
    : '';
}

export function modelEntries(set: InsightSet): [string, AnyInsight][] {
  const entries: [string, AnyInsight][] = [];
  for (const [name, model] of Object.entries(set.model)) {
    entries.push([name, model]);
  }
  return entries;
}

export function insightBoundsOf(
  analysed: AnalysedTrace,
  model: AnyInsight,
  set: InsightSet,
): TraceWindow {
  try {
    return analysed.engine.Insights.Common.insightBounds(model, set.bounds);
  } catch {
    // Some overlays need newer JavaScript (iterator helpers) than Node 20 has.
    return set.bounds;
  }
}

export function savingsText(model: AnyInsight): string | undefined {
  const savings = model.metricSavings;
  if (!savings) {
    return undefined;
  }
  const parts: string[] = [];
  for (const metric of ['FCP', 'LCP', 'TBT', 'INP'] as const) {
    const value = savings[metric];
    if (value !== undefined && value > 0) {
      parts.push(`${metric} ${milli(value)}`);
    }
  }
  if (savings.CLS !== undefined && savings.CLS > 0) {
    parts.push(`CLS ${savings.CLS.toFixed(2)}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
