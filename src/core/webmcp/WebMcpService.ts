/**
 * The pages' own WebMCP tools: registry fed by the CDP WebMCP domain, invocations from anyone,
 * execute/cancel, and the doctor. (Filled in by the WebMCP issue.)
 */
import type {InspectorCommand, WebMcpToolView} from '../../shared/protocol.js';
import type {BrowserSession} from '../browser/BrowserSession.js';
import type {AttachableFeature} from '../browser/PageState.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';

export type WebMcpCommand = Extract<InspectorCommand, {type: `webmcp${string}`}>;

export interface WebMcpServiceDeps {
  session: BrowserSession;
  hub: InspectorHub;
}

export class WebMcpService {
  readonly features: AttachableFeature[] = [];

  constructor(readonly deps: WebMcpServiceDeps) {}

  tools(): WebMcpToolView[] {
    return [];
  }

  handle(command: WebMcpCommand): Promise<unknown> {
    return Promise.reject(new Error(`The ${command.type} command is not available in this build.`));
  }
}
