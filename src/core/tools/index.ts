/**
 * Every tool the engine knows. Each family lives in its own file; the catalog decides at run time
 * which of them clients see.
 */
import type {Tool} from './definition.js';
import {pageTools} from './pages.js';
import {screenshotTools} from './screenshot.js';
import {scriptTools} from './script.js';
import {slimTools} from './slim/tools.js';
import {snapshotTools} from './snapshot.js';

export function allTools(): Tool[] {
  return [...pageTools, ...snapshotTools, ...screenshotTools, ...scriptTools, ...slimTools];
}
