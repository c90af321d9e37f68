/** A button that copies text (or text produced on demand) and says so for a moment. */
import {useEffect, useState} from 'react';
import {copyText} from './clipboard.js';

export function CopyButton(props: {
  /** The text, or a function that produces it (e.g. after fetching the token). */
  text: string | (() => Promise<string>);
  label: string;
  /** Accessible name when it should differ from the visible label. */
  ariaLabel?: string;
}): React.JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') {
      return;
    }
    const timer = setTimeout(() => setState('idle'), 1_500);
    return () => clearTimeout(timer);
  }, [state]);
  const onClick = async (): Promise<void> => {
    try {
      const text = typeof props.text === 'string' ? props.text : await props.text();
      await copyText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button
      type="button"
      className="copy-button"
      aria-label={props.ariaLabel ?? props.label}
      onClick={() => void onClick()}
    >
      <span className="copy-button__text" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : props.label}
      </span>
    </button>
  );
}
