/**
 * Per-page collectors (console, network): eager page features, attached as soon as a page is
 * registered so they see its first request.
 */
import {PageFeature, type AttachableFeature} from '../pages/PageState.js';
import {ConsoleCollector} from './ConsoleCollector.js';
import {NetworkCollector} from './NetworkCollector.js';

export const consoleCollectorFeature = new PageFeature(
  'console',
  page => new ConsoleCollector(page),
  {
    eager: true,
    dispose: collector => collector.dispose(),
  },
);

export const networkCollectorFeature = new PageFeature(
  'network',
  page => new NetworkCollector(page),
  {
    eager: true,
    dispose: collector => collector.dispose(),
  },
);

export const collectorFeatures: AttachableFeature[] = [
  consoleCollectorFeature,
  networkCollectorFeature,
];
