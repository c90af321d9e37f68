/** Waits for a server's --readyFile and reads it through the shared schema. */
import fs from 'node:fs';
import {readyFileSchema, type ReadyFile} from '../../src/shared/readyFile.js';
import {waitFor} from './engine.js';

export async function waitForReadyFile(file: string, timeoutMs: number): Promise<ReadyFile> {
  const raw = await waitFor(
    () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined),
    timeoutMs,
    'ready file',
  );
  return readyFileSchema.parse(JSON.parse(raw));
}
