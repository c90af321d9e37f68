/**
 * The app frame's hooks: the connection state and version for the header, the open panel, and a
 * tab's count badge. The frame's components read the store only through these.
 */
import type {ConnectionStatus} from '../../../shared/connection.js';
import {useInspector, useSnapshot, useUi} from '../context/InspectorContext.js';
import {connectionLabel} from './frameModel.js';
import type {PanelDefinition} from './panels.js';
import type {PanelId} from '../ui/panelIds.js';

export interface FrameModel {
  connection: ConnectionStatus;
  connectionLabel: string;
  serverVersion: string | undefined;
  panel: PanelId;
  openPanel: (panel: PanelId) => void;
}

export function useFrameModel(): FrameModel {
  const {ui} = useInspector();
  const connection = useSnapshot(snapshot => snapshot.connection);
  const serverVersion = useSnapshot(snapshot => snapshot.server?.serverVersion);
  const panel = useUi(snapshot => snapshot.panel);
  return {
    connection,
    connectionLabel: connectionLabel(connection),
    serverVersion,
    panel,
    openPanel: id => ui.openPanel(id),
  };
}

/** The count a tab shows (its panel's badge), undefined for none. */
export function useTabBadge(panel: PanelDefinition): string | undefined {
  return useSnapshot(snapshot => panel.badge?.(snapshot));
}
