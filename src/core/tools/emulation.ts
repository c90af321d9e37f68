/**
 * Tool family: emulation — `emulate` (network, CPU, geolocation, user agent, media features,
 * viewport, extra headers) and `resize_page`. The active emulation is repeated in every later
 * response for the page (a response decorator), as chrome-devtools-mcp does.
 */
import {z} from 'zod';
import {
  COLOR_SCHEMES,
  FORCED_COLORS,
  NETWORK_CONDITIONS,
  PREFERS_CONTRAST,
  PREFERS_REDUCED_MOTION,
  applyEmulation,
  describeEmulation,
  emulationSettings,
  formatViewport,
  readInnerSize,
  type EmulationSettings,
  type InnerSize,
  type GeolocationSetting,
  type ViewportSetting,
} from '../browser/pages/emulationState.js';
import {DialogOpenedError} from '../browser/evaluation.js';
import type {PageState} from '../browser/pages/PageState.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {definePageTool, type ToolCall} from './base/definition.js';
import type {PageStateSection} from './base/sections.js';
import {errorText} from '../../shared/values.js';

/** The active emulation, repeated in every later response about the page. */
export const emulationStateSection: PageStateSection = (response, page) => {
  const lines = describeEmulation(page);
  if (lines.length > 0) {
    response.addSection(SECTION_ORDER.emulation, () => lines.join('\n'));
  }
};

const VIEWPORT_FORMAT =
  'Expected "<width>x<height>[x<devicePixelRatio>][,mobile][,touch][,landscape]", e.g. "390x844x3,mobile,touch"; pass "" to clear.';
const VIEWPORT_TAGS = ['mobile', 'touch', 'landscape'] as const;
/** Chromium's limit for an emulated screen side. */
const MAX_VIEWPORT_SIDE = 10_000_000;

/** `"<width>x<height>[x<dpr>][,mobile][,touch][,landscape]"`; "" means no override. */
function parseViewport(text: string): ViewportSetting | undefined {
  if (text.trim() === '') {
    return undefined;
  }
  const [dimensions = '', ...rawTags] = text.split(',').map(part => part.trim());
  const parts = dimensions.split('x');
  const [width, height, dpr] = parts.map(part => (part.trim() === '' ? Number.NaN : Number(part)));
  const isSide = (value: number | undefined): value is number =>
    value !== undefined && Number.isInteger(value) && value > 0 && value <= MAX_VIEWPORT_SIDE;
  if (parts.length > 3 || !isSide(width) || !isSide(height)) {
    throw new Error(
      `Invalid viewport "${text}": width and height must be positive whole numbers. ${VIEWPORT_FORMAT}`,
    );
  }
  if (dpr !== undefined && (!Number.isFinite(dpr) || dpr <= 0 || dpr > 10)) {
    throw new Error(
      `Invalid devicePixelRatio in viewport "${text}": use a number above 0 and at most 10. ${VIEWPORT_FORMAT}`,
    );
  }
  const tags = new Set<string>();
  for (const tag of rawTags) {
    if (!VIEWPORT_TAGS.some(known => known === tag)) {
      throw new Error(
        `Unknown viewport option "${tag}" in "${text}": use mobile, touch or landscape. ${VIEWPORT_FORMAT}`,
      );
    }
    tags.add(tag);
  }
  return {
    width,
    height,
    deviceScaleFactor: dpr ?? 1,
    isMobile: tags.has('mobile'),
    hasTouch: tags.has('touch'),
    isLandscape: tags.has('landscape'),
  };
}

const GEOLOCATION_FORMAT =
  'Expected "<latitude>,<longitude>" with latitude from -90 to 90 and longitude from -180 to 180, e.g. "48.8584,2.2945"; pass "" to clear.';

function parseGeolocation(text: string): GeolocationSetting | undefined {
  if (text.trim() === '') {
    return undefined;
  }
  const parts = text.split(',').map(part => part.trim());
  const [latitude, longitude] = parts.map(part => (part === '' ? Number.NaN : Number(part)));
  if (
    parts.length !== 2 ||
    latitude === undefined ||
    longitude === undefined ||
    !Number.isFinite(latitude) ||
    !Number.isFinite(longitude) ||
    Math.abs(latitude) > 90 ||
    Math.abs(longitude) > 180
  ) {
    throw new Error(`Invalid geolocation "${text}". ${GEOLOCATION_FORMAT}`);
  }
  return {latitude, longitude};
}

const HEADERS_FORMAT =
  'Expected a JSON object of header names to string values, e.g. {"X-Custom":"value"}; pass "" to clear.';
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** RFC 9110 token characters: anything else is refused by the browser later, less clearly. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseExtraHeaders(text: string): Record<string, string> | undefined {
  if (text.trim() === '') {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = errorText(error);
    throw new Error(`Invalid JSON for extraHttpHeaders: ${reason}. ${HEADERS_FORMAT}`, {
      cause: error,
    });
  }
  const headers = z.record(z.string(), z.string()).safeParse(parsed);
  if (!headers.success) {
    throw new Error(
      `Invalid extraHttpHeaders: ${Array.isArray(parsed) || typeof parsed !== 'object' || parsed === null ? 'not a JSON object' : 'every value must be a string'}. ${HEADERS_FORMAT}`,
    );
  }
  for (const [name, value] of Object.entries(headers.data)) {
    if (!HEADER_NAME.test(name)) {
      throw new Error(`Invalid header name ${JSON.stringify(name)}. ${HEADERS_FORMAT}`);
    }
    if (CONTROL_CHARACTERS.test(value)) {
      throw new Error(
        `Invalid value for header ${JSON.stringify(name)}: line breaks and control characters are not allowed.`,
      );
    }
  }
  return Object.keys(headers.data).length > 0 ? headers.data : undefined;
}

/** The --viewport flag applies to launched browsers only (puppeteer's defaultViewport). */
function configuredViewport(call: ToolCall<unknown>): {width: number; height: number} | undefined {
  return call.browser.mode === 'launch' ? call.config.browser.viewport : undefined;
}

export const emulate = definePageTool({
  name: 'emulate',
  description:
    'Emulate device conditions on the page. Each call replaces all settings except extraHttpHeaders: pass everything you want at once; omit a setting to reset it.',
  category: 'emulation',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    networkConditions: z.enum(NETWORK_CONDITIONS).optional().describe('Network throttling.'),
    cpuThrottlingRate: z
      .number()
      .min(1)
      .max(20)
      .optional()
      .describe('CPU slowdown factor; 1 = none.'),
    geolocation: z.string().optional().describe('"<latitude>,<longitude>".'),
    userAgent: z.string().optional().describe('User agent; "" = default.'),
    colorScheme: z
      .enum([...COLOR_SCHEMES, 'auto'])
      .optional()
      .describe('prefers-color-scheme.'),
    forcedColors: z
      .enum([...FORCED_COLORS, 'auto'])
      .optional()
      .describe('forced-colors.'),
    prefersContrast: z
      .enum([...PREFERS_CONTRAST, 'auto'])
      .optional()
      .describe('prefers-contrast.'),
    prefersReducedMotion: z
      .enum([...PREFERS_REDUCED_MOTION, 'auto'])
      .optional()
      .describe('prefers-reduced-motion.'),
    viewport: z
      .string()
      .optional()
      .describe('"<width>x<height>x<devicePixelRatio>[,mobile][,touch][,landscape]".'),
    extraHttpHeaders: z
      .string()
      .optional()
      .describe('JSON object of headers for every request; kept until "" clears it.'),
  },
  handler: async (call, response) => {
    const params = call.params;
    const previous = emulationSettings(call.page);
    if (params.userAgent !== undefined && CONTROL_CHARACTERS.test(params.userAgent)) {
      throw new Error(
        'Invalid userAgent: line breaks and control characters are not allowed. Pass the user agent as one line.',
      );
    }
    // Parse everything before touching the browser: a bad value changes nothing.
    const viewport = params.viewport === undefined ? undefined : parseViewport(params.viewport);
    const geolocation =
      params.geolocation === undefined ? undefined : parseGeolocation(params.geolocation);
    const extraHttpHeaders =
      params.extraHttpHeaders === undefined
        ? previous.extraHttpHeaders
        : parseExtraHeaders(params.extraHttpHeaders);
    const next: EmulationSettings = {
      ...(params.networkConditions ? {networkConditions: params.networkConditions} : {}),
      ...(params.cpuThrottlingRate !== undefined && params.cpuThrottlingRate > 1
        ? {cpuThrottlingRate: params.cpuThrottlingRate}
        : {}),
      ...(geolocation ? {geolocation} : {}),
      ...(params.userAgent ? {userAgent: params.userAgent} : {}),
      ...(params.colorScheme && params.colorScheme !== 'auto'
        ? {colorScheme: params.colorScheme}
        : {}),
      ...(params.forcedColors && params.forcedColors !== 'auto'
        ? {forcedColors: params.forcedColors}
        : {}),
      ...(params.prefersContrast && params.prefersContrast !== 'auto'
        ? {prefersContrast: params.prefersContrast}
        : {}),
      ...(params.prefersReducedMotion && params.prefersReducedMotion !== 'auto'
        ? {prefersReducedMotion: params.prefersReducedMotion}
        : {}),
      ...(viewport ? {viewport} : {}),
      ...(extraHttpHeaders ? {extraHttpHeaders} : {}),
    };
    const {reloaded} = await applyEmulation(call.page, next, {
      defaultViewport: configuredViewport(call),
    });
    response.appendLine(
      Object.keys(next).length > 0
        ? 'Emulation configured successfully'
        : 'Emulation cleared: the page runs with its defaults.',
    );
    if (reloaded) {
      response.appendLine('The page was reloaded so that mobile/touch emulation takes effect.');
    }
  },
});

interface WindowInfo {
  windowId: number;
  windowState: string | undefined;
}

async function pageWindow(page: PageState): Promise<WindowInfo> {
  const {windowId, bounds} = await page.cdp.send('Browser.getWindowForTarget', {
    targetId: page.targetId,
  });
  return {windowId, windowState: bounds.windowState};
}

/** Reads the page size, waiting (bounded) for the requested one when `wait`. */
async function innerSizeAfterResize(
  page: PageState,
  width: number,
  height: number,
  wait: boolean,
): Promise<InnerSize> {
  return readInnerSize(
    page,
    size => !wait || (size.width === width && size.height === height),
  ).catch((error: unknown) => {
    if (error instanceof DialogOpenedError) {
      throw error;
    }
    throw new Error('The page did not answer. It may be busy; retry when it responds.', {
      cause: error,
    });
  });
}

export const resizePage = definePageTool({
  name: 'resize_page',
  description: "Resize the page's window so the page content area has the given size.",
  category: 'emulation',
  readOnly: false,
  schema: {
    width: z.number().int().positive().describe('Page width (CSS px).'),
    height: z.number().int().positive().describe('Page height (CSS px).'),
  },
  handler: async (call, response) => {
    const {width, height} = call.params;
    const page = call.page;
    let resized = false;
    try {
      const window = await pageWindow(page);
      if (window.windowState !== undefined && window.windowState !== 'normal') {
        // Maximized, minimized and fullscreen windows ignore a size; fullscreen needs two steps.
        await page.cdp.send('Browser.setWindowBounds', {
          windowId: window.windowId,
          bounds: {windowState: 'normal'},
        });
        if (window.windowState === 'fullscreen') {
          await page.cdp.send('Browser.setWindowBounds', {
            windowId: window.windowId,
            bounds: {windowState: 'normal'},
          });
        }
      }
      await page.cdp.send('Browser.setContentsSize', {
        windowId: window.windowId,
        width,
        height,
      });
      resized = true;
    } catch {
      // No window to size (some remote or embedded browsers): fall through to emulation.
    }
    const emulated = emulationSettings(page).viewport;
    const configured = configuredViewport(call);
    const viewport = emulated
      ? formatViewport(emulated)
      : configured
        ? `${configured.width}x${configured.height} (--viewport)`
        : undefined;
    if (!resized) {
      await page.page.setViewport({width, height});
    }
    const actual = await innerSizeAfterResize(page, width, height, !(resized && viewport));
    response.appendLine(
      resized
        ? `Resized the page to ${actual.width}x${actual.height}.`
        : `The browser window cannot be resized; emulated a ${width}x${height} viewport instead. The page now measures ${actual.width}x${actual.height}.`,
    );
    if (resized && viewport) {
      response.appendLine(
        `Note: the emulated viewport ${viewport} still decides the page size.${emulated ? ' Call emulate without viewport to use the window size.' : ''}`,
      );
    } else if (resized && (actual.width !== width || actual.height !== height)) {
      response.appendLine(
        `Note: the page reports ${actual.width}x${actual.height} instead of ${width}x${height} (the window may be limited by the screen).`,
      );
    }
  },
});

export const emulationTools = [emulate, resizePage];
