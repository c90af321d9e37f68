/**
 * Re-runs a recording's tool calls, in the order they started, against a browser (a fresh
 * one for the `replay` command, the live one from the UI), and says per call whether the outcome
 * was the same, different (with a short diff) or failed. Every call is replayed, whichever client
 * made it: a call from the inspector's Run panel changed the browser as much as an agent's did,
 * and the calls after it depend on that.
 */
import type {ReplayCallReportView, ReplaySummaryView} from '../../shared/protocol.js';
import type {ElementPath} from '../../shared/elementParams.js';
import {errorText} from '../../shared/values.js';
import {mapCallArguments, ReplayMappingError, type ReplayPages} from './replayArgs.js';
import type {recordedCalls} from './replayCalls.js';
import {type RecordedCall} from './replayCalls.js';
import {comparableTexts, normaliseResultText, shortDiff} from './replayCompare.js';
import {ReplayPageMap} from './replayPages.js';

/** The client name replayed calls carry in the log. */
export const REPLAY_CLIENT_NAME = 'Replay';

export type ReplayOutcome = ReplayCallReport['outcome'];

export type ReplayCallReport = ReplayCallReportView;
export type ReplaySummary = ReplaySummaryView;

export interface ReplayTarget {
  /** Runs one call through the tool pipeline as the replay's client. */
  runTool(tool: string, args: Record<string, unknown>): Promise<{text: string; isError: boolean}>;
  /** The replay client's view of the pages (its own selection). */
  pages: ReplayPages;
  /** Where a tool takes element uids, from its record (undefined: no such tool). */
  elementPaths(tool: string): readonly ElementPath[] | undefined;
}

export interface ReplayOptions {
  /** Replay calls 1..untilCall only. */
  untilCall?: number;
  onCall?: (report: ReplayCallReport) => void;
  signal?: AbortSignal;
}

function compare(call: RecordedCall, text: string, isError: boolean): Partial<ReplayCallReport> {
  const replayedStatus = isError ? 'error' : 'ok';
  const ended = call.ended;
  if (!ended) {
    return {
      outcome: 'different',
      replayedStatus,
      reason: 'The recording ends before this call did, so there is nothing to compare with.',
    };
  }
  const texts = comparableTexts(ended.text, text, ended.textCut);
  const before = normaliseResultText(texts.before);
  const after = normaliseResultText(texts.after);
  if (ended.status === replayedStatus && before === after) {
    return {outcome: 'same', replayedStatus};
  }
  const failed = replayedStatus === 'error' && ended.status !== 'error';
  return {
    outcome: failed ? 'failed' : 'different',
    replayedStatus,
    ...(ended.status === replayedStatus
      ? {}
      : {reason: `The recorded call ended ${ended.status}, the replay ${replayedStatus}.`}),
    diff: shortDiff(before, after),
  };
}

async function replayOne(
  call: RecordedCall,
  target: ReplayTarget,
  pageMap: ReplayPageMap,
): Promise<ReplayCallReport> {
  const started = performance.now();
  const base = {
    index: call.index,
    tool: call.tool,
    client: call.client.name,
    recordedStatus: call.ended?.status ?? 'unfinished',
    ...(call.ended ? {recordedMs: call.ended.durationMs} : {}),
  };
  let verdict: Partial<ReplayCallReport>;
  try {
    const mapped = await mapCallArguments(
      call,
      pageMap,
      target.pages,
      target.elementPaths(call.tool),
    );
    const result = await target.runTool(call.tool, mapped.args);
    verdict = compare(call, result.text, result.isError);
  } catch (error) {
    verdict = {
      outcome: 'failed',
      replayedStatus: error instanceof ReplayMappingError ? 'not run' : 'error',
      reason: errorText(error),
    };
  }
  pageMap.afterCall(
    call.newPageIds,
    target.pages.list().map(page => page.id),
  );
  return {
    ...base,
    outcome: verdict.outcome ?? 'failed',
    replayedStatus: verdict.replayedStatus ?? 'error',
    ...(verdict.reason === undefined ? {} : {reason: verdict.reason}),
    ...(verdict.diff === undefined ? {} : {diff: verdict.diff}),
    replayMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** The per-call reports and the summary; `untilCall` stops after that call. */
export async function replayRecordedCalls(
  recorded: ReturnType<typeof recordedCalls>,
  target: ReplayTarget,
  options: ReplayOptions = {},
): Promise<{calls: ReplayCallReport[]; summary: ReplaySummary}> {
  const pageMap = new ReplayPageMap(
    target.pages.list().map(page => page.id),
    recorded.initialPageIds,
  );
  const selected = recorded.calls.filter(
    call => options.untilCall === undefined || call.index <= options.untilCall,
  );
  const reports: ReplayCallReport[] = [];
  for (const call of selected) {
    if (options.signal?.aborted) {
      break;
    }
    const report = await replayOne(call, target, pageMap);
    reports.push(report);
    options.onCall?.(report);
  }
  return {calls: reports, summary: summarise(reports)};
}

export function summarise(reports: readonly ReplayCallReport[]): ReplaySummary {
  const count = (outcome: ReplayOutcome): number =>
    reports.filter(report => report.outcome === outcome).length;
  const round = (value: number): number => Math.round(value * 100) / 100;
  return {
    total: reports.length,
    same: count('same'),
    different: count('different'),
    failed: count('failed'),
    recordedMs: round(reports.reduce((sum, report) => sum + (report.recordedMs ?? 0), 0)),
    replayMs: round(reports.reduce((sum, report) => sum + report.replayMs, 0)),
  };
}
