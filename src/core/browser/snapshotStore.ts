/**
 * Per-page uid bookkeeping: which element each uid of the latest snapshot stands for, in which
 * document and on which CDP session (the page's own, or a cross-site iframe's), kept stable across
 * snapshots while the element's document lives.
 */
import type {CDPSession} from 'puppeteer-core';
import {PageFeature} from './PageState.js';

export interface UidTarget {
  backendNodeId: number;
  frameId: string;
  loaderId: string;
  /** The CDP session of the element's document (backend node ids are only unique per renderer). */
  session: CDPSession;
}

/** Accepts "12" and the labelled forms agents copy from other servers' snapshots ("uid=12"). */
export function normalizeUid(uid: string): string {
  return uid.trim().replace(/^uid=/, '');
}

function keyOf(target: UidTarget): string {
  return `${target.loaderId}:${target.backendNodeId}`;
}

export class SnapshotStore {
  snapshotCount = 0;
  /** `${loaderId}:${backendNodeId}` → uid, for stability across snapshots. */
  #uidByKey = new Map<string, string>();
  #targets = new Map<string, UidTarget>();
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
    const key = keyOf(target);
    let uid = this.#uidByKey.get(key);
    if (uid === undefined || seen.has(key)) {
      uid = String(this.#nextUid++);
    }
    seen.set(key, uid);
    seenTargets.set(uid, target);
    return uid;
  }

  freshUid(): string {
    return String(this.#nextUid++);
  }

  /**
   * Keeps only the uids of the latest snapshot: ids of vanished nodes are forgotten. A partial
   * snapshot (one element's subtree) adds its uids to the ones the agent already holds.
   */
  commit(seen: Map<string, string>, targets: Map<string, UidTarget>, partial = false): void {
    if (partial) {
      for (const [key, uid] of seen) {
        this.#uidByKey.set(key, uid);
      }
      for (const [uid, target] of targets) {
        this.#targets.set(uid, target);
      }
    } else {
      this.#uidByKey = seen;
      this.#targets = targets;
    }
    this.hasSnapshot = true;
  }

  target(uid: string): UidTarget | undefined {
    return this.#targets.get(normalizeUid(uid));
  }

  /** The uid the latest snapshot gave a node of the given session, if it showed the node. */
  uidOf(backendNodeId: number, session: CDPSession): string | undefined {
    for (const [uid, target] of this.#targets) {
      if (target.backendNodeId === backendNodeId && target.session === session) {
        return uid;
      }
    }
    return undefined;
  }
}

export const snapshotFeature = new PageFeature('snapshot', () => new SnapshotStore());
