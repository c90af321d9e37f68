/** A notice the user can dismiss (an import that failed, a file that could not be read). */
export function DismissibleNotice(props: {
  text: string | undefined;
  onDismiss: () => void;
}): React.JSX.Element | null {
  if (!props.text) {
    return null;
  }
  return (
    <div className="notice" role="alert">
      {props.text}{' '}
      <button type="button" onClick={props.onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
