/** An empty state that says what to do next (never just "nothing here"). */
import type {ReactNode} from 'react';

export function EmptyState(props: {title: string; children: ReactNode}): React.JSX.Element {
  return (
    <div className="empty-state" role="status">
      <p className="empty-state__title">{props.title}</p>
      <p className="empty-state__hint">{props.children}</p>
    </div>
  );
}
