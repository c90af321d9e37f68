/**
 * Adapts the engine to what the IPC bridge needs: the hub's batches, commands, and live frames.
 */
import type {Engine} from '../core/Engine.js';
import type {InspectorEndpoint} from './inspectorBridge.js';

export function engineEndpoint(engine: Engine): InspectorEndpoint {
  return {
    subscribe: (fromSeq, listener, streamId) => engine.hub.subscribe(fromSeq, listener, streamId),
    handleCommand: command => engine.handleCommand(command),
    onFrame: listener => engine.onFrame(listener),
    rendererGone: () => {
      // The desktop window is the engine's default live-view watcher.
      void engine.handleCommand({type: 'stopLiveView'});
    },
  };
}
