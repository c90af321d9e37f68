/**
 * The files an export may touch. A recording is untrusted: a crafted one can name any file on the
 * machine (/etc/passwd, a private key, the server's token) as an evaluate_script sourcePath, an
 * upload or a file: URL. So an export reads no file and writes no test that hands a file to a page
 * or opens one, unless the file lies inside a folder the user named (`export --workspace DIR`),
 * canonically (symlinks resolved, the opened file checked again) and outside the server's config
 * folder. A script file is read at export time and its source written into the test as a literal,
 * so the test itself reads nothing; an upload or a file: URL inside the folder is kept as its
 * canonical path. Everything else becomes a step that says why it was left out.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {errorText} from '../../../shared/values.js';
import {canonicalPath, filePathOfUrl, resolveRoots} from '../../files/roots.js';
import {openForReadingInside, withinBoundary, type FileBoundary} from '../../files/safeOpen.js';
import type {RecordedCall} from '../replay/calls.js';

/** What a step may use of a recorded path: the value to write, or why it was left out. */
export type FileDecision = {ok: string} | {refused: string};

export interface ExportFiles {
  /** The source of a sourcePath script (read at export time). */
  script(file: string): FileDecision;
  /** The canonical path of a file the test uploads. */
  upload(file: string): FileDecision;
  /** A file: URL (or view-source: of one) the test opens. */
  fileUrl(url: string): FileDecision;
}

/** A script longer than this is not written into a test. */
const MAX_SCRIPT_BYTES = 1024 * 1024;
/** Paths checked per export: a recording naming more is not one a person made. */
const MAX_PATHS = 1_000;
const SHOWN_PATH_CHARS = 160;

const REMEDY = 'export with --workspace <folder> to allow the files in that folder';

function shown(value: string): string {
  return JSON.stringify(
    value.length > SHOWN_PATH_CHARS ? `${value.slice(0, SHOWN_PATH_CHARS)}…` : value,
  );
}

/** Whether a URL loads a local file (directly or as view-source:). */
export function isFileUrl(url: string): boolean {
  return /^\s*(?:view-source:\s*)?file:/i.test(url);
}

type Kind = 'script' | 'upload' | 'fileUrl';

function refusal(kind: Kind, value: string, why: string): {refused: string} {
  const what = {
    script: 'its script is the file',
    upload: 'it uploads the file',
    fileUrl: 'it opens the local file',
  }[kind];
  return {refused: `${what} ${shown(value)}, ${why}`};
}

/** No folder named: every path is refused, and nothing is looked at. */
export const NO_FILES: ExportFiles = {
  script: file => refusal('script', file, `and no folder was named; ${REMEDY}`),
  upload: file => refusal('upload', file, `and no folder was named; ${REMEDY}`),
  fileUrl: url => refusal('fileUrl', url, `and no folder was named; ${REMEDY}`),
};

/** The recorded paths of each kind a call names. */
function pathsOf(call: RecordedCall): [Kind, string][] {
  const {args} = call;
  const found: [Kind, string][] = [];
  if (call.tool === 'evaluate_script' && typeof args.sourcePath === 'string') {
    found.push(['script', args.sourcePath]);
  }
  if (call.tool === 'upload_file' && Array.isArray(args.filePaths)) {
    for (const file of args.filePaths.slice(0, MAX_PATHS)) {
      if (typeof file === 'string') {
        found.push(['upload', file]);
      }
    }
  }
  if (typeof args.url === 'string' && isFileUrl(args.url)) {
    found.push(['fileUrl', args.url]);
  }
  return found;
}

/** The local path a recorded value names, absolute; or why it names none. */
function localPath(kind: Kind, value: string): {file: string} | {refused: string} {
  if (kind === 'fileUrl') {
    const file = filePathOfUrl(value.trim().replace(/^view-source:\s*/i, ''));
    return file === undefined ? {refused: 'which names no local file'} : {file};
  }
  const file = value.startsWith('file:') ? filePathOfUrl(value) : value;
  if (file === undefined || !path.isAbsolute(file)) {
    return {refused: 'which is not an absolute path, so what it named is unknown'};
  }
  return {file};
}

async function decide(kind: Kind, value: string, boundary: FileBoundary): Promise<FileDecision> {
  const local = localPath(kind, value);
  if ('refused' in local) {
    return refusal(kind, value, local.refused);
  }
  const canonical = await canonicalPath(local.file).catch(() => undefined);
  if (canonical === undefined || !withinBoundary(canonical, boundary)) {
    return refusal(
      kind,
      value,
      'outside the folders named with --workspace (or in the config folder)',
    );
  }
  let handle;
  try {
    handle = await openForReadingInside(canonical, boundary);
  } catch (error) {
    return refusal(kind, value, `which cannot be read: ${errorText(error)}`);
  }
  try {
    if (kind === 'upload') {
      return {ok: canonical};
    }
    if (kind === 'fileUrl') {
      return {ok: pathToFileURL(canonical).href};
    }
    const {size} = await handle.stat();
    if (size > MAX_SCRIPT_BYTES) {
      return refusal(kind, value, `of ${size} bytes, over the ${MAX_SCRIPT_BYTES} a test holds`);
    }
    return {ok: await handle.readFile('utf8')};
  } finally {
    await handle.close();
  }
}

/**
 * The files of a recording's calls, checked against the folders the user named (`folders`) and
 * never inside `forbidden` (the server's config folder: it holds the token). Reads scripts once.
 */
export async function exportFilesFor(
  calls: readonly RecordedCall[],
  folders: readonly string[],
  forbidden: readonly string[],
): Promise<ExportFiles> {
  const roots = await resolveRoots(folders);
  if (roots.length === 0) {
    return NO_FILES;
  }
  const boundary: FileBoundary = {roots, forbidden: await resolveRoots(forbidden)};
  const decided = new Map<string, FileDecision>();
  const key = (kind: Kind, value: string): string => `${kind}\u0000${value}`;
  for (const [kind, value] of calls.flatMap(pathsOf)) {
    if (decided.size >= MAX_PATHS) {
      break;
    }
    if (!decided.has(key(kind, value))) {
      decided.set(key(kind, value), await decide(kind, value, boundary));
    }
  }
  const lookup =
    (kind: Kind) =>
    (value: string): FileDecision =>
      decided.get(key(kind, value)) ??
      refusal(kind, value, `past the first ${MAX_PATHS} paths the export checks`);
  return {script: lookup('script'), upload: lookup('upload'), fileUrl: lookup('fileUrl')};
}
