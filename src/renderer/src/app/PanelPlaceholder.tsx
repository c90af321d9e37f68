/**
 * What a panel shows while its code loads, and instead of a blank tab if it cannot load (the
 * server stopped or was updated while the page stayed open).
 */
import type {ReactNode} from 'react';
import {EmptyState} from '../ui/EmptyState.js';

export function panelPlaceholder(label: string): (error: string | undefined) => ReactNode {
  return function PanelPlaceholder(error) {
    if (error === undefined) {
      return (
        <div data-panel-loading="">
          <EmptyState title={`Loading the ${label} panel…`}>It opens in a moment.</EmptyState>
        </div>
      );
    }
    return (
      <div className="notice notice--error" role="alert">
        <p>
          The {label} panel could not be loaded: {error}
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
  };
}
