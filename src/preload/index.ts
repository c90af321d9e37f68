/**
 * Preload bridge (sandboxed). The desktop-shell issue exposes the named-method API here.
 */
import {contextBridge} from 'electron';

contextBridge.exposeInMainWorld('inspectorBridge', Object.freeze({}));
