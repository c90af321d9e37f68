/**
 * Re-runs a recording's tool calls, in the order they started, against a browser (a fresh
 * one for the `replay` command, the live one from the UI), and says per call whether the outcome
 * was the same, different (with the diff) or failed. Every call is replayed, whichever client
 * made it: a call from the inspector's Run panel changed the browser as much as an agent's did,
 * and the calls after it depend on that. A page the recording says a call opened is waited for
 * (bounded) before the next call; a navigation that cannot reach the recorded origin ends the
 * replay there, saying which origin it was.
 */
import type {ElementPath} from '../../../shared/elementParams.js';
import type {ReplayCallReport, ReplaySummary} from '../../../shared/protocol.js';
import {errorText} from '../../../shared/values.js';
import {mapCallArguments, ReplayMappingError, type ReplayPages} from './args.js';
import type {recordedCalls} from './calls.js';
import {type RecordedCall} from './calls.js';
import {comparableTexts, normaliseResultText, lineDiff} from './compare.js';
import {ReplayPageMap} from './pages.js';

/** The client name replayed calls carry in the log. */
export const REPLAY_CLIENT_NAME = 'Replay';

/** How long a replay waits for a page the recorded call opened (a popup) to show up. */
export const OPENED_PAGE_WAIT_MS = 5_000;

export type ReplayOutcome = ReplayCallReport['outcome'];

export type {ReplayCallReport, ReplaySummary};

export interface ReplayTarget {
  /** Runs one call through the tool pipeline as the replay's client. */
  runTool(tool: string, args: Record<string, unknown>): Promise<{text: string; isError: boolean}>;
  /** The replay client's pages (its own selection). */
  pages: ReplayPages;
  /** Where a tool takes element uids, from its record (undefined: no such tool). */
  elementPaths(tool: string): readonly ElementPath[] | undefined;
  /** Starts the browser if it is not running (a call that names a page needs it first). */
  ensureBrowser(): Promise<void>;
  /** Calls the listener when a page is added (a popup the call opened); returns the unsubscribe. */
  onPageAdded(listener: () => void): () => void;
}

export interface ReplayOptions {
  /** Replay calls 1..untilCall only. */
  untilCall?: number;
  onCall?: (report: ReplayCallReport) => void;
  signal?: AbortSignal;
  /** What to say after "the origin … could not be reached" (the CLI names --origin). */
  unreachableHint?: (origin: string) => string;
}

/** A replayed navigation that could not reach its server (not a page that answered badly). */
const UNREACHABLE =
  /net::(ERR_CONNECTION_REFUSED|ERR_NAME_NOT_RESOLVED|ERR_ADDRESS_UNREACHABLE|ERR_CONNECTION_TIMED_OUT|ERR_CONNECTION_RESET|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE|ERR_INTERNET_DISCONNECTED) at (\S+?)\.?$/m;

/** The origin a replayed call could not reach when the recorded call did, if that happened. */
function unreachableOrigin(call: RecordedCall, replayedText: string): string | undefined {
  const match = UNREACHABLE.exec(replayedText);
  if (!match || UNREACHABLE.test(call.ended?.text ?? '')) {
    return undefined;
  }
  try {
    return `${new URL(match[2] ?? '').origin} (${match[1] ?? ''})`;
  } catch {
    return undefined;
  }
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
    diff: lineDiff(before, after),
  };
}

/** Waits (bounded) until the pages the recorded call opened have replay pages to pair with. */
async function waitForOpenedPages(
  call: RecordedCall,
  target: ReplayTarget,
  pageMap: ReplayPageMap,
): Promise<void> {
  const wanted = pageMap.unpaired(call.newPageIds);
  const enough = (): boolean =>
    pageMap.freshCount(target.pages.list().map(page => page.id)) >= wanted;
  if (wanted === 0 || enough()) {
    return;
  }
  await new Promise<void>(resolve => {
    const done = (): void => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const check = (): void => {
      if (enough()) {
        done();
      }
    };
    const timer = setTimeout(done, OPENED_PAGE_WAIT_MS);
    const unsubscribe = target.onPageAdded(check);
  });
}

interface CallRun {
  report: ReplayCallReport;
  /** Set when the call could not reach the recorded origin: the replay stops there. */
  unreachable?: string;
}

async function replayOne(
  call: RecordedCall,
  target: ReplayTarget,
  pageMap: ReplayPageMap,
  options: ReplayOptions,
): Promise<CallRun> {
  const started = performance.now();
  let verdict: Partial<ReplayCallReport>;
  let unreachable: string | undefined;
  try {
    const named = call.args.pageId;
    if (typeof named === 'number' && pageMap.get(named) === undefined) {
      await target.ensureBrowser();
      pageMap.pairNamed(
        named,
        target.pages.list().map(page => page.id),
      );
    }
    const mapped = await mapCallArguments(
      call,
      pageMap,
      target.pages,
      target.elementPaths(call.tool),
    );
    const result = await target.runTool(call.tool, mapped.args);
    unreachable = unreachableOrigin(call, result.text);
    verdict =
      unreachable === undefined
        ? compare(call, result.text, result.isError)
        : {
            outcome: 'failed',
            replayedStatus: result.isError ? 'error' : 'ok',
            reason: `The recording's origin ${unreachable} could not be reached.${options.unreachableHint === undefined ? '' : ` ${options.unreachableHint(unreachable.split(' ')[0] ?? '')}`}`,
          };
    await waitForOpenedPages(call, target, pageMap);
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
  const report: ReplayCallReport = {
    index: call.index,
    tool: call.tool,
    client: call.client.name,
    recordedStatus: call.ended?.status ?? 'unfinished',
    ...(call.ended ? {recordedMs: call.ended.durationMs} : {}),
    outcome: verdict.outcome ?? 'failed',
    replayedStatus: verdict.replayedStatus ?? 'error',
    ...(verdict.reason === undefined ? {} : {reason: verdict.reason}),
    ...(verdict.diff === undefined ? {} : {diff: verdict.diff}),
    replayMs: Math.round((performance.now() - started) * 100) / 100,
  };
  return {report, ...(unreachable === undefined ? {} : {unreachable})};
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
  let stopped: string | undefined;
  for (const call of selected) {
    if (options.signal?.aborted) {
      break;
    }
    const {report, unreachable} = await replayOne(call, target, pageMap, options);
    reports.push(report);
    options.onCall?.(report);
    if (unreachable !== undefined) {
      const left = selected.length - reports.length;
      stopped = `Stopped after call #${call.index}: ${unreachable.split(' ')[0] ?? ''} could not be reached, so the ${left} call(s) after it were not run.`;
      break;
    }
  }
  return {calls: reports, summary: summarise(reports, stopped)};
}

export function summarise(reports: readonly ReplayCallReport[], stopped?: string): ReplaySummary {
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
    ...(stopped === undefined ? {} : {stopped}),
  };
}
