/**
 * Preload (sandboxed, bundled into one CJS file): exposes the frozen inspector bridge as
 * `window.inspectorBridge`, and nothing else.
 */
import {contextBridge, ipcRenderer} from 'electron';
import {createInspectorBridge} from './bridge.js';

contextBridge.exposeInMainWorld('inspectorBridge', createInspectorBridge(ipcRenderer));
