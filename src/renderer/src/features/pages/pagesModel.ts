/**
 * The Pages panel's panel model, pure: which page the live view watches (the selected one unless
 * the user picks one), the newest frame, and the outline of the element a tool acted on last,
 * shown for a moment over the frame of its page. The hook (usePagesModel.ts) wires it up.
 */
import type {LiveFrame, PageInfo} from '../../../../shared/protocol.js';
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

export interface PagesState {
  /** The page the user picked to watch (undefined: follow the selected page). */
  watchPageId: number | undefined;
  frame: LiveFrame | undefined;
  liveError: string | undefined;
  /** The acted-on outline whose moment is over (its call id). */
  expiredKey: string | undefined;
}

export type PagesAction =
  | {type: 'watch'; pageId: number | undefined}
  | {type: 'frame'; frame: LiveFrame}
  | {type: 'liveView'; error: string | undefined}
  | {type: 'outlineExpired'; key: string};

export const INITIAL_PAGES: PagesState = {
  watchPageId: undefined,
  frame: undefined,
  liveError: undefined,
  expiredKey: undefined,
};

export function reducePages(state: PagesState, action: PagesAction): PagesState {
  switch (action.type) {
    case 'watch':
      return {...state, watchPageId: action.pageId};
    case 'frame':
      return {...state, frame: action.frame};
    case 'liveView':
      return {...state, liveError: action.error};
    case 'outlineExpired':
      return {...state, expiredKey: action.key};
  }
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

export interface LiveViewState {
  /** The watched page, if the user picked one that is still open. */
  watchPageId: number | undefined;
  /** The frame to show: the newest, unless it belongs to another page than the one picked. */
  frame: LiveFrame | undefined;
  outline: Outline | undefined;
}

export function selectLiveView(
  state: PagesState,
  pages: readonly PageInfo[],
  acted: LastActedOn | undefined,
): LiveViewState {
  const candidate = outlineFor(acted, state.frame, acted?.receivedAt ?? 0);
  const watched =
    state.watchPageId === undefined ? undefined : pages.find(page => page.id === state.watchPageId);
  const {frame} = state;
  return {
    watchPageId: watched?.id,
    frame: frame && (watched === undefined || frame.pageId === watched.id) ? frame : undefined,
    outline: candidate && candidate.key !== state.expiredKey ? candidate : undefined,
  };
}

export interface PageGroup {
  /** The client that opened these pages; undefined: the person (inspector) or the browser. */
  owner: {id: string; name: string; isolated: boolean} | undefined;
  /** The owner's session has ended (its pages stay unless it had a context of its own). */
  gone: boolean;
  pages: PageRowModel[];
}

export interface PageRowModel extends PageInfo {
  /** The clients that have it selected, by name (those still connected). */
  selectedByClients: {id: string; name: string}[];
}

/**
 * The pages grouped by the client that opened them: the person's and the browser's first, then
 * each client's in the order its first page was opened. Each page says who has it selected.
 */
export function pageGroups(
  pages: readonly PageInfo[],
  clients: readonly {id: string; name: string}[],
): PageGroup[] {
  const names = new Map(clients.map(client => [client.id, client.name]));
  const unowned: PageGroup = {owner: undefined, gone: false, pages: []};
  const groups = new Map<string, PageGroup>();
  for (const page of pages) {
    const view: PageRowModel = {
      ...page,
      selectedByClients: (page.selectedBy ?? []).flatMap(id => {
        const name = names.get(id);
        return name === undefined ? [] : [{id, name}];
      }),
    };
    const owner = page.owner;
    if (owner === undefined) {
      unowned.pages.push(view);
      continue;
    }
    let group = groups.get(owner.id);
    if (!group) {
      group = {owner, gone: !names.has(owner.id), pages: []};
      groups.set(owner.id, group);
    }
    group.pages.push(view);
  }
  return [...(unowned.pages.length > 0 ? [unowned] : []), ...groups.values()];
}
