/**
 * "Open file…": a button that opens the system file picker for one recording (JSON Lines or the
 * older JSON export). The picked file goes to `onFile`; the input is cleared so the same file can
 * be picked again.
 */
import {useRef} from 'react';

export function OpenFileButton(props: {
  onFile: (file: File) => void;
  testId: string;
}): React.JSX.Element {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => input.current?.click()}>
        Open file…
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,.ndjson,application/x-ndjson,application/json"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Open a recording file"
        data-testid={props.testId}
        onChange={event => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) {
            props.onFile(file);
          }
        }}
      />
    </>
  );
}
