/**
 * What every panel gets: the store (read with useSnapshot) and a way to send commands. Panels
 * never see which transport (IPC or WebSocket) is underneath.
 */
import {createContext, useCallback, useContext, useSyncExternalStore} from 'react';
import type {InspectorConnection} from '../../../shared/connection.js';
import type {InspectorCommand} from '../../../shared/protocol.js';
import type {CommandResult} from '../../../shared/replies.js';
import type {InspectorSnapshot, InspectorStore} from '../store/InspectorStore.js';
import type {UiSnapshot, UiStore} from '../store/UiStore.js';

export interface InspectorServices {
  store: InspectorStore;
  ui: UiStore;
  connection: InspectorConnection;
}

export const InspectorContext = createContext<InspectorServices | undefined>(undefined);

export function useInspector(): InspectorServices {
  const services = useContext(InspectorContext);
  if (!services) {
    throw new Error('useInspector must be used inside <InspectorContext.Provider>.');
  }
  return services;
}

/**
 * Reads a slice of the store. The selector must return something stable (a slice of the
 * snapshot, or a primitive): it runs on every store change.
 */
export function useSnapshot<T>(selector: (snapshot: InspectorSnapshot) => T): T {
  const {store} = useInspector();
  return useSyncExternalStore(store.subscribe, () => selector(store.getSnapshot()));
}

/**
 * Sends a command to the engine. The reply is `{ok: true, value}` with the value checked against
 * the command's reply schema (and typed for it), or `{ok: false, error}` — never a throw.
 */
export type Request = <C extends InspectorCommand>(command: C) => Promise<CommandResult<C['type']>>;

export function useRequest(): Request {
  const {connection} = useInspector();
  // Stable per connection, so effects may depend on it.
  return useCallback<Request>(command => connection.command(command), [connection]);
}

/** Reads UI-only state (open panel, run draft, selected call). */
export function useUi<T>(selector: (snapshot: UiSnapshot) => T): T {
  const {ui} = useInspector();
  return useSyncExternalStore(ui.subscribe, () => selector(ui.getSnapshot()));
}
