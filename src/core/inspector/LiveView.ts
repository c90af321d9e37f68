/**
 * Live view of the selected page for the inspector, from CDP screencast frames.
 * (Filled in by the inspector issue.)
 */
import type {LiveFrame} from '../../shared/protocol.js';
import type {BrowserSession} from '../browser/BrowserSession.js';

export class LiveView {
  constructor(
    readonly session: BrowserSession,
    readonly emit: (frame: LiveFrame) => void,
  ) {}

  start(_pageId: number | undefined): Promise<void> {
    return Promise.reject(new Error('The live view is not available in this build.'));
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}
