/**
 * What the Hold panel's buttons and keys do: each decision is one hold command; the panel shows
 * its error (and stays in the edit form when edited arguments were refused).
 */
import type {Dispatch} from 'react';
import type {HeldCall, HoldState} from '../../../../shared/hold.js';
import type {Request} from '../../context/InspectorContext.js';
import {cleanArgs} from '../../ui/argumentsDraft.js';
import type {HoldKeyAction, HoldPanelAction, HoldPanelState} from './holdModel.js';

type Answer = Promise<{ok: true} | {ok: false; error: string}>;

export interface HoldActions {
  act: (action: HoldKeyAction) => void;
  runEdited: (formValues?: Record<string, unknown>) => void;
  deny: () => void;
  /** Denies every held call (hold was turned off while they waited). */
  denyAll: () => void;
  applyRules: (rules: string[]) => void;
  /** Whether the Hold tab opens when a call is held. */
  setOpenOnHeld: (openOnHeld: boolean) => void;
}

export function holdActions(
  request: Request,
  dispatch: Dispatch<HoldPanelAction>,
  current: {call: HeldCall | undefined; hold: HoldState | undefined; panel: HoldPanelState},
): HoldActions {
  const {call, hold, panel} = current;
  const answer = (pending: Answer, keepMode = false): void => {
    dispatch({type: 'busy'});
    void pending.then(result =>
      dispatch({type: 'answered', error: result.ok ? undefined : result.error, keepMode}),
    );
  };
  return {
    act: action => {
      if (action === 'allowAll') {
        answer(request({type: 'holdAllowAll'}));
        return;
      }
      if (!call || panel.busy) {
        return;
      }
      if (action === 'edit' || action === 'deny') {
        dispatch({type: 'mode', mode: action, call});
        return;
      }
      const allow = (): Answer =>
        request({type: 'holdDecide', callId: call.callId, decision: 'allow'});
      if (action === 'allow') {
        answer(allow());
        return;
      }
      // Step: the next call is held too, then this one goes.
      const rules = [...(hold?.rules ?? []), 'step'];
      answer(request({type: 'holdSetRules', rules}).then(result => (result.ok ? allow() : result)));
    },
    runEdited: formValues => {
      if (!call) {
        return;
      }
      const args = cleanArgs(formValues ?? panel.draft.formData);
      answer(request({type: 'holdDecide', callId: call.callId, decision: 'edit', args}), true);
    },
    deny: () => {
      if (!call) {
        return;
      }
      const reason = panel.reason.trim();
      answer(
        request({
          type: 'holdDecide',
          callId: call.callId,
          decision: 'deny',
          ...(reason === '' ? {} : {reason}),
        }),
      );
    },
    denyAll: () => {
      answer(request({type: 'holdDenyAll'}));
    },
    setOpenOnHeld: openOnHeld => {
      answer(request({type: 'holdSetOpenOnHeld', openOnHeld}), true);
    },
    applyRules: rules => {
      answer(
        request({type: 'holdSetRules', rules}).then(result => {
          if (result.ok) {
            dispatch({type: 'rulesText', text: undefined});
          }
          return result;
        }),
        true,
      );
    },
  };
}
