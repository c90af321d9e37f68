/**
 * The app frame's hooks: the connection state and version for the header, the open panel, a
 * tab's count badge and whether it asks for attention, and what held calls do to the frame (the
 * page's title; the Hold tab opened when the person asked for that). The frame's components read
 * the store only through these.
 */
import {useEffect, useRef} from 'react';
import type {ConnectionStatus} from '../../../shared/connection.js';
import {useInspector, useSnapshot, useUi} from '../context/InspectorContext.js';
import {connectionLabel, documentTitle, opensHold} from './frameModel.js';
import type {PanelDefinition} from './panels.js';
import type {PanelId} from '../ui/panelIds.js';
import type {ClientStyles} from '../ui/clientStyles.js';

export interface FrameModel {
  connection: ConnectionStatus;
  connectionLabel: string;
  serverVersion: string | undefined;
  panel: PanelId;
  openPanel: (panel: PanelId) => void;
  /** Each client's colour and session number, for every panel's client badges. */
  clientStyles: ClientStyles;
}

export function useFrameModel(): FrameModel {
  const {ui} = useInspector();
  const connection = useSnapshot(snapshot => snapshot.connection);
  const serverVersion = useSnapshot(snapshot => snapshot.server?.serverVersion);
  const panel = useUi(snapshot => snapshot.panel);
  const clientStyles = useSnapshot(snapshot => snapshot.clientStyles);
  const held = useSnapshot(snapshot => snapshot.hold?.queue.length ?? 0);
  const openOnHeld = useSnapshot(snapshot => snapshot.hold?.openOnHeld === true);
  const heldBefore = useRef(0);
  useEffect(() => {
    document.title = documentTitle(held);
    if (opensHold(heldBefore.current, held, openOnHeld)) {
      ui.openPanel('hold');
    }
    heldBefore.current = held;
  }, [held, openOnHeld, ui]);
  return {
    connection,
    connectionLabel: connectionLabel(connection),
    serverVersion,
    panel,
    openPanel: id => ui.openPanel(id),
    clientStyles,
  };
}

/** The count a tab shows (its panel's badge), undefined for none. */
export function useTabBadge(panel: PanelDefinition): string | undefined {
  return useSnapshot(snapshot => panel.badge?.(snapshot));
}

/** Whether a tab asks for attention (something in its panel waits for the person). */
export function useTabAttention(panel: PanelDefinition): boolean {
  return useSnapshot(snapshot => panel.attention?.(snapshot) === true);
}
