/**
 * The replay report as the terminal shows it: one line per call (index, tool, outcome, times),
 * the reason or a short diff indented under it, then the summary. Recorded text is the page's and
 * the agent's; it is printed as data (control characters shown escaped), never interpreted.
 */
import type {ReplayCallReport, ReplaySummary} from './replayRecording.js';

const MARK: Record<ReplayCallReport['outcome'], string> = {
  same: 'same     ',
  different: 'DIFFERENT',
  failed: 'FAILED   ',
};

/** Bidi controls reorder what the terminal shows around them (ALM, LRM, RLM, embeddings, isolates). */
function isBidiControl(code: number): boolean {
  return (
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * Escapes control characters (terminal escapes included) so recorded text cannot drive a terminal;
 * line breaks stay unless `oneLine` (a tool name must not start a line of its own).
 */
export function inertText(text: string, oneLine = false): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const control =
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      code === 0x2028 ||
      code === 0x2029 ||
      isBidiControl(code);
    out +=
      control && (oneLine || char !== '\n') ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

function indent(text: string): string {
  return inertText(text)
    .split('\n')
    .map(line => `      ${line}`)
    .join('\n');
}

export function formatCallReport(report: ReplayCallReport): string {
  const times = `${report.replayMs.toFixed(0)} ms (recorded ${report.recordedMs?.toFixed(0) ?? '?'} ms)`;
  const lines = [
    `#${String(report.index).padStart(3)} ${MARK[report.outcome]} ${inertText(report.tool, true).padEnd(22)} ${times}`,
  ];
  if (report.reason !== undefined) {
    lines.push(indent(report.reason));
  }
  if (report.diff !== undefined) {
    lines.push(indent(report.diff));
  }
  return lines.join('\n');
}

export function formatSummary(summary: ReplaySummary): string {
  const ratio = summary.recordedMs > 0 ? summary.replayMs / summary.recordedMs : undefined;
  return [
    ...(summary.stopped === undefined ? [] : [inertText(summary.stopped, true)]),
    `Replayed ${summary.total} call(s): ${summary.same} same, ${summary.different} different, ${summary.failed} failed.`,
    `Time: ${summary.replayMs.toFixed(0)} ms replaying, ${summary.recordedMs.toFixed(0)} ms recorded${ratio === undefined ? '' : ` (${ratio.toFixed(2)}×)`}.`,
  ].join('\n');
}
