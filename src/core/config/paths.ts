import os from 'node:os';
import path from 'node:path';
import {APP_ID} from '../../shared/constants.js';

/** Per-user configuration directory (token, saved settings). Overridable for tests. */
export function userConfigDir(env: Record<string, string | undefined> = process.env): string {
  const override = env.MCP_BROWSER_INSPECTOR_CONFIG_DIR;
  if (override) {
    return override;
  }
  const home = os.homedir();
  if (process.platform === 'darwin') {
    return path.join(home, 'Library', 'Application Support', APP_ID);
  }
  if (process.platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_ID);
  }
  // Linux and the other Unixes: the XDG layout.
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_ID);
}

/** Default Chromium profile for launched browsers, kept apart from the user's own Chrome profile. */
export function defaultProfileDir(
  channel: string | undefined,
  env: Record<string, string | undefined> = process.env,
): string {
  const base = env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  return path.join(
    base,
    APP_ID,
    `chrome-profile${channel && channel !== 'stable' ? `-${channel}` : ''}`,
  );
}
