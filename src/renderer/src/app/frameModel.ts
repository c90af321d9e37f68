/** The app frame's view model, pure: what the header says about the connection. */
import type {ConnectionStatus} from '../../../shared/connection.js';

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
