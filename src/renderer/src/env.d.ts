/// <reference types="vite/client" />
import type {InspectorBridge} from '../../shared/connection.js';

declare global {
  interface Window {
    /** Present only in the desktop app (the preload exposes it); absent in a browser tab. */
    inspectorBridge?: InspectorBridge;
  }
}
