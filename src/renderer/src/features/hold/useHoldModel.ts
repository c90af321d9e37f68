/**
 * The Hold panel's hook: the hold state from the store, the panel's panel model (holdModel.ts) in a
 * reducer, the decisions (holdActions.ts), the keys while the panel is open, and the live view of
 * the shown call's page while the panel is open.
 */
import {useEffect, useReducer, useState} from 'react';
import type {HeldCall} from '../../../../shared/hold.js';
import type {HoldSlice} from '../../store/HoldTracker.js';
import type {ToolInfo} from '../../../../shared/protocol.js';
import {useInspector, useRequest, useSnapshot, useUi} from '../../context/InspectorContext.js';
import {objectSchema, type DraftAction} from '../../ui/argumentsDraft.js';
import {holdActions, type HoldActions} from './holdActions.js';
import {
  heldWhileOff,
  INITIAL_HOLD_PANEL,
  keyAction,
  modeFor,
  reduceHoldPanel,
  rulesSummary,
  shownCall,
  targetOutline,
  type HoldMode,
  type HoldPanelState,
  type TargetOutline,
} from './holdModel.js';

export interface HoldModel extends HoldActions {
  connected: boolean;
  hold: HoldSlice | undefined;
  call: HeldCall | undefined;
  tool: ToolInfo | undefined;
  schema: Record<string, unknown> | undefined;
  mode: HoldMode;
  panel: HoldPanelState;
  outline: TargetOutline | undefined;
  /** The client that opened the held call's page (undefined: the person, or no page). */
  pageOwner: {id: string; name: string} | undefined;
  now: number;
  /** After "Hold rules": on (which) or off. */
  rulesSummary: string;
  /** Hold is off and calls are still held: says so (undefined otherwise). */
  heldWhileOff: string | undefined;
  /** The Hold tab opens when a call is held. */
  openOnHeld: boolean;
  pick: (callId: string) => void;
  edit: (action: DraftAction) => void;
  setReason: (text: string) => void;
  cancelMode: () => void;
  setRulesText: (text: string | undefined) => void;
}

export function useHoldModel(): HoldModel {
  const {connection} = useInspector();
  const request = useRequest();
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const hold = useSnapshot(snapshot => snapshot.hold);
  const tools = useSnapshot(snapshot => snapshot.tools.tools);
  const pages = useSnapshot(snapshot => snapshot.pages);
  const active = useUi(snapshot => snapshot.panel === 'hold');
  const [panel, dispatch] = useReducer(reduceHoldPanel, INITIAL_HOLD_PANEL);
  const [now, setNow] = useState(() => Date.now());
  const call = shownCall(hold?.queue ?? [], panel.pickedCallId);
  const tool = tools.find(candidate => candidate.name === call?.tool);
  const pageId = call?.pageId;
  const actions = holdActions(request, dispatch, {call, hold, panel});

  // One key each while the panel is open (not while typing in a field).
  useEffect(() => {
    if (!active) {
      return;
    }
    const onKey = (event: KeyboardEvent): void => {
      const {key, ctrlKey, metaKey, altKey} = event;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const action = keyAction({key, ctrlKey, metaKey, altKey, target});
      if (action) {
        event.preventDefault();
        actions.act(action);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // The countdown to the timeout.
  useEffect(() => {
    if (!active || !call) {
      return;
    }
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active, call]);

  useEffect(() => connection.onFrame(frame => dispatch({type: 'frame', frame})), [connection]);

  useEffect(() => {
    if (!active || !connected || pageId === undefined) {
      return;
    }
    void request({type: 'startLiveView', pageId});
    return () => {
      void request({type: 'stopLiveView'});
    };
  }, [active, connected, pageId, request]);

  return {
    ...actions,
    connected,
    hold,
    call,
    tool,
    schema: tool ? objectSchema(tool.inputSchema) : undefined,
    mode: modeFor(panel, call),
    panel,
    outline: targetOutline(call, panel.frame),
    pageOwner: ownerOfPage(pages, call?.pageId),
    now,
    rulesSummary: rulesSummary(hold),
    heldWhileOff: heldWhileOff(hold, now),
    openOnHeld: hold?.openOnHeld === true,
    pick: callId => dispatch({type: 'pick', callId}),
    edit: action => dispatch({type: 'edit', action}),
    setReason: text => dispatch({type: 'reason', text}),
    cancelMode: () => {
      if (call) {
        dispatch({type: 'mode', mode: 'show', call});
      }
    },
    setRulesText: text => dispatch({type: 'rulesText', text}),
  };
}

/** The client that opened a page (undefined: the person or the browser, or no page). */
function ownerOfPage(
  pages: readonly {id: number; owner?: {id: string; name: string}}[],
  pageId: number | undefined,
): {id: string; name: string} | undefined {
  return pageId === undefined ? undefined : pages.find(page => page.id === pageId)?.owner;
}
