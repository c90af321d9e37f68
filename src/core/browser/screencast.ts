/**
 * Screencasts: Chrome's built-in screen recorder (Page.startScreenRecording, mp4) over the page's own cdp,
 * and reading a CDP IO stream to a file. puppeteer 24 has no API or types for the
 * recorder, so its replies are validated here.
 */
import type fs from 'node:fs';
import {z} from 'zod';
import {sendUntyped} from './cdp.js';
import {inPage} from './evaluation.js';
import type {PageState} from './pages/PageState.js';
import {errorText} from '../../shared/values.js';

const streamReply = z.object({stream: z.string()});
const pixelRatioReply = z.object({
  result: z.object({value: z.number().optional()}),
});

/** Larger frames cost encoder time and disk for little gain when an agent reviews a video. */
const MAX_SIDE = 4096;

class ScreencastUnsupportedError extends Error {}

/** The viewport in device pixels: without limits Chrome records small downscaled frames. */
export async function viewportPixelSize(
  page: PageState,
): Promise<{maxWidth: number; maxHeight: number}> {
  const metrics = await page.cdp.send('Page.getLayoutMetrics');
  const {clientWidth, clientHeight} = metrics.cssVisualViewport;
  // The page may be stuck (a dialog blocks script): fall back to 1 rather than wait.
  const ratio = await inPage(
    page,
    () =>
      sendUntyped(
        page.cdp,
        'Runtime.evaluate',
        {expression: 'devicePixelRatio', returnByValue: true},
        pixelRatioReply,
      ),
    {timeoutMs: 1_000},
  )
    .then(reply => reply.result.value)
    .catch(() => undefined);
  const scale = ratio !== undefined && ratio > 0 && ratio <= 8 ? ratio : 1;
  const side = (css: number): number => Math.min(MAX_SIDE, Math.max(1, Math.round(css * scale)));
  return {maxWidth: side(clientWidth), maxHeight: side(clientHeight)};
}

/** Starts a screencast; returns the IO stream handle the video will be read from. */
export async function startScreencastCapture(
  page: PageState,
  size: {maxWidth: number; maxHeight: number},
): Promise<string> {
  try {
    const {stream} = await sendUntyped(
      page.cdp,
      'Page.startScreenRecording',
      {...size},
      streamReply,
    );
    return stream;
  } catch (error) {
    const message = errorText(error);
    if (/wasn't found|not found|Unknown method/i.test(message)) {
      throw new ScreencastUnsupportedError(
        'The connected Chrome cannot make screencasts (Page.startScreenRecording). Update Chrome to a newer version.',
        {cause: error},
      );
    }
    throw error;
  }
}

/** Stops the screencast and copies the video stream into `handle`; returns the bytes written. */
export async function stopScreencastCapture(
  page: PageState,
  stream: string,
  handle: fs.promises.FileHandle,
): Promise<number> {
  const cdp = page.cdp;
  // Stopping a screencast that already ended (e.g. after a renderer swap) still leaves the stream.
  await sendUntyped(cdp, 'Page.stopScreenRecording', {}, z.unknown()).catch(() => undefined);
  let written = 0;
  try {
    for (;;) {
      const read = await cdp.send('IO.read', {handle: stream});
      if (read.data) {
        const {bytesWritten} = await handle.write(
          Buffer.from(read.data, read.base64Encoded ? 'base64' : 'utf8'),
        );
        written += bytesWritten;
      }
      if (read.eof) {
        break;
      }
    }
  } finally {
    await cdp.send('IO.close', {handle: stream}).catch(() => undefined);
  }
  return written;
}
