/**
 * A held call waits for a person; in the desktop app it must not go unnoticed while the window is
 * in the background. When a call is held and the window is not focused, the window's frame
 * flashes (the dock icon bounces on macOS) and a system notification names the call and when it
 * is denied; a click on it brings the window forward on the Hold tab. Both stop once the window
 * is focused or no call is held. Takes Electron's parts as parameters, so it is tested without
 * Electron.
 */
import type {HeldCall} from '../shared/hold.js';
import type {InspectorEvent} from '../shared/protocol.js';

/** The parts of a BrowserWindow this uses. */
export interface AttentionWindow {
  isFocused(): boolean;
  flashFrame(flag: boolean): void;
}

export interface ShownNotification {
  close(): void;
}

export interface NotificationText {
  title: string;
  body: string;
}

export interface HeldAttentionDeps {
  /** Subscribes to the engine's events; returns the unsubscribe. */
  onEvent: (listener: (event: InspectorEvent) => void) => () => void;
  /** The main window, if one is open. */
  window: () => AttentionWindow | undefined;
  /** Shows a system notification; undefined where the system has none. */
  notify: (text: NotificationText, onClick: () => void) => ShownNotification | undefined;
  /** Brings the window forward on the Hold tab (a click on the notification). */
  showHold: () => void;
  now?: () => number;
}

export interface HeldAttention {
  /** The window got the focus: the person is looking, the flashing and notification go. */
  windowFocused(): void;
  dispose(): void;
}

/** Names and reasons come from clients: one line, bounded, in a system notification. */
const TEXT_LIMIT = 80;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TEXT_LIMIT ? `${line.slice(0, TEXT_LIMIT - 1)}…` : line;
}

function inWords(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 120) {
    return `${seconds} s`;
  }
  return `${Math.round(seconds / 60)} min`;
}

/** What the notification says about the held calls (oldest first); undefined for none. */
export function heldNotificationText(
  queue: readonly HeldCall[],
  now: number,
): NotificationText | undefined {
  const oldest = queue[0];
  if (!oldest) {
    return undefined;
  }
  const deadline = `Denied in ${inWords(oldest.deadline - now)} unless you decide.`;
  if (queue.length === 1) {
    return {
      title: `${clip(oldest.tool)} is held for your decision`,
      body: `From ${clip(oldest.client.name)}: ${clip(oldest.reason)}. ${deadline}`,
    };
  }
  return {
    title: `${queue.length} calls are held for your decision`,
    body: `The oldest, ${clip(oldest.tool)} from ${clip(oldest.client.name)}: ${deadline.replace('Denied', 'denied')}`,
  };
}

export function watchHeldCalls(deps: HeldAttentionDeps): HeldAttention {
  const now = deps.now ?? Date.now;
  const queue: HeldCall[] = [];
  let notification: ShownNotification | undefined;
  let flashing = false;

  const calm = (): void => {
    notification?.close();
    notification = undefined;
    if (flashing) {
      flashing = false;
      deps.window()?.flashFrame(false);
    }
  };

  const callHeld = (call: HeldCall): void => {
    queue.push(call);
    const window = deps.window();
    if (window?.isFocused() === true) {
      return;
    }
    if (window && !flashing) {
      flashing = true;
      window.flashFrame(true);
    }
    const text = heldNotificationText(queue, now());
    if (text) {
      // One notification at a time: a burst of held calls replaces it instead of piling up.
      notification?.close();
      notification = deps.notify(text, () => {
        calm();
        deps.showHold();
      });
    }
  };

  const stop = deps.onEvent(event => {
    if (event.type === 'callHeld') {
      callHeld(event.call);
    } else if (event.type === 'callHoldEnded') {
      const index = queue.findIndex(call => call.callId === event.callId);
      if (index !== -1) {
        queue.splice(index, 1);
      }
      if (queue.length === 0) {
        calm();
      }
    }
  });

  return {
    windowFocused: calm,
    dispose: () => {
      stop();
      calm();
    },
  };
}
