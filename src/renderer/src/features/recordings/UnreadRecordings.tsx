/**
 * Files of the recordings folder the server did not read, each with why: too large to read, or
 * lines longer than any recording's read past. Shown so nothing is left out silently (a planted
 * file must neither hang the tab nor vanish from it). File names are shown inert.
 */
import type {RecordingSummary, UnreadRecording} from '../../../../shared/replies.js';
import {revealInvisible} from '../../ui/revealInvisible.js';

export function UnreadRecordings(props: {
  label: string;
  unread: readonly UnreadRecording[] | undefined;
  testId: string;
}): React.JSX.Element | null {
  const {label, unread, testId} = props;
  if (!unread || unread.length === 0) {
    return null;
  }
  return (
    <ul className="muted recordings-panel__unread" data-testid={testId} aria-label={label}>
      {unread.map(item => (
        <li key={item.id}>
          {label}: <span className="mono">{revealInvisible(item.id)}</span> —{' '}
          {revealInvisible(item.reason)}.
        </li>
      ))}
    </ul>
  );
}

/** The listed recordings that had lines read past, as unread notes. */
export function skippedLinesNotes(recordings: readonly RecordingSummary[]): UnreadRecording[] {
  return recordings.flatMap(recording =>
    recording.skippedLines === undefined
      ? []
      : [
          {
            id: recording.id,
            bytes: recording.bytes,
            reason: `${recording.skippedLines} line(s) longer than any recording's were not read`,
          },
        ],
  );
}
