import type {InspectorHub} from '../inspector/InspectorHub.js';

/** Engine-wide services a tool handler may need beyond the browser session. */
export interface EngineServices {
  hub: InspectorHub;
}
