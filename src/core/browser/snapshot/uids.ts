/**
 * Per-page uid bookkeeping: which element each uid of the latest snapshot stands for, in which
 * document and on which cdp (the page's own, or a cross-site iframe's), kept stable across
 * snapshots while the element's document lives.
 */
import type {CDPSession} from 'puppeteer-core';
import {PageFeature} from '../pages/PageState.js';

export interface UidTarget {
  backendNodeId: number;
  frameId: string;
  loaderId: string;
  /** The cdp of the element's document (backend node ids are only unique per renderer). */
  cdp: CDPSession;
  /** `${loaderId}:${backendNodeId}`, when the caller has it at hand. */
  key?: string;
}

/** Accepts "12" and the labelled forms agents copy from other servers' snapshots ("uid=12"). */
export function normalizeUid(uid: string): string {
  return uid.trim().replace(/^uid=/, '');
}

/**
 * How a field takes a value: `select` chooses an option, `text` is typed into, `keys` is typed
 * into and reacts to each key (a combobox, a search box, an autocomplete).
 */
export type FieldKind = 'select' | 'text' | 'keys';

/** Who a uid's node was in its snapshot, for finding the same element again without the uid. */
export interface ElementIdentity {
  role: string;
  name: string;
  field?: FieldKind;
  /** The uid of the nearest node shown above it in the same snapshot. */
  parentUid?: string;
  /** Which of the snapshot's nodes with this role and name it was (0-based, in snapshot order). */
  nth: number;
}

/** An element as a replay looks for it: role, name, named ancestors nearest first, nth. */
export interface ElementDescription {
  role: string;
  name: string;
  /** What kind of field it is, if it is one (an export acts on it accordingly). */
  field?: FieldKind;
  ancestry: {role: string; name: string}[];
  nth: number;
}

/** Named ancestors kept per element: enough to tell same-named elements apart, still small. */
const ANCESTRY_DEPTH = 4;

function keyOf(target: UidTarget): string {
  return `${target.loaderId}:${target.backendNodeId}`;
}

export class SnapshotStore {
  snapshotCount = 0;
  /** `${loaderId}:${backendNodeId}` → uid, for stability across snapshots. */
  #uidByKey = new Map<string, string>();
  #targets = new Map<string, UidTarget>();
  #identities = new Map<string, ElementIdentity>();
  /**
   * uids are short page-wide numbers that are never reused, so a uid from an old snapshot either
   * still means the same element or is not found — it never silently means another one.
   */
  #nextUid = 0;
  hasSnapshot = false;

  beginSnapshot(): number {
    this.snapshotCount++;
    return this.snapshotCount;
  }

  uidFor(
    target: UidTarget,
    seen: Map<string, string>,
    seenTargets: Map<string, UidTarget>,
  ): string {
    const key = target.key ?? keyOf(target);
    let uid = this.#uidByKey.get(key);
    if (uid === undefined || seen.has(key)) {
      uid = String(this.#nextUid++);
    }
    seen.set(key, uid);
    seenTargets.set(uid, target);
    return uid;
  }

  /**
   * The uid of a node without a DOM node (a line box, a list marker's text), by its accessibility
   * id: the same while Chromium keeps the node, but nothing a tool can act on.
   */
  uidForKey(key: string, seen: Map<string, string>): string {
    let uid = this.#uidByKey.get(key);
    if (uid === undefined || seen.has(key)) {
      uid = String(this.#nextUid++);
    }
    seen.set(key, uid);
    return uid;
  }

  /**
   * Keeps only the uids of the latest snapshot: ids of vanished nodes are forgotten. A partial
   * snapshot (one element's subtree) adds its uids to the ones the agent already holds.
   */
  commit(
    seen: Map<string, string>,
    targets: Map<string, UidTarget>,
    partial = false,
    identities = new Map<string, ElementIdentity>(),
  ): void {
    if (partial) {
      for (const [uid, identity] of identities) {
        this.#identities.set(uid, identity);
      }
      for (const [key, uid] of seen) {
        this.#uidByKey.set(key, uid);
      }
      for (const [uid, target] of targets) {
        this.#targets.set(uid, target);
      }
    } else {
      this.#uidByKey = seen;
      this.#targets = targets;
      this.#identities = identities;
    }
    this.hasSnapshot = true;
  }

  target(uid: string): UidTarget | undefined {
    return this.#targets.get(normalizeUid(uid));
  }

  /** Role, name, named ancestry and nth of a uid of the latest snapshot (in memory, no CDP). */
  describe(uid: string): ElementDescription | undefined {
    const identity = this.#identities.get(normalizeUid(uid));
    if (!identity) {
      return undefined;
    }
    return {
      role: identity.role,
      name: identity.name,
      ...(identity.field === undefined ? {} : {field: identity.field}),
      ancestry: this.#ancestry(identity),
      nth: identity.nth,
    };
  }

  /**
   * The uid in the latest snapshot of the element described: same role and name, then the most
   * named ancestors in common (nearest first), then the closest nth. A candidate under another
   * nearest ancestor counts only when it is the one node with that role and name and the recorded
   * element was the first: otherwise it is a same-named element elsewhere, not the one recorded.
   */
  find(wanted: ElementDescription): string | undefined {
    let best: {uid: string; score: number; distance: number} | undefined;
    let candidates = 0;
    for (const [uid, identity] of this.#identities) {
      if (identity.role !== wanted.role || identity.name !== wanted.name) {
        continue;
      }
      const ancestry = this.#ancestry(identity);
      let score = 0;
      while (
        score < ancestry.length &&
        score < wanted.ancestry.length &&
        ancestry[score]?.role === wanted.ancestry[score]?.role &&
        ancestry[score]?.name === wanted.ancestry[score]?.name
      ) {
        score++;
      }
      candidates++;
      const distance = Math.abs(identity.nth - wanted.nth);
      if (!best || score > best.score || (score === best.score && distance < best.distance)) {
        best = {uid, score, distance};
      }
    }
    if (!best) {
      return undefined;
    }
    const placed = best.score > 0 || wanted.ancestry.length === 0;
    return placed || (candidates === 1 && wanted.nth === 0) ? best.uid : undefined;
  }

  #ancestry(identity: ElementIdentity): {role: string; name: string}[] {
    const ancestry: {role: string; name: string}[] = [];
    let parentUid = identity.parentUid;
    // Bounded by the tree's depth; a cycle cannot form (parents are emitted before children).
    while (parentUid !== undefined && ancestry.length < ANCESTRY_DEPTH) {
      const parent = this.#identities.get(parentUid);
      if (!parent) {
        break;
      }
      if (parent.name !== '') {
        ancestry.push({role: parent.role, name: parent.name});
      }
      parentUid = parent.parentUid;
    }
    return ancestry;
  }

  /** The uid the latest snapshot gave a node of the given cdp, if it showed the node. */
  uidOf(backendNodeId: number, cdp: CDPSession): string | undefined {
    for (const [uid, target] of this.#targets) {
      if (target.backendNodeId === backendNodeId && target.cdp === cdp) {
        return uid;
      }
    }
    return undefined;
  }
}

export const snapshotFeature = new PageFeature('snapshot', () => new SnapshotStore());
