/**
 * upload_file: sets files on a file input directly, or clicks an element that opens a file
 * chooser and answers it. Works on the element's own cdp (a cross-site iframe's, too).
 */
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {ActionError, onElement, type ActOptions} from './actions.js';
import {clickElement} from './pointer.js';
import type {ResolvedElement} from './elements.js';
import {FILE_INPUT_INFO} from '../injectedSources.generated.js';
import type {PageState} from '../pages/PageState.js';
import {actionWaitBoundsFeature} from './waitBounds.js';

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
  let stop: () => void = () => undefined;
  try {
    const chooser = new Promise<z.infer<typeof chooserSchema> | undefined>(resolve => {
      const timer = setTimeout(
        () => resolve(undefined),
        actionWaitBoundsFeature.get(state).fileChooserMs,
      );
      const listener = (event: Protocol.Page.FileChooserOpenedEvent): void => {
        const parsed = chooserSchema.safeParse(event);
        if (parsed.success) {
          resolve(parsed.data);
        }
      };
      element.cdp.on('Page.fileChooserOpened', listener);
      stop = () => {
        clearTimeout(timer);
        element.cdp.off('Page.fileChooserOpened', listener);
      };
    });
    let opened: z.infer<typeof chooserSchema> | undefined;
    try {
      await clickElement(state, element, {...options, clickCount: 1});
      opened = await chooser;
    } catch {
      opened = undefined;
    }
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
    stop();
    await element.cdp
      .send('Page.setInterceptFileChooserDialog', {enabled: false})
      .catch(() => undefined);
  }
}
