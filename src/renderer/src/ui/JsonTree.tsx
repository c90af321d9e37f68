import {revealInvisible} from './revealInvisible.js';

/** JSON shown as text (never as HTML), in a scrollable block. */
export function JsonTree(props: {value: unknown; label: string}): React.JSX.Element {
  return (
    <pre className="code-block" aria-label={props.label} tabIndex={0}>
      {revealInvisible(formatJson(props.value))}
    </pre>
  );
}

export function formatJson(value: unknown): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    return String(value);
  }
  try {
    return JSON.stringify(value, null, 2);
  } catch (error) {
    return `(not shown: ${error instanceof Error ? error.message : 'not serializable'})`;
  }
}
