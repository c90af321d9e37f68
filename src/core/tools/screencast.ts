/**
 * Tool family: screencast — record the page as an mp4 with Chrome's built-in recorder (no ffmpeg),
 * one screencast per page at a time.
 */
import path from 'node:path';
import {z} from 'zod';
import {PageFeature} from '../browser/pages/PageState.js';
import {
  startScreencastCapture,
  stopScreencastCapture,
  viewportPixelSize,
} from '../browser/screencast.js';
import {temporaryFileNote, withExtension} from '../files/FileAccess.js';
import {definePageTool} from './base/definition.js';

interface ActiveScreencast {
  stream: string;
  filePath: string;
  /** The folder we created for a default path, removed again if nothing gets written. */
  temporaryDir: string | undefined;
}

const screencastFeature = new PageFeature<{active: ActiveScreencast | undefined}>(
  'screencast',
  () => ({active: undefined}),
);

export const startScreencast = definePageTool({
  name: 'screencast_start',
  description: 'Starts recording a screencast (video) of the page.',
  category: 'debugging',
  readOnly: false,
  schema: {
    filePath: z
      .string()
      .optional()
      .describe('Output file path (.mp4). Uses mkdtemp to generate a unique path if not provided.'),
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const state = screencastFeature.get(call.page);
    if (state.active) {
      throw new Error(
        'a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one.',
      );
    }
    let temporaryDir: string | undefined;
    let filePath: string;
    if (call.params.filePath === undefined) {
      // In the server's temporary folder (canonical), removed when the server stops.
      temporaryDir = await call.files.temporaryFolder();
      filePath = path.join(temporaryDir, 'screencast.mp4');
    } else {
      filePath = withExtension(call.params.filePath, '.mp4');
    }
    // An unused temporary folder is empty and goes with the rest when the server stops.
    const stream = await startScreencastCapture(call.page, await viewportPixelSize(call.page));
    state.active = {stream, filePath, temporaryDir};
    response.appendLine(
      `Screencast recording started. The recording will be saved to ${temporaryDir === undefined ? filePath : temporaryFileNote(filePath)}. Use screencast_stop to stop recording.`,
    );
  },
});

export const stopScreencast = definePageTool({
  name: 'screencast_stop',
  description: 'Stops the active screencast recording on the page.',
  category: 'debugging',
  readOnly: false,
  schema: {},
  handler: async (call, response) => {
    const state = screencastFeature.get(call.page);
    const active = state.active;
    if (!active) {
      throw new Error(
        'no active screencast recording to stop. Start one with screencast_start first.',
      );
    }
    state.active = undefined;
    const {target, handle} = await call.files.openForWriting(active.filePath);
    let bytes = 0;
    try {
      bytes = await stopScreencastCapture(call.page, active.stream, handle);
    } finally {
      await handle.close();
      if (bytes === 0) {
        await call.files.remove(target).catch(() => undefined);
      }
    }
    if (bytes === 0) {
      throw new Error(
        'Chrome produced an empty screencast (no frames were painted). Keep the page visible and changing while recording, then try again.',
      );
    }
    response.appendLine(
      `The screencast recording has been stopped and saved to ${active.temporaryDir === undefined ? target : temporaryFileNote(target)}.`,
    );
  },
});

export const screencastTools = [startScreencast, stopScreencast];
