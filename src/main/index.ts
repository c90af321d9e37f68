/**
 * Electron main process (thin shell). The desktop-shell issue fills this in; the engine does the work.
 */
import {app, BrowserWindow} from 'electron';

void app.whenReady().then(() => {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {sandbox: true, contextIsolation: true, nodeIntegration: false},
  });
  void window.loadURL('about:blank');
});
