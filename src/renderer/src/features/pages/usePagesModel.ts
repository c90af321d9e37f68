/**
 * View model of the Pages panel: open pages, the selected one, and the live view. The screencast
 * runs only while this panel is open (the engine stops it when no UI watches); it follows the
 * selected page unless the user picks one. The element a tool acted on last is outlined for a
 * moment when it belongs to the page on screen.
 */
import {useEffect, useState} from 'react';
import type {LiveFrame, PageInfo} from '../../../../shared/protocol.js';
import {useCommand, useInspector, useSnapshot, useUi} from '../../app/InspectorContext.js';
import type {LastActedOn} from '../../store/InspectorStore.js';

/** How long the acted-on outline stays. */
export const HIGHLIGHT_MS = 1_500;

export interface Outline {
  key: string;
  /** Position and size as fractions of the frame (0..1). */
  left: number;
  top: number;
  width: number;
  height: number;
  tool: string;
}

export interface PagesModel {
  pages: readonly PageInfo[];
  browserState: string;
  watchPageId: number | undefined;
  watch: (pageId: number | undefined) => void;
  frame: LiveFrame | undefined;
  liveError: string | undefined;
  outline: Outline | undefined;
}

/** Where the outline goes over a frame, or undefined if it does not belong on it. */
export function outlineFor(
  acted: LastActedOn | undefined,
  frame: LiveFrame | undefined,
  now: number,
): Outline | undefined {
  if (!acted || !frame?.viewport || acted.pageId !== frame.pageId) {
    return undefined;
  }
  if (now - acted.receivedAt > HIGHLIGHT_MS) {
    return undefined;
  }
  const {width, height} = frame.viewport;
  const {rect} = acted;
  if (width <= 0 || height <= 0 || rect.width <= 0 || rect.height <= 0) {
    return undefined;
  }
  const clamp = (value: number): number => Math.min(1, Math.max(0, value));
  const left = clamp(rect.x / width);
  const top = clamp(rect.y / height);
  return {
    key: acted.callId,
    left,
    top,
    width: clamp((rect.x + rect.width) / width) - left,
    height: clamp((rect.y + rect.height) / height) - top,
    tool: acted.tool,
  };
}

export function usePagesModel(): PagesModel {
  const {connection} = useInspector();
  const send = useCommand();
  const pages = useSnapshot(snapshot => snapshot.pages);
  const browserState = useSnapshot(snapshot => snapshot.browser?.state ?? 'idle');
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const acted = useSnapshot(snapshot => snapshot.lastActedOn);
  const active = useUi(snapshot => snapshot.panel === 'pages');
  const [watchPageId, setWatchPageId] = useState<number | undefined>();
  const [frame, setFrame] = useState<LiveFrame | undefined>();
  const [liveError, setLiveError] = useState<string | undefined>();
  const [expiredKey, setExpiredKey] = useState<string | undefined>();

  useEffect(() => connection.onFrame(setFrame), [connection]);

  useEffect(() => {
    if (!active || !connected) {
      return;
    }
    void send(
      watchPageId === undefined
        ? {type: 'startLiveView'}
        : {type: 'startLiveView', pageId: watchPageId},
    ).then(reply => setLiveError(reply.ok ? undefined : reply.error));
    return () => {
      void send({type: 'stopLiveView'});
    };
  }, [active, connected, watchPageId, send]);

  // The outline goes away after a moment; a new acted-on element brings it back.
  useEffect(() => {
    if (!acted) {
      return;
    }
    const timer = setTimeout(() => setExpiredKey(acted.callId), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [acted]);

  const candidate = outlineFor(acted, frame, acted?.receivedAt ?? 0);
  const outline = candidate && candidate.key !== expiredKey ? candidate : undefined;
  const watched =
    watchPageId === undefined ? undefined : pages.find(page => page.id === watchPageId);

  return {
    pages,
    browserState,
    watchPageId: watched?.id,
    watch: setWatchPageId,
    frame: frame && (watched === undefined || frame.pageId === watched.id) ? frame : undefined,
    liveError,
    outline,
  };
}
