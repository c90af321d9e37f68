/**
 * The app frame's panel model, pure: what the header says about the connection, and what a held
 * call does to the frame (the page's title, opening the Hold tab).
 */
import type {ConnectionStatus} from '../../../shared/connection.js';
import {APP_NAME} from '../../../shared/constants.js';

export function connectionLabel(connection: ConnectionStatus): string {
  switch (connection.state) {
    case 'open':
      return 'Connected';
    case 'reconnecting':
      return `Reconnecting (attempt ${connection.attempt})…`;
    case 'connecting':
      return 'Connecting…';
    case 'unauthorized':
    case 'closed':
      return 'Disconnected';
  }
}

/** The page's (and the desktop window's) title: held calls first, seen in any tab strip. */
export function documentTitle(held: number): string {
  return held > 0 ? `(${held} held) ${APP_NAME}` : APP_NAME;
}

/** Whether the Hold tab opens now: a call was just held and the person asked for that. */
export function opensHold(heldBefore: number, held: number, openOnHeld: boolean): boolean {
  return openOnHeld && held > heldBefore;
}
