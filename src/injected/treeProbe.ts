/**
 * In-page side of the snapshot cache's reading (src/core/browser/snapshot/pageProbe.ts): the
 * document's tree probe (common/treeProbe.ts), installed once per document in the isolated world.
 */
import {readProbe, treeProbe} from './common/treeProbe.js';

/** Installs the probe if needed; its reading (`document:counter:fingerprint`). */
export function readTreeProbe(): string {
  return readProbe(treeProbe());
}
