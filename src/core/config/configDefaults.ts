/** What some flags accept and the defaults they state: read by the flag specs and the config schema. */
export const CHROME_CHANNELS = ['stable', 'beta', 'dev', 'canary'] as const;
export type ChromeChannel = (typeof CHROME_CHANNELS)[number];
export const SCREENSHOT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];

export const DEFAULT_CLIENT_SESSION_IDLE_SECONDS = 30 * 60;
export const DEFAULT_MAX_CLIENT_SESSIONS = 100;
export const DEFAULT_RESUME_WINDOW_SECONDS = 10;
export const DEFAULT_HOLD_TIMEOUT_SECONDS = 300;
