/**
 * Per-page emulation: what `emulate` turned on for a page, how it is applied to the browser, and
 * the lines every later response for that page repeats while it lasts (chrome-devtools-mcp's echo,
 * so an agent never forgets that the page it looks at is throttled or spoofed).
 */
import {PredefinedNetworkConditions} from 'puppeteer-core';
import {z} from 'zod';
import {evaluateInPage} from '../evaluation.js';
import {PageFeature, type AttachableFeature, type PageState} from './PageState.js';
import {navigationTimeout, slowdownFeature} from '../timeouts.js';

export const NETWORK_CONDITIONS = ['Offline', 'Slow 3G', 'Fast 3G', 'Slow 4G', 'Fast 4G'] as const;
export type NetworkConditionName = (typeof NETWORK_CONDITIONS)[number];

/** How much slower every network wait gets (chrome-devtools-mcp's factors; offline waits are not longer). */
const NETWORK_SLOWDOWN: Readonly<Record<NetworkConditionName, number>> = {
  Offline: 1,
  'Slow 3G': 10,
  'Fast 3G': 5,
  'Slow 4G': 2.5,
  'Fast 4G': 1,
};

export const COLOR_SCHEMES = ['dark', 'light'] as const;
export const FORCED_COLORS = ['active', 'none'] as const;
export const PREFERS_CONTRAST = ['more', 'less', 'custom', 'no-preference'] as const;
export const PREFERS_REDUCED_MOTION = ['reduce', 'no-preference'] as const;

export interface ViewportSetting {
  width: number;
  height: number;
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  isLandscape: boolean;
}

export interface GeolocationSetting {
  latitude: number;
  longitude: number;
}

/** Only active overrides are present; an empty object means the page runs unemulated. */
export interface EmulationSettings {
  networkConditions?: NetworkConditionName;
  /** Only above 1. */
  cpuThrottlingRate?: number;
  geolocation?: GeolocationSetting;
  userAgent?: string;
  colorScheme?: (typeof COLOR_SCHEMES)[number];
  forcedColors?: (typeof FORCED_COLORS)[number];
  prefersContrast?: (typeof PREFERS_CONTRAST)[number];
  prefersReducedMotion?: (typeof PREFERS_REDUCED_MOTION)[number];
  viewport?: ViewportSetting;
  /** Persist across `emulate` calls until replaced or cleared with "". */
  extraHttpHeaders?: Readonly<Record<string, string>>;
}

interface EmulationRecord {
  settings: EmulationSettings;
}

const emulationFeature = new PageFeature<EmulationRecord>('emulation', () => ({
  settings: {},
}));

export const emulationFeatures: AttachableFeature[] = [emulationFeature];

export function emulationSettings(page: PageState): EmulationSettings {
  return emulationFeature.peek(page)?.settings ?? {};
}

/** `390x844x3,mobile,touch`: the same notation `emulate` accepts. */
export function formatViewport(viewport: ViewportSetting): string {
  const tags = [
    viewport.isMobile ? 'mobile' : '',
    viewport.hasTouch ? 'touch' : '',
    viewport.isLandscape ? 'landscape' : '',
  ].filter(Boolean);
  return [`${viewport.width}x${viewport.height}x${viewport.deviceScaleFactor}`, ...tags].join(',');
}

export interface ApplyOutcome {
  /** Puppeteer reloads the page when mobile or touch emulation flips, so the page sees it. */
  reloaded: boolean;
}

/**
 * Makes the browser match `next` for this page, resetting whatever `next` leaves out, and rescales
 * the page's default waits. Overrides live on puppeteer's own cdp where puppeteer has an API
 * (it re-applies them to out-of-process frames); the rest go through the page's cdp.
 */
export async function applyEmulation(
  state: PageState,
  next: EmulationSettings,
  options: {
    /** The viewport pages get without emulation (the --viewport flag); restored instead of none. */
    defaultViewport?: {width: number; height: number} | undefined;
  } = {},
): Promise<ApplyOutcome> {
  const page = state.page;
  const cdp = state.cdp;
  const record = emulationFeature.get(state);
  const previous = record.settings;

  // Lift network throttling first: a viewport change may reload the page, which must not run
  // offline or throttled by a setting this call is removing.
  if (next.networkConditions === undefined) {
    await page.emulateNetworkConditions(null);
  }
  await Promise.all([
    next.geolocation
      ? cdp.send('Emulation.setGeolocationOverride', {...next.geolocation, accuracy: 1})
      : cdp.send('Emulation.clearGeolocationOverride'),
    // An empty override restores the browser's own user agent.
    page.setUserAgent({userAgent: next.userAgent ?? ''}),
    cdp.send('Emulation.setEmulatedMedia', {
      features: [
        {name: 'prefers-color-scheme', value: next.colorScheme ?? ''},
        {name: 'forced-colors', value: next.forcedColors ?? ''},
        {name: 'prefers-contrast', value: next.prefersContrast ?? ''},
        {name: 'prefers-reduced-motion', value: next.prefersReducedMotion ?? ''},
      ],
    }),
    next.extraHttpHeaders === previous.extraHttpHeaders
      ? undefined
      : page.setExtraHTTPHeaders({...(next.extraHttpHeaders ?? {})}),
  ]);

  const wasMobile = previous.viewport?.isMobile ?? false;
  const hadTouch = previous.viewport?.hasTouch ?? false;
  const reloaded =
    (next.viewport?.isMobile ?? false) !== wasMobile ||
    (next.viewport?.hasTouch ?? false) !== hadTouch;
  // Record before the viewport step: if its reload fails, the overrides are already in place.
  record.settings = next;
  const factors = slowdownFeature.get(state);
  factors.cpu = next.cpuThrottlingRate ?? 1;
  factors.network = next.networkConditions ? NETWORK_SLOWDOWN[next.networkConditions] : 1;

  const viewport = next.viewport ?? options.defaultViewport ?? null;
  await page.setViewport(viewport);
  if (!reloaded && !sameSize(previous.viewport, next.viewport)) {
    await settleViewport(state, viewport ?? undefined, previous.viewport);
  }

  if (next.networkConditions === 'Offline') {
    await page.emulateNetworkConditions({offline: true, download: 0, upload: 0, latency: 0});
  } else if (next.networkConditions !== undefined) {
    await page.emulateNetworkConditions(PredefinedNetworkConditions[next.networkConditions]);
  }
  await page.emulateCPUThrottling(next.cpuThrottlingRate ?? 1);
  return {reloaded};
}

function sameSize(a: ViewportSetting | undefined, b: ViewportSetting | undefined): boolean {
  return a?.width === b?.width && a?.height === b?.height;
}

/** A size change reaches the page a frame or more later; the next call must see the new size. */
export const SIZE_SETTLE_MS = 1_000;
const innerSizeSchema = z.tuple([z.number(), z.number()]);

export interface InnerSize {
  width: number;
  height: number;
}

/**
 * Reads window.innerWidth/innerHeight until `settled` holds or `SIZE_SETTLE_MS` passed, and
 * returns the last reading. Each read is bounded and raced against dialogs; their errors are thrown.
 */
export async function readInnerSize(
  state: PageState,
  settled: (size: InnerSize) => boolean,
): Promise<InnerSize> {
  const deadline = Date.now() + SIZE_SETTLE_MS;
  for (;;) {
    const {result} = await evaluateInPage(
      state,
      {expression: '[innerWidth, innerHeight]', returnByValue: true},
      {timeoutMs: SIZE_SETTLE_MS * 2},
    );
    const parsed = innerSizeSchema.safeParse(result.value);
    if (!parsed.success) {
      throw new Error('Could not read the page size.');
    }
    const size = {width: parsed.data[0], height: parsed.data[1]};
    if (settled(size) || Date.now() > deadline) {
      return size;
    }
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the page measures the size it was given: `to` when known, else (the browser
 * window's own size) anything but the emulated size `from` it leaves. A mobile viewport is not
 * waited for: its page size follows the page's own viewport meta tag.
 */
async function settleViewport(
  state: PageState,
  to: {width: number; height: number; isMobile?: boolean} | undefined,
  from: ViewportSetting | undefined,
): Promise<void> {
  if (to?.isMobile === true || (to === undefined && from === undefined)) {
    return;
  }
  await readInnerSize(state, ({width, height}) =>
    to
      ? width === to.width && height === to.height
      : width !== from?.width || height !== from.height,
  ).catch(() => undefined);
}

/** The echo: one line per active override, in chrome-devtools-mcp's order and wording. */
export function describeEmulation(state: PageState): string[] {
  const settings = emulationSettings(state);
  const lines: string[] = [];
  const timeoutLine = `Default navigation timeout set to ${navigationTimeout(slowdownFeature.get(state))} ms`;
  if (settings.networkConditions) {
    lines.push(`Emulating network conditions: ${settings.networkConditions}`, timeoutLine);
  }
  if (settings.geolocation) {
    lines.push(
      `Emulating geolocation: latitude=${settings.geolocation.latitude}, longitude=${settings.geolocation.longitude}`,
    );
  }
  if (settings.viewport) {
    lines.push(`Emulating viewport: ${formatViewport(settings.viewport)}`);
  }
  if (settings.userAgent) {
    lines.push(`Emulating user agent: ${settings.userAgent}`);
  }
  if (settings.cpuThrottlingRate) {
    lines.push(`Emulating CPU throttling: ${settings.cpuThrottlingRate}x slowdown`);
    if (!settings.networkConditions) {
      lines.push(timeoutLine);
    }
  }
  if (settings.colorScheme) {
    lines.push(`Emulating color scheme: ${settings.colorScheme}`);
  }
  if (settings.forcedColors) {
    lines.push(`Emulating forced-colors: ${settings.forcedColors}`);
  }
  if (settings.prefersContrast) {
    lines.push(`Emulating prefers-contrast: ${settings.prefersContrast}`);
  }
  if (settings.prefersReducedMotion) {
    lines.push(`Emulating prefers-reduced-motion: ${settings.prefersReducedMotion}`);
  }
  if (settings.extraHttpHeaders) {
    // Names only: values are often credentials.
    lines.push(`Sending extra HTTP headers: ${Object.keys(settings.extraHttpHeaders).join(', ')}`);
  }
  return lines;
}

/**
 * Lighthouse emulates through its own cdp; when that cdp detaches Chrome drops the
 * device-metrics override it shared with ours. puppeteer's cdp believes its override is still
 * in place and Chrome skips a repeat of it, so the viewport is re-sent from the page's own cdp
 * (cleared first, for the same reason on a second audit).
 */
export async function reapplyEmulation(page: PageState): Promise<void> {
  const settings = emulationSettings(page);
  await applyEmulation(page, settings).catch(() => undefined);
  const cdp = page.cdp;
  const viewport = settings.viewport;
  if (viewport) {
    await cdp.send('Emulation.clearDeviceMetricsOverride').catch(() => undefined);
    await cdp
      .send('Emulation.setDeviceMetricsOverride', {
        width: viewport.width,
        height: viewport.height,
        deviceScaleFactor: viewport.deviceScaleFactor,
        mobile: viewport.isMobile,
        screenOrientation: viewport.isLandscape
          ? {angle: 90, type: 'landscapePrimary'}
          : {angle: 0, type: 'portraitPrimary'},
      })
      .catch(() => undefined);
  }
  await cdp.send('Emulation.setFocusEmulationEnabled', {enabled: true}).catch(() => undefined);
}
