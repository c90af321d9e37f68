import type {InspectorHub} from '../inspector/InspectorHub.js';
import type {WebMcpService} from '../webmcp/WebMcpService.js';

/** Engine-wide services a tool handler may need beyond the browser session. */
export interface EngineServices {
  hub: InspectorHub;
  webmcp: WebMcpService;
}
