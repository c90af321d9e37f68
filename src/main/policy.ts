/**
 * The one security policy for every webContents (installed from `app.on('web-contents-created')`)
 * and for the app session: no navigation away from the app origin, no new windows, no webviews,
 * every permission denied. Links to http(s) pages open in the user's browser, and only after the
 * user confirms. Electron objects come in as parameters so plain Node tests can drive the policy.
 */
import {originOf} from './appProtocol.js';

/** The parts of Electron's navigation events the policy reads. */
export interface NavigationEvent {
  readonly url: string;
  readonly isMainFrame?: boolean;
  preventDefault(): void;
}

export interface PolicedContents {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate',
    listener: (event: NavigationEvent) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: {preventDefault(): void}) => void): unknown;
  setWindowOpenHandler(handler: (details: {url: string}) => {action: 'deny'}): void;
}

export type ExternalOpenOutcome = 'opened' | 'cancelled' | 'refused' | 'busy';

export interface ExternalLinks {
  /** Asks the user; resolves true only if they chose to open the link. */
  confirm(url: string): Promise<boolean>;
  openExternal(url: string): Promise<void>;
  log?(line: string): void;
}

/**
 * Parses a link and returns its normalised form if it may be offered to the user at all: http or
 * https, no embedded credentials (they make `https://bank.example@evil.example` look trustworthy).
 */
export function externalLinkTarget(rawUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    return undefined;
  }
  return url.href;
}

/**
 * Opens links in the user's browser after they confirm. One question at a time: a page that
 * spams window.open gets one dialog, not a stack of them.
 */
export function createExternalLinkOpener(
  links: ExternalLinks,
): (rawUrl: string) => Promise<ExternalOpenOutcome> {
  let asking = false;
  return async rawUrl => {
    const target = externalLinkTarget(rawUrl);
    if (target === undefined) {
      links.log?.(
        `Refused to open ${JSON.stringify(rawUrl.slice(0, 200))}: only http(s) links open outside the app.`,
      );
      return 'refused';
    }
    if (asking) {
      return 'busy';
    }
    asking = true;
    try {
      if (!(await links.confirm(target))) {
        return 'cancelled';
      }
      await links.openExternal(target);
      return 'opened';
    } finally {
      asking = false;
    }
  };
}

export interface NavigationPolicy {
  /** Whether a URL belongs to the app itself (its protocol origin, or the dev server in dev). */
  isAppUrl(url: string): boolean;
  openExternal(url: string): Promise<ExternalOpenOutcome>;
}

export function appUrlMatcher(allowedOrigins: readonly string[]): (url: string) => boolean {
  const allowed = new Set(allowedOrigins);
  return url => {
    const origin = originOf(url);
    return origin !== undefined && allowed.has(origin);
  };
}

/** Installs the navigation, redirect, webview and window-open rules on one webContents. */
export function applyWebContentsPolicy(contents: PolicedContents, policy: NavigationPolicy): void {
  const guard = (event: NavigationEvent): void => {
    if (policy.isAppUrl(event.url)) {
      return;
    }
    event.preventDefault();
    // A plain link click in the UI is a navigation: offer it to the user's browser instead.
    if (event.isMainFrame !== false) {
      void policy.openExternal(event.url);
    }
  };
  contents.on('will-navigate', guard);
  contents.on('will-frame-navigate', event => {
    // Main-frame navigations already went through will-navigate; this catches subframes.
    if (event.isMainFrame === true || policy.isAppUrl(event.url)) {
      return;
    }
    event.preventDefault();
  });
  contents.on('will-redirect', event => {
    if (!policy.isAppUrl(event.url)) {
      event.preventDefault();
    }
  });
  contents.on('will-attach-webview', event => event.preventDefault());
  contents.setWindowOpenHandler(({url}) => {
    void policy.openExternal(url);
    return {action: 'deny'};
  });
}

/** The parts of an Electron session the permission policy sets. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
}

/** Deny by default: the inspector UI needs no camera, notifications, clipboard reads or devices. */
export function applyPermissionPolicy(
  session: PermissionSession,
  log?: (line: string) => void,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log?.(`Denied a "${permission}" permission request from the app window.`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
