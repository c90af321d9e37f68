/**
 * What this server takes from Lighthouse, in one module that the lighthouse tool imports lazily.
 * In the bundle it becomes one chunk, Lighthouse with its dependencies, loaded only when an audit
 * runs (see scripts/build-node.mjs).
 */
export {generateReport, navigation, snapshot} from 'lighthouse';
export {userAgents} from 'lighthouse/core/config/constants.js';
