/**
 * The Hold panel's panel model, pure: which held call is shown (the oldest unless the person picked
 * another), what they are doing with it (looking, editing its arguments, writing a deny reason),
 * the rules field, the keys, and where the target element goes over a live-view frame. The hook
 * (useHoldModel.ts) wires it up.
 */
import type {HeldCall, HoldState} from '../../../../shared/hold.js';
import type {LiveFrame} from '../../../../shared/protocol.js';
import {
  EMPTY_DRAFT,
  reduceDraft,
  type ArgumentsDraft,
  type DraftAction,
} from '../../ui/argumentsDraft.js';

export type HoldMode = 'show' | 'edit' | 'deny';

export interface HoldPanelState {
  /** The call the person picked (undefined: the oldest held call). */
  pickedCallId: string | undefined;
  mode: HoldMode;
  /** The call the mode and the draft belong to. */
  modeCallId: string | undefined;
  draft: ArgumentsDraft;
  reason: string;
  /** The rules text while the person edits it (undefined: show the server's). */
  rulesText: string | undefined;
  /** The last command's error, for the call or the rules. */
  error: string | undefined;
  busy: boolean;
  frame: LiveFrame | undefined;
}

export type HoldPanelAction =
  | {type: 'pick'; callId: string}
  | {type: 'mode'; mode: HoldMode; call: HeldCall}
  | {type: 'edit'; action: DraftAction}
  | {type: 'reason'; text: string}
  | {type: 'rulesText'; text: string | undefined}
  | {type: 'busy'}
  | {type: 'answered'; error: string | undefined; keepMode?: boolean}
  | {type: 'frame'; frame: LiveFrame};

export const INITIAL_HOLD_PANEL: HoldPanelState = {
  pickedCallId: undefined,
  mode: 'show',
  modeCallId: undefined,
  draft: EMPTY_DRAFT,
  reason: '',
  rulesText: undefined,
  error: undefined,
  busy: false,
  frame: undefined,
};

export function reduceHoldPanel(state: HoldPanelState, action: HoldPanelAction): HoldPanelState {
  switch (action.type) {
    case 'pick':
      return {...state, pickedCallId: action.callId, mode: 'show', error: undefined};
    case 'mode':
      return {
        ...state,
        mode: action.mode,
        modeCallId: action.call.callId,
        error: undefined,
        reason: action.mode === 'deny' ? '' : state.reason,
        draft:
          action.mode === 'edit'
            ? reduceDraft(state.draft, {type: 'reset', args: action.call.args})
            : state.draft,
      };
    case 'edit':
      return {...state, draft: reduceDraft(state.draft, action.action)};
    case 'reason':
      return {...state, reason: action.text};
    case 'rulesText':
      return {...state, rulesText: action.text, error: undefined};
    case 'busy':
      return {...state, busy: true, error: undefined};
    case 'answered':
      return {
        ...state,
        busy: false,
        error: action.error,
        mode: action.error !== undefined && action.keepMode === true ? state.mode : 'show',
      };
    case 'frame':
      return {...state, frame: action.frame};
  }
}

/** The call shown: the one picked while it is still held, else the oldest. */
export function shownCall(
  queue: readonly HeldCall[],
  pickedCallId: string | undefined,
): HeldCall | undefined {
  return queue.find(call => call.callId === pickedCallId) ?? queue[0];
}

/** What the person is doing with the shown call (a mode started on another call is over). */
export function modeFor(state: HoldPanelState, call: HeldCall | undefined): HoldMode {
  return call && state.modeCallId === call.callId ? state.mode : 'show';
}

export type HoldKeyAction = 'allow' | 'edit' | 'deny' | 'allowAll' | 'step';

/** One key each; shown in the panel. */
export const HOLD_KEYS: readonly {key: string; action: HoldKeyAction; label: string}[] = [
  {key: 'a', action: 'allow', label: 'Allow'},
  {key: 'e', action: 'edit', label: 'Edit'},
  {key: 'd', action: 'deny', label: 'Deny'},
  {key: 's', action: 'step', label: 'Allow, then hold the next call'},
  {key: 'r', action: 'allowAll', label: 'Allow all'},
];

/** The action of a key press, unless it was typed into a field or with a modifier. */
export function keyAction(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: {tagName?: string; isContentEditable?: boolean} | null;
}): HoldKeyAction | undefined {
  if (event.ctrlKey || event.metaKey || event.altKey) {
    return undefined;
  }
  const tag = event.target?.tagName?.toUpperCase();
  if (
    tag === 'INPUT' ||
    tag === 'TEXTAREA' ||
    tag === 'SELECT' ||
    event.target?.isContentEditable === true
  ) {
    return undefined;
  }
  return HOLD_KEYS.find(entry => entry.key === event.key.toLowerCase())?.action;
}

export interface TargetOutline {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where the held call's target goes over a frame of its page, as fractions of the frame. */
export function targetOutline(
  call: HeldCall | undefined,
  frame: LiveFrame | undefined,
): TargetOutline | undefined {
  const rect = call?.target?.rect;
  if (!rect || !frame?.viewport || frame.pageId !== call.pageId) {
    return undefined;
  }
  const {width, height} = frame.viewport;
  if (width <= 0 || height <= 0 || rect.width <= 0 || rect.height <= 0) {
    return undefined;
  }
  const clamp = (value: number): number => Math.min(1, Math.max(0, value));
  const left = clamp(rect.x / width);
  const top = clamp(rect.y / height);
  return {
    left,
    top,
    width: clamp((rect.x + rect.width) / width) - left,
    height: clamp((rect.y + rect.height) / height) - top,
  };
}

/** Seconds until the hold times out: never below zero nor above the timeout (clocks differ). */
export function secondsLeft(call: HeldCall, now: number): number {
  const timeout = Math.round((call.deadline - call.heldAt) / 1000);
  return Math.min(timeout, Math.max(0, Math.ceil((call.deadline - now) / 1000)));
}

/** A wait in words: seconds up to two minutes, then minutes. */
function waitInWords(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** What the rules heading says after "Hold rules": on (which, and the timeout) or off. */
export function rulesSummary(hold: HoldState | undefined): string {
  const rules = hold?.rules ?? [];
  if (rules.length === 0) {
    // Never "calls run at once" alone while some still wait for a decision.
    return (hold?.queue.length ?? 0) > 0
      ? '· off for new calls; some are still held'
      : '· off: agent calls run at once';
  }
  const seconds = Math.round((hold?.timeoutMs ?? 300_000) / 1000);
  return `· on: ${rules.join(', ')} (a held call is denied after ${seconds} s)`;
}

/**
 * With hold off and calls still held (it was turned off while they waited): says so, and when the
 * first is denied. Undefined otherwise.
 */
export function heldWhileOff(hold: HoldState | undefined, now: number): string | undefined {
  if (!hold || hold.rules.length > 0 || hold.queue.length === 0) {
    return undefined;
  }
  const soonest = Math.min(...hold.queue.map(call => secondsLeft(call, now)));
  const count = hold.queue.length;
  const which =
    count === 1
      ? `1 call is still held and is denied in ${waitInWords(soonest)}`
      : `${count} calls are still held; the first is denied in ${waitInWords(soonest)}`;
  return `Hold is off: new agent calls run at once. ${which} unless you decide.`;
}
