/**
 * upload_file: sets files on a file input directly, or clicks an element that opens a file
 * chooser and answers it. Works on the element's own cdp (a cross-site iframe's, too).
 */
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {ActionError, onElement, sleep, type ActOptions} from './actions.js';
import {clickElement} from './pointer.js';
import type {ResolvedElement} from './elements.js';
import {FILE_INPUT_INFO} from '../injectedSources.generated.js';
import type {PageState} from '../pages/PageState.js';
import {measureSlowness} from '../workBudget.js';
import {actionWaitBoundsFeature} from './waitBounds.js';

/** Longest wait for a chooser on a busy machine: well under the lock wait it makes others do. */
const FILE_CHOOSER_CAP_MS = 10_000;

const fileInputSchema = z.object({file: z.boolean(), multiple: z.boolean(), disabled: z.boolean()});

const chooserSchema = z.object({backendNodeId: z.number(), mode: z.string()});

/**
 * Sets files on a file input; for any other element (a styled "Upload" button), clicks it and
 * answers the file chooser it opens within 3 s (FILE_CHOOSER_WAIT_MS, or the page's own bound).
 */
export async function uploadFiles(
  state: PageState,
  element: ResolvedElement,
  files: string[],
  options: ActOptions,
): Promise<void> {
  const info = await onElement(state, element, FILE_INPUT_INFO, [], fileInputSchema);
  if (info.file) {
    if (files.length > 1 && !info.multiple) {
      throw new ActionError(
        'Multiple file uploads only work with <input type=file multiple>. Upload one file, or use an input that accepts several.',
      );
    }
    await element.cdp.send('DOM.setFileInputFiles', {
      files,
      backendNodeId: element.backendNodeId,
    });
    return;
  }
  await element.cdp.send('Page.setInterceptFileChooserDialog', {enabled: true});
  try {
    const opened = await clickForChooser(state, element, options);
    if (!opened) {
      throw new ActionError(
        'Failed to upload file. The element could not accept the file directly, and clicking it did not trigger a file chooser.',
      );
    }
    if (files.length > 1 && opened.mode !== 'selectMultiple') {
      throw new ActionError(
        'Multiple file uploads only work with <input type=file multiple>. Upload one file, or use an input that accepts several.',
      );
    }
    await element.cdp.send('DOM.setFileInputFiles', {
      files,
      backendNodeId: opened.backendNodeId,
    });
  } finally {
    await element.cdp
      .send('Page.setInterceptFileChooserDialog', {enabled: false})
      .catch(() => undefined);
  }
}

type Chooser = z.infer<typeof chooserSchema>;

/** Clicks the element; the file chooser it opened, if one opened within the (scaled) bound. */
async function clickForChooser(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions,
): Promise<Chooser | undefined> {
  let opened: Chooser | undefined;
  let chose: () => void = () => undefined;
  const chooserOpened = new Promise<void>(resolve => {
    chose = resolve;
  });
  const listener = (event: Protocol.Page.FileChooserOpenedEvent): void => {
    const parsed = chooserSchema.safeParse(event);
    if (parsed.success) {
      opened = parsed.data;
      chose();
    }
  };
  element.cdp.on('Page.fileChooserOpened', listener);
  try {
    try {
      await clickElement(state, element, {...options, clickCount: 1});
    } catch (error) {
      // A click that opened the chooser did its part, whatever came after; any other failure
      // (covered, disabled, gone) is the answer, not "no chooser".
      if (!opened) {
        throw error;
      }
    }
    // Counted from the press, not from before the click's own checks; a busy machine stretches it.
    const waitMs = Math.round(
      actionWaitBoundsFeature.get(state).fileChooserMs * measureSlowness(state).factor,
    );
    await Promise.race([
      chooserOpened,
      sleep(Math.min(waitMs, FILE_CHOOSER_CAP_MS), options.signal),
    ]);
    options.signal?.throwIfAborted();
    return opened;
  } finally {
    element.cdp.off('Page.fileChooserOpened', listener);
  }
}
