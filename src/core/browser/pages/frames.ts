/**
 * Out-of-process iframes (a page on one site embedding another site): each lives in its own
 * renderer, reachable only through its own CDP target. The page's cdp auto-attaches to them
 * (and they to theirs, for nested ones), so the snapshot can stitch their documents in and a uid
 * can remember which cdp its element belongs to. Mouse input still goes to the top page, so
 * this module also turns a frame's viewport coordinates into the top page's.
 *
 * This module is the only one that asks a page's cdps to auto-attach, and it does so on a
 * frame's cdp while the frame is still paused: Chromium answers a `Target.setAutoAttach` on a
 * running frame by re-listing that frame's child targets, which drops a child that another client
 * (puppeteer, a debugger) is still holding at its start — that child's navigation then never ends.
 * So new frames attach paused (`waitForDebuggerOnStart`), get their own auto-attach and page
 * events, and only then run. (Frames that already run when a page is first watched — a popup, a
 * browser we connect to — cannot be paused any more; they get theirs at once.)
 */
import {CDPSessionEvent, type CDPSession, type Protocol} from 'puppeteer-core';
import {withTimeout} from '../lock.js';
import {PageFeature, type PageState} from './PageState.js';

/** Bound on each setup command sent to a newly attached frame target. */
const SETUP_TIMEOUT_MS = 3_000;
/** How long a snapshot waits for frame targets that are still being set up. */
const SETTLE_TIMEOUT_MS = 1_500;
/** Nesting bound when walking from a frame up to the top page. */
const MAX_FRAME_DEPTH = 16;

const AUTO_ATTACH: Protocol.Target.SetAutoAttachRequest = {
  autoAttach: true,
  // New frames wait until #setUp resumes them (see the module comment).
  waitForDebuggerOnStart: true,
  flatten: true,
  filter: [{type: 'iframe', exclude: false}],
};

/** One document of the page: the main frame, a same-process child frame, or an OOPIF. */
export interface FrameDocument {
  cdp: CDPSession;
  frameId: string;
  loaderId: string;
  url: string;
  /** The cdp whose document holds this frame's <iframe> (undefined for the main frame). */
  ownerCdp: CDPSession | undefined;
}

interface ChildTarget {
  cdp: CDPSession;
  /** The cdp that attached it: the one whose document holds its <iframe>. */
  parent: CDPSession;
  rootFrameId: string;
}

/** Listeners on one cdp, removed when it goes away. */
type Unsubscribers = (() => void)[];

export interface Offset {
  x: number;
  y: number;
}

/** The frame targets of one page. */
export class FrameTargets {
  readonly #state: PageState;
  readonly #children = new Map<CDPSession, ChildTarget>();
  readonly #pending = new Set<Promise<void>>();
  readonly #off = new Map<CDPSession, Unsubscribers>();
  #started: Promise<void> | undefined;
  /** Bumped whenever a frame target comes, goes or navigates: cached snapshots are then stale. */
  generation = 0;

  constructor(state: PageState) {
    this.#state = state;
  }

  /** Starts auto-attaching (once); existing OOPIFs are attached before this resolves. */
  ensure(): Promise<void> {
    this.#started ??= this.#watch(this.#state.cdp).catch(() => undefined);
    return this.#started;
  }

  /** Waits (bounded) until frame targets that are being attached are ready to use. */
  async settled(): Promise<void> {
    await this.ensure();
    if (this.#pending.size > 0) {
      await withTimeout(
        Promise.allSettled([...this.#pending]),
        SETTLE_TIMEOUT_MS,
        'frame setup timed out',
      ).catch(() => undefined);
    }
  }

  /** Every document of the page, the main frame first; parents always come before children. */
  async documents(): Promise<FrameDocument[]> {
    await this.settled();
    const cdps = [this.#state.cdp, ...this.#children.keys()];
    const trees = await Promise.all(
      cdps.map(async cdp => {
        try {
          const {frameTree} = await withTimeout(
            cdp.send('Page.getFrameTree'),
            SETUP_TIMEOUT_MS,
            'Page.getFrameTree timed out',
          );
          return {cdp, frameTree};
        } catch {
          return undefined;
        }
      }),
    );
    const documents: FrameDocument[] = [];
    if (!trees[0]) {
      // The page's main thread did not answer (a long-running script): its document is known
      // from the navigation events, and the snapshot waits for it, bounded, instead of reading
      // nothing.
      const main = this.#knownMain();
      if (main) {
        documents.push(main);
      }
    }
    for (const entry of trees) {
      // A frame target held at its start (by a debugger) has not committed a document: no URL,
      // nothing to show, and it would not answer the snapshot's reads.
      if (!entry || (entry.cdp !== this.#state.cdp && entry.frameTree.frame.url === '')) {
        continue;
      }
      const visit = (tree: Protocol.Page.FrameTree, ownerCdp: CDPSession | undefined): void => {
        documents.push({
          cdp: entry.cdp,
          frameId: tree.frame.id,
          loaderId: tree.frame.loaderId,
          url: tree.frame.url,
          ownerCdp,
        });
        for (const child of tree.childFrames ?? []) {
          visit(child, entry.cdp);
        }
      };
      visit(entry.frameTree, this.#children.get(entry.cdp)?.parent);
    }
    return documents;
  }

  #knownMain(): FrameDocument | undefined {
    const state = this.#state;
    const loaderId = state.loaderIds.get(state.mainFrameId);
    return state.mainFrameId === '' || loaderId === undefined
      ? undefined
      : {cdp: state.cdp, frameId: state.mainFrameId, loaderId, url: state.url, ownerCdp: undefined};
  }

  /** The owner <iframe> of an OOPIF's root frame, in its parent's cdp. */
  ownerOf(cdp: CDPSession): {parent: CDPSession; frameId: string} | undefined {
    const child = this.#children.get(cdp);
    return child ? {parent: child.parent, frameId: child.rootFrameId} : undefined;
  }

  /**
   * Where the viewport of `cdp`'s document sits in the top page's viewport (CSS pixels): the
   * content boxes of the <iframe> elements on the way up, added together.
   */
  async offsetOf(cdp: CDPSession): Promise<Offset> {
    const offset = {x: 0, y: 0};
    let current = cdp;
    for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
      const owner = this.ownerOf(current);
      if (!owner) {
        return offset;
      }
      const box = await ownerContentBox(owner.parent, owner.frameId);
      offset.x += box.x;
      offset.y += box.y;
      current = owner.parent;
    }
    return offset;
  }

  dispose(): void {
    for (const offs of this.#off.values()) {
      for (const off of offs) {
        off();
      }
    }
    this.#off.clear();
    this.#children.clear();
  }

  #listen(cdp: CDPSession, off: () => void): void {
    const list = this.#off.get(cdp) ?? [];
    list.push(off);
    this.#off.set(cdp, list);
  }

  #forget(cdp: CDPSession): void {
    for (const off of this.#off.get(cdp) ?? []) {
      off();
    }
    this.#off.delete(cdp);
  }

  /** Follows the frame targets `cdp` attaches: its own OOPIFs. */
  async #watch(cdp: CDPSession): Promise<void> {
    const onAttached = (child: CDPSession): void => {
      const setup = this.#setUp(child, cdp).finally(() => this.#pending.delete(setup));
      this.#pending.add(setup);
    };
    const onDetached = (child: CDPSession): void => {
      this.#forget(child);
      if (this.#children.delete(child)) {
        this.generation++;
      }
    };
    cdp.on(CDPSessionEvent.SessionAttached, onAttached);
    cdp.on(CDPSessionEvent.SessionDetached, onDetached);
    this.#listen(cdp, () => {
      cdp.off(CDPSessionEvent.SessionAttached, onAttached);
      cdp.off(CDPSessionEvent.SessionDetached, onDetached);
    });
    await bounded(cdp.send('Target.setAutoAttach', AUTO_ATTACH), 'Target.setAutoAttach');
  }

  /**
   * Sets up a frame target that just attached, paused: every command is sent in this turn, in
   * order, so its nested frames are auto-attached and its page events on before it resumes.
   */
  async #setUp(child: CDPSession, parent: CDPSession): Promise<void> {
    const state = this.#state;
    // A paused frame answers the tree read with its state before the commit, which can arrive
    // after the commit's frameNavigated: the event's document is the newer one then.
    const navigatedDuringSetup = new Set<string>();
    let settingUp = true;
    const onNavigated = (event: Protocol.Page.FrameNavigatedEvent): void => {
      if (settingUp) {
        navigatedDuringSetup.add(event.frame.id);
      }
      state.loaderIds.set(event.frame.id, event.frame.loaderId);
      this.generation++;
    };
    const onFrameDetached = (event: Protocol.Page.FrameDetachedEvent): void => {
      if (event.reason !== 'swap') {
        state.loaderIds.delete(event.frameId);
      }
      this.generation++;
    };
    child.on('Page.frameNavigated', onNavigated);
    child.on('Page.frameDetached', onFrameDetached);
    this.#listen(child, () => {
      child.off('Page.frameNavigated', onNavigated);
      child.off('Page.frameDetached', onFrameDetached);
    });
    const watching = this.#watch(child).catch(() => undefined);
    const ready = Promise.all([
      bounded(child.send('Page.getFrameTree'), 'Page.getFrameTree').catch(() => undefined),
      bounded(child.send('Page.enable'), 'Page.enable').catch(() => undefined),
      bounded(
        child.send('Emulation.setFocusEmulationEnabled', {enabled: true}),
        'Emulation.setFocusEmulationEnabled',
      ).catch(() => undefined),
    ]);
    // Sent last and never skipped: a frame left paused would never load.
    const resumed = bounded(
      child.send('Runtime.runIfWaitingForDebugger'),
      'Runtime.runIfWaitingForDebugger',
    ).catch(() => undefined);
    const [[tree]] = await Promise.all([ready, resumed, watching]);
    settingUp = false;
    if (!tree) {
      return;
    }
    const record = (node: Protocol.Page.FrameTree): void => {
      if (!navigatedDuringSetup.has(node.frame.id)) {
        state.loaderIds.set(node.frame.id, node.frame.loaderId);
      }
      for (const inner of node.childFrames ?? []) {
        record(inner);
      }
    };
    record(tree.frameTree);
    this.#children.set(child, {cdp: child, parent, rootFrameId: tree.frameTree.frame.id});
    this.generation++;
  }
}

/** A setup command, bounded so a frame that does not answer cannot hold a snapshot up. */
function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  return withTimeout(work, SETUP_TIMEOUT_MS, `${what} timed out`);
}

async function ownerContentBox(parent: CDPSession, frameId: string): Promise<Offset> {
  const {backendNodeId} = await withTimeout(
    parent.send('DOM.getFrameOwner', {frameId}),
    SETUP_TIMEOUT_MS,
    'DOM.getFrameOwner timed out',
  );
  const {model} = await withTimeout(
    parent.send('DOM.getBoxModel', {backendNodeId}),
    SETUP_TIMEOUT_MS,
    'DOM.getBoxModel timed out',
  );
  const content = model.content;
  return {x: content[0] ?? 0, y: content[1] ?? 0};
}

/**
 * Eager: it must listen from the page's first moment, because a frame attached before we listen is
 * not re-sent (and would wait paused). Other features (WebMCP) listen for the same child cdps
 * on the page's own cdp and never send a `Target.setAutoAttach` of their own.
 */
export const frameTargetsFeature = new PageFeature(
  'frameTargets',
  state => {
    const targets = new FrameTargets(state);
    void targets.ensure();
    return targets;
  },
  {eager: true, dispose: targets => targets.dispose()},
);
