/**
 * take_screenshot: viewport, full page or one element; inline when small, else saved to a file.
 */
import path from 'node:path';
import {z} from 'zod';
import {
  elementRect,
  isInChildFrame,
  releaseObject,
  resolveUid,
  scrollIntoTopView,
} from '../browser/input/elements.js';
import {captureScreenshot} from '../browser/screenshot.js';
import {SCREENSHOT_FORMATS, type ScreenshotFormat} from '../config/configDefaults.js';
import {temporaryFileNote} from '../files/FileAccess.js';
import {definePageTool} from './base/definition.js';
import {uidString} from './base/paramShapes.js';

/** Larger images go to a file instead of the context (chrome-devtools-mcp uses the same limit). */
const INLINE_IMAGE_LIMIT_BYTES = 2_000_000;

function formatFromPath(filePath: string | undefined): ScreenshotFormat | undefined {
  const extension = filePath === undefined ? '' : path.extname(filePath).slice(1).toLowerCase();
  if (extension === 'jpg' || extension === 'jpeg') {
    return 'jpeg';
  }
  return SCREENSHOT_FORMATS.find(format => format === extension);
}

export const takeScreenshot = definePageTool({
  name: 'take_screenshot',
  description: 'Screenshot of the viewport, the full page, or one element.',
  category: 'debugging',
  readOnly: false,
  readOnlyWithout: ['filePath'],
  changesPage: false,
  blockedByDialog: true,
  schema: {
    format: z
      .enum(SCREENSHOT_FORMATS)
      .optional()
      .describe('Image format. Default png (or --screenshotFormat).'),
    quality: z.number().min(0).max(100).optional().describe('JPEG/WebP quality 0-100.'),
    uid: uidString().optional().describe('Capture only this element (uid from the snapshot).'),
    fullPage: z.boolean().optional().describe('Capture the whole scrollable page. Not with uid.'),
    filePath: z.string().optional().describe('Save to this file instead of returning the image.'),
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {uid, fullPage, filePath} = call.params;
    if (uid !== undefined && fullPage) {
      throw new Error('Providing both "uid" and "fullPage" is not allowed.');
    }
    const format = call.params.format ?? formatFromPath(filePath) ?? call.config.screenshot.format;
    const quality = call.params.quality ?? call.config.screenshot.quality;
    let element;
    if (uid !== undefined) {
      const resolved = await resolveUid(call.page, uid);
      releaseObject(resolved);
      if (isInChildFrame(call.page, resolved)) {
        await scrollIntoTopView(call.page, resolved);
      } else {
        await resolved.cdp
          .send('DOM.scrollIntoViewIfNeeded', {backendNodeId: resolved.backendNodeId})
          .catch(() => undefined);
      }
      element = await elementRect(call.page, resolved);
      if (!element || element.width === 0 || element.height === 0) {
        throw new Error(`Element with uid ${uid} is not visible, so it cannot be captured.`);
      }
      response.setActedOn(element);
    }
    const capture = await captureScreenshot(call.page, {
      format,
      quality,
      fullPage,
      element,
      maxWidth: call.config.screenshot.maxWidth,
      maxHeight: call.config.screenshot.maxHeight,
    });
    if (uid !== undefined) {
      response.appendLine(`Took a screenshot of node with uid "${uid}".`);
    } else if (fullPage) {
      response.appendLine('Took a screenshot of the full current page.');
    } else {
      response.appendLine("Took a screenshot of the current page's viewport.");
    }
    const bytes = Buffer.from(capture.data, 'base64');
    if (filePath !== undefined) {
      const saved = await call.files.writeFile(filePath, bytes);
      response.appendLine(`Saved screenshot to ${saved}.`);
    } else if (bytes.length >= INLINE_IMAGE_LIMIT_BYTES) {
      const saved = await call.files.writeTemporaryFile(
        `screenshot.${format === 'jpeg' ? 'jpg' : format}`,
        bytes,
      );
      response.appendLine(
        `The image is ${Math.round(bytes.length / 1024)} KB, too large to return inline. Saved screenshot to ${temporaryFileNote(saved)}.`,
      );
    } else {
      response.attachImage({data: capture.data, mimeType: capture.mimeType});
    }
  },
});

export const screenshotTools = [takeScreenshot];
