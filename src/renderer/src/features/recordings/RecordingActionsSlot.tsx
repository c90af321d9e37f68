/**
 * Where actions on a recorded session go: in each row of the Sessions panel (`placement="session"`)
 * and in the detail of a call of an opened session (`placement="call"`). Replay and export live in
 * their own feature; they plug in here without this panel knowing them:
 *
 *   registerSessionActions({session: ctx => <ReplayButton id={ctx.session.id} />, call: ctx => …});
 *
 * or pass children to one slot. Nothing renders when no action is registered.
 */
import type {ReactNode} from 'react';
import type {CallRecord} from '../../store/CallLog.js';

export interface SessionRef {
  /** The recorded session's id on the server; undefined for a file opened from elsewhere. */
  id: string | undefined;
  fileName: string;
}

export interface SessionActionsContext {
  session: SessionRef;
  /** For `placement="call"`: the call, and its 0-based position among the session's calls. */
  call?: CallRecord;
}

export type SessionActionsRenderer = (context: SessionActionsContext) => ReactNode;

const renderers: {session?: SessionActionsRenderer; call?: SessionActionsRenderer} = {};

/** Registers the actions shown in the slots (a later call replaces the earlier one). */
export function registerSessionActions(actions: {
  session?: SessionActionsRenderer;
  call?: SessionActionsRenderer;
}): void {
  if (actions.session) {
    renderers.session = actions.session;
  }
  if (actions.call) {
    renderers.call = actions.call;
  }
}

export function SessionActionsSlot(props: {
  placement: 'session' | 'call';
  session: SessionRef;
  call?: CallRecord | undefined;
  children?: ReactNode;
}): React.JSX.Element | null {
  const render = renderers[props.placement];
  const content =
    props.children ?? render?.({session: props.session, ...(props.call ? {call: props.call} : {})});
  if (content === undefined || content === null || content === false) {
    return null;
  }
  return (
    <span
      className="session-actions"
      data-testid={`session-actions-${props.placement}`}
      role="group"
      aria-label="Session actions"
    >
      {content}
    </span>
  );
}
