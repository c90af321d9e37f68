/**
 * Step writers of emulate and resize_page: the page's size with setViewportSize (or, for a device
 * pixel ratio, mobile or touch, the same DevTools override the engine used), media features with
 * emulateMedia, offline and geolocation on the test's context, CPU and network throttling and the
 * user agent through a CDP session of the page (the test runs in Chromium, as the recording did).
 * emulate replaces every setting at each call, as the tool does: what a call leaves out is reset.
 */
import {PredefinedNetworkConditions} from 'puppeteer-core';
import {jsString, jsValue} from './literals.js';
import {pageOf, SkipStep, text, type StepContext, type StepWriter} from './stepKit.js';

const MEDIA: readonly [param: string, option: string, accepted: readonly string[]][] = [
  ['colorScheme', 'colorScheme', ['light', 'dark', 'no-preference']],
  ['forcedColors', 'forcedColors', ['active', 'none']],
  ['prefersReducedMotion', 'reducedMotion', ['reduce', 'no-preference']],
  ['prefersContrast', 'contrast', ['more', 'no-preference']],
];

function cdp(page: string, method: string, params: Record<string, unknown>): string {
  return `await (await ${page}.context().newCDPSession(${page})).send(${jsString(method)}, ${jsValue(params)});`;
}

function whole(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The viewport setting ("<w>x<h>[x<dpr>][,mobile][,touch][,landscape]") as test lines. */
function viewportLines(page: string, setting: string): string[] {
  const [size = '', ...tags] = setting.split(',').map(part => part.trim());
  const [rawWidth, rawHeight, ratio] = size.split('x').map(Number);
  const width = whole(rawWidth);
  const height = whole(rawHeight);
  if (width === undefined || height === undefined) {
    throw new SkipStep(`the viewport ${jsValue(setting).slice(0, 60)} has no width and height`);
  }
  const scale = ratio !== undefined && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
  if (scale === 1 && tags.length === 0) {
    return [`await ${page}.setViewportSize({ width: ${width}, height: ${height} });`];
  }
  const mobile = tags.includes('mobile');
  const landscape = tags.includes('landscape');
  return [
    cdp(page, 'Emulation.setDeviceMetricsOverride', {
      width,
      height,
      deviceScaleFactor: scale,
      mobile,
      screenOrientation: landscape
        ? {type: 'landscapePrimary', angle: 90}
        : {type: 'portraitPrimary', angle: 0},
    }),
    cdp(page, 'Emulation.setTouchEmulationEnabled', {enabled: tags.includes('touch')}),
  ];
}

/**
 * Back to the test's own viewport (the `viewport` fixture: its config, or the recorded --viewport
 * the file sets with test.use), as the engine goes back to its default.
 */
function resetViewport(page: string): string[] {
  return [`if (viewport) await ${page}.setViewportSize(viewport);`];
}

function mediaLine(context: StepContext, page: string): string {
  const options = MEDIA.map(([param, option, accepted]) => {
    const value = text(context.call.args[param]);
    return `${option}: ${value !== undefined && accepted.includes(value) ? jsString(value) : 'null'}`;
  });
  return `await ${page}.emulateMedia({ ${options.join(', ')} });`;
}

function networkLines(page: string, preset: string | undefined): string[] {
  if (preset === 'Offline') {
    return [`await ${page}.context().setOffline(true);`];
  }
  const conditions =
    preset !== undefined && Object.hasOwn(PredefinedNetworkConditions, preset)
      ? Object.entries(PredefinedNetworkConditions).find(([name]) => name === preset)?.[1]
      : undefined;
  return [
    `await ${page}.context().setOffline(false);`,
    cdp(page, 'Network.emulateNetworkConditions', {
      offline: false,
      latency: conditions?.latency ?? 0,
      downloadThroughput: conditions?.download ?? -1,
      uploadThroughput: conditions?.upload ?? -1,
    }),
  ];
}

function geolocationLines(page: string, setting: string | undefined): string[] {
  const [latitude, longitude] = (setting ?? '').split(',').map(Number);
  if (setting === undefined || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
    return [`await ${page}.context().setGeolocation(null);`];
  }
  return [
    `await ${page}.context().grantPermissions(['geolocation']);`,
    `await ${page}.context().setGeolocation({ latitude: ${latitude}, longitude: ${longitude} });`,
  ];
}

function emulate(context: StepContext): string[] {
  const page = pageOf(context);
  const {args} = context.call;
  const applied = context.export.emulated(context.call);
  const lines = [...page.lines, mediaLine(context, page.name)];
  const viewport = text(args.viewport);
  if (viewport !== undefined && viewport.trim() !== '') {
    lines.push(...viewportLines(page.name, viewport));
    applied.add('viewport');
  } else if (applied.delete('viewport')) {
    lines.push(...resetViewport(page.name));
  }
  const cpu = typeof args.cpuThrottlingRate === 'number' ? args.cpuThrottlingRate : undefined;
  if (cpu !== undefined || applied.delete('cpu')) {
    lines.push(cdp(page.name, 'Emulation.setCPUThrottlingRate', {rate: cpu ?? 1}));
    if (cpu !== undefined) {
      applied.add('cpu');
    }
  }
  const network = text(args.networkConditions);
  if (network !== undefined || applied.delete('network')) {
    lines.push(...networkLines(page.name, network));
    if (network !== undefined) {
      applied.add('network');
    }
  }
  const geolocation = text(args.geolocation);
  if (geolocation !== undefined || applied.delete('geolocation')) {
    lines.push(...geolocationLines(page.name, geolocation));
    if (geolocation !== undefined) {
      applied.add('geolocation');
    }
  }
  const userAgent = text(args.userAgent);
  if (userAgent !== undefined && userAgent !== '') {
    lines.push(cdp(page.name, 'Emulation.setUserAgentOverride', {userAgent}));
  }
  const headers = text(args.extraHttpHeaders);
  if (headers !== undefined) {
    lines.push(`await ${page.name}.setExtraHTTPHeaders(${headersLiteral(headers)});`);
  }
  return lines;
}

function headersLiteral(json: string): string {
  if (json.trim() === '') {
    return '{}';
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new SkipStep('the recorded extraHttpHeaders are not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SkipStep('the recorded extraHttpHeaders are not an object');
  }
  const entries = Object.entries(value).flatMap(([name, header]: [string, unknown]) =>
    typeof header === 'string' ? [`${jsString(name)}: ${jsString(header)}`] : [],
  );
  return `{ ${entries.join(', ')} }`;
}

export const emulationSteps = {
  emulate,
  resize_page: context => {
    const page = pageOf(context);
    const width = whole(context.call.args.width);
    const height = whole(context.call.args.height);
    if (width === undefined || height === undefined) {
      throw new SkipStep('no width and height were recorded');
    }
    return [
      ...page.lines,
      `await ${page.name}.setViewportSize({ width: ${width}, height: ${height} });`,
    ];
  },
} satisfies Record<string, StepWriter>;
