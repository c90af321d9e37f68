/**
 * The Pages panel's hook: the open pages grouped by the client that opened them, and the live view
 * (pagesModel.ts). The screencast runs only while this panel is open (the engine stops it when no
 * UI watches); it follows the page selected last (by any client or the Run panel) unless the user
 * picks one.
 */
import {useEffect, useMemo, useReducer} from 'react';
import type {LiveFrame, PageInfo} from '../../../../shared/protocol.js';
import {useInspector, useRequest, useSnapshot, useUi} from '../../context/InspectorContext.js';
import {
  HIGHLIGHT_MS,
  INITIAL_PAGES,
  pageGroups,
  reducePages,
  selectLiveView,
  type Outline,
  type PageGroup,
} from './pagesModel.js';

export interface PagesModel {
  pages: readonly PageInfo[];
  /** The pages by the client that opened them. */
  groups: PageGroup[];
  browserState: string;
  watchPageId: number | undefined;
  watch: (pageId: number | undefined) => void;
  frame: LiveFrame | undefined;
  liveError: string | undefined;
  outline: Outline | undefined;
}

export function usePagesModel(): PagesModel {
  const {connection} = useInspector();
  const request = useRequest();
  const pages = useSnapshot(snapshot => snapshot.pages);
  const clients = useSnapshot(snapshot => snapshot.clients);
  const groups = useMemo(() => pageGroups(pages, clients), [pages, clients]);
  const browserState = useSnapshot(snapshot => snapshot.browser?.state ?? 'idle');
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const acted = useSnapshot(snapshot => snapshot.lastActedOn);
  const active = useUi(snapshot => snapshot.panel === 'pages');
  const [state, dispatch] = useReducer(reducePages, INITIAL_PAGES);
  const {watchPageId} = state;

  useEffect(() => connection.onFrame(frame => dispatch({type: 'frame', frame})), [connection]);

  useEffect(() => {
    if (!active || !connected) {
      return;
    }
    void request(
      watchPageId === undefined
        ? {type: 'startLiveView'}
        : {type: 'startLiveView', pageId: watchPageId},
    ).then(result => dispatch({type: 'liveView', error: result.ok ? undefined : result.error}));
    return () => {
      void request({type: 'stopLiveView'});
    };
  }, [active, connected, watchPageId, request]);

  // The outline goes away after a moment; a new acted-on element brings it back.
  useEffect(() => {
    if (!acted) {
      return;
    }
    const timer = setTimeout(
      () => dispatch({type: 'outlineExpired', key: acted.callId}),
      HIGHLIGHT_MS,
    );
    return () => clearTimeout(timer);
  }, [acted]);

  return {
    pages,
    groups,
    browserState,
    ...selectLiveView(state, pages, acted),
    watch: pageId => dispatch({type: 'watch', pageId}),
    liveError: state.liveError,
  };
}
