/**
 * Tool family: memory — the heap snapshot analysis tools behind --memoryDebugging, with
 * chrome-devtools-mcp 1.11's names, parameters and output. They work offline on files written by
 * take_heapsnapshot: each file is parsed once, in a worker thread, by Chrome DevTools' own heap
 * snapshot engine, and kept until close_heapsnapshot.
 */
import {compareSnapshots} from './compare.js';
import {
  getClassNodes,
  getDominators,
  getEdges,
  getObjectDetails,
  getRetainers,
  getRetainingPaths,
} from './objects.js';
import {
  analyzeContexts,
  closeSnapshot,
  getDetails,
  getDuplicateStrings,
  getSummary,
  queryObjects,
} from './overview.js';

export const heapAnalysisTools = [
  getSummary,
  getDetails,
  getClassNodes,
  getRetainers,
  getEdges,
  getRetainingPaths,
  getDominators,
  getObjectDetails,
  getDuplicateStrings,
  queryObjects,
  compareSnapshots,
  analyzeContexts,
  closeSnapshot,
];
