/**
 * Around each panel: a placeholder while its code loads, and a message instead of a blank app if
 * it cannot load (the server stopped or was updated while the page stayed open).
 */
import {Component, Suspense, type ReactNode} from 'react';
import {EmptyState} from '../ui/EmptyState.js';

export function PanelFrame(props: {label: string; children: ReactNode}): React.JSX.Element {
  return (
    <PanelErrorBoundary label={props.label}>
      <Suspense
        fallback={
          <div data-panel-loading="">
            <EmptyState title={`Loading the ${props.label} panel…`}>
              It opens in a moment.
            </EmptyState>
          </div>
        }
      >
        {props.children}
      </Suspense>
    </PanelErrorBoundary>
  );
}

interface BoundaryState {
  message: string | undefined;
}

class PanelErrorBoundary extends Component<{label: string; children: ReactNode}, BoundaryState> {
  override state: BoundaryState = {message: undefined};

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return {message: error instanceof Error ? error.message : String(error)};
  }

  override render(): ReactNode {
    if (this.state.message === undefined) {
      return this.props.children;
    }
    return (
      <div className="notice notice--error" role="alert">
        <p>
          The {this.props.label} panel could not be shown: {this.state.message}
        </p>
        <p>
          Check that the inspector server is still running, then{' '}
          <button type="button" onClick={() => window.location.reload()}>
            reload the inspector
          </button>
          .
        </p>
      </div>
    );
  }
}
