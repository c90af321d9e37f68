/**
 * What a panel shows while its code loads, and instead of a blank tab if it cannot load (the
 * server stopped or was updated while the page stayed open). A panel that could not load tries
 * again by itself once the inspector reconnects (bootstrap.ts).
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
          It loads by itself once the inspector is connected to the server again. If the server was
          updated meanwhile,{' '}
          <button type="button" onClick={() => window.location.reload()}>
            reload the inspector
          </button>
          .
        </p>
      </div>
    );
  };
}
