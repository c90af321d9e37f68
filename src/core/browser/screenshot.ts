/**
 * Screenshots over raw CDP: viewport, full page or one element, optionally scaled down so that
 * neither side exceeds --screenshotMaxWidth / --screenshotMaxHeight.
 */
import type {Protocol} from 'puppeteer-core';
import type {Rect} from './input/elements.js';
import type {PageState} from './pages/PageState.js';

export interface CaptureOptions {
  format: 'png' | 'jpeg' | 'webp';
  quality?: number | undefined;
  fullPage?: boolean | undefined;
  /** Viewport-relative rectangle of an element to capture. */
  element?: Rect | undefined;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
}

export interface Capture {
  data: string;
  mimeType: string;
  width: number;
  height: number;
  /** The captured area in CSS pixels (before scaling). */
  viewport: {width: number; height: number};
}

export async function captureScreenshot(
  state: PageState,
  options: CaptureOptions,
): Promise<Capture> {
  const cdp = state.cdp;
  const metrics = await cdp.send('Page.getLayoutMetrics');
  const viewport = metrics.cssVisualViewport;
  let clip: Protocol.Page.Viewport;
  if (options.element) {
    clip = {
      x: options.element.x + viewport.pageX,
      y: options.element.y + viewport.pageY,
      width: options.element.width,
      height: options.element.height,
      scale: 1,
    };
  } else if (options.fullPage) {
    clip = {
      x: 0,
      y: 0,
      width: metrics.cssContentSize.width,
      height: metrics.cssContentSize.height,
      scale: 1,
    };
  } else {
    clip = {
      x: viewport.pageX,
      y: viewport.pageY,
      width: viewport.clientWidth,
      height: viewport.clientHeight,
      scale: 1,
    };
  }
  if (clip.width <= 0 || clip.height <= 0) {
    throw new Error('Nothing to capture: the area has zero size.');
  }
  const scale = Math.min(
    1,
    options.maxWidth ? options.maxWidth / clip.width : 1,
    options.maxHeight ? options.maxHeight / clip.height : 1,
  );
  clip.scale = scale;
  const {data} = await cdp.send('Page.captureScreenshot', {
    format: options.format,
    ...(options.format !== 'png' && options.quality !== undefined
      ? {quality: options.quality}
      : {}),
    clip,
    captureBeyondViewport: options.fullPage === true || options.element !== undefined,
    optimizeForSpeed: true,
  });
  return {
    data,
    mimeType: `image/${options.format}`,
    width: Math.round(clip.width * scale),
    height: Math.round(clip.height * scale),
    viewport: {width: clip.width, height: clip.height},
  };
}
