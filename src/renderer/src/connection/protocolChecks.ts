/**
 * The checks of everything the server sends: the zod schemas of the shared protocol, which are
 * most of the UI's code. main.tsx fetches this module in parallel with the first render; the
 * WebSocket opens once it is here, so no message goes unchecked.
 */
import '../zodSetup.js';
import {inspectorStateSchema, type InspectorState} from '../../../shared/protocol.js';

export {decodeInline} from './decode.js';

/** The getState reply, checked; undefined (and a console warning) if it does not fit. */
export function checkState(value: unknown): InspectorState | undefined {
  const state = inspectorStateSchema.safeParse(value);
  if (!state.success) {
    console.warn('The server sent a state this UI does not understand.', state.error.issues);
    return undefined;
  }
  return state.data;
}
