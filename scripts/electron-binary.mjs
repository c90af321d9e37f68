// Electron's binary for `npm start`: whether it is installed (as the electron package's own
// install.js decides), and, on the first start without it, the download through Electron's own
// tools. Electron 45 fetches its binary on first use, not at `npm ci`; that fetch, silent for 30 s
// and unbounded, is done here instead with a progress line, a bound on stalls and a clean cancel:
//
// 1. @electron/get's downloadArtifact, with exactly the artifact details install.js uses (version,
//    platform, arch, checksums, cache), fills Electron's download cache. It honours ELECTRON_MIRROR
//    (and the other mirror variables), electron_config_cache, electron_use_remote_checksums and
//    force_no_cache as install.js does; a proxy in HTTPS_PROXY/HTTP_PROXY is used as
//    ELECTRON_GET_USE_PROXY=1 would.
// 2. The electron package's install.js then finds the archive in that cache, checks it again and
//    unpacks it into node_modules/electron/dist (writing path.txt), as on any machine.
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

/** No byte for this long ends the download (a dead mirror or proxy must not hang the start). */
export const STALL_MS = 30_000;
/** Unpacking is local work: it gets this long before it is stopped. */
const UNPACK_MS = 300_000;
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** The binary's path inside dist/ for a platform, as install.js writes it into path.txt. */
export function platformPath(platform) {
  if (platform === 'darwin' || platform === 'mas') {
    return 'Electron.app/Contents/MacOS/Electron';
  }
  return platform === 'win32' ? 'electron.exe' : 'electron';
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Where Electron stands in `packageDir` (node_modules/electron), read WITHOUT require('electron'),
 * which would start the download unannounced:
 * - {state: 'installed', binary}
 * - {state: 'missing', binary, version}: not downloaded yet (or a different version or platform)
 * - {state: 'unusable', reason}: nothing this script should download (no package, or
 *   ELECTRON_OVERRIDE_DIST_PATH names a folder without the binary)
 */
export function electronInstall(packageDir, env, platform = process.platform) {
  const manifest = readText(path.join(packageDir, 'package.json'));
  if (manifest === undefined) {
    return {state: 'unusable', reason: 'the electron package is not installed (run npm ci)'};
  }
  const {version} = JSON.parse(manifest);
  const name = platformPath(env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || platform);
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = path.join(
      env.ELECTRON_OVERRIDE_DIST_PATH,
      readText(path.join(packageDir, 'path.txt'))?.trim() || name,
    );
    return fs.existsSync(binary)
      ? {state: 'installed', binary}
      : {
          state: 'unusable',
          reason: `the Electron binary is not installed (${binary} is missing; ELECTRON_OVERRIDE_DIST_PATH names that folder)`,
        };
  }
  const dist = path.join(packageDir, 'dist');
  const binary = path.join(dist, name);
  // install.js's own test: this version, this platform's path, and the binary itself.
  const installed =
    readText(path.join(dist, 'version'))?.trim().replace(/^v/, '') === version &&
    readText(path.join(packageDir, 'path.txt')) === name &&
    fs.existsSync(binary);
  return installed ? {state: 'installed', binary} : {state: 'missing', binary, version};
}

/** 1536 → "1.5 KB", 115_343_360 → "110.0 MB" (binary units, as download tools show them). */
export function formatBytes(bytes) {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The progress line: bytes so far, of how many, and the percentage when the size is known. */
export function progressLine(version, transferred, total) {
  const head = `Downloading Electron ${version} (first start only; Ctrl-C cancels): ${formatBytes(transferred)}`;
  if (!total) {
    return head;
  }
  const percent = Math.min(100, Math.floor((transferred / total) * 100));
  return `${head} of ${formatBytes(total)} (${percent}%)`;
}

/** The platform and arch install.js downloads for (Rosetta included). */
function target(env) {
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform;
  let arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch;
  if (platform === 'darwin' && process.platform === 'darwin' && arch === 'x64') {
    try {
      const translated = execFileSync('sysctl', ['-in', 'sysctl.proc_translated']).toString();
      if (translated.trim() === '1') {
        arch = 'arm64';
      }
    } catch {
      // Not under Rosetta.
    }
  }
  return {platform, arch};
}

/** What went wrong, in one line: the network's own words for a failed fetch. */
export function downloadFailure(error) {
  const cause = error?.cause;
  if (error?.message === 'fetch failed' && cause?.message) {
    const offline = /ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED/.test(cause.message);
    return `${cause.message}${offline ? ' — no network, or the host is unreachable' : ''}`;
  }
  return String(error?.message ?? error).split('\n')[0];
}

/**
 * Fills Electron's download cache with the archive install.js will look for, reporting
 * progress({transferred, total}); rejects on a failure, a stall, or `signal`.
 */
async function fetchArchive({packageDir, env, version, signal, stallMs, onProgress}) {
  const requireHere = createRequire(path.join(packageDir, 'package.json'));
  const get = await import(pathToFileURL(requireHere.resolve('@electron/get')).href);
  if (PROXY_VARIABLES.some(name => env[name])) {
    get.initializeProxy();
  }
  const stalled = new AbortController();
  let timer = setTimeout(() => stalled.abort(), stallMs);
  const fetchSignal = AbortSignal.any([signal, stalled.signal]);
  const fetcher = new get.FetchDownloader();
  const remoteChecksums =
    env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums;
  try {
    return await get.downloadArtifact({
      version,
      artifactName: 'electron',
      ...target(env),
      force: env.force_no_cache === 'true',
      cacheRoot: env.electron_config_cache,
      checksums: remoteChecksums ? undefined : requireHere('./checksums.json'),
      mirrorOptions: {
        mirror: env.ELECTRON_MIRROR,
        customDir: env.ELECTRON_CUSTOM_DIR,
        customFilename: env.ELECTRON_CUSTOM_FILENAME,
      },
      downloader: {
        download: (url, file, options) =>
          fetcher.download(url, file, {
            ...options,
            quiet: true,
            signal: fetchSignal,
            getProgressCallback: ({transferred, total}) => {
              clearTimeout(timer);
              timer = setTimeout(() => stalled.abort(), stallMs);
              // The checksum file comes through here too; only the archive is worth a line.
              if (url.endsWith('.zip')) {
                onProgress({transferred, total});
              }
            },
          }),
      },
    });
  } catch (error) {
    if (stalled.signal.aborted && !signal.aborted) {
      throw new Error(`no data arrived for ${Math.round(stallMs / 1000)} s`, {cause: error});
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** install.js unpacks the archive it now finds in the cache; its last error line if it fails. */
function unpack(packageDir, env, signal) {
  return new Promise(resolve => {
    const childEnv = {...env};
    if (PROXY_VARIABLES.some(name => env[name])) {
      childEnv.ELECTRON_GET_USE_PROXY = '1';
    }
    const child = spawn(process.execPath, [path.join(packageDir, 'install.js')], {
      env: childEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', chunk => (errors = (errors + chunk.toString()).slice(-4000)));
    const stop = () => child.kill('SIGTERM');
    signal.addEventListener('abort', stop, {once: true});
    const timer = setTimeout(stop, UNPACK_MS);
    child.once('error', error => resolve(error.message));
    child.once('exit', code => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      const lines = errors.split('\n').filter(line => line.trim() && !/^\s+at /.test(line));
      resolve(code === 0 ? undefined : (lines.at(-1) ?? `install.js exited with code ${code}`));
    });
  });
}

/**
 * Downloads and installs Electron's binary into `packageDir`. Resolves {ok: true, binary},
 * {ok: false, cancelled: true} after `signal`, or {ok: false, reason} (one line).
 */
export async function downloadElectron({packageDir, env, signal, onProgress, stallMs = STALL_MS}) {
  const install = electronInstall(packageDir, env);
  if (install.state !== 'missing') {
    return install.state === 'installed'
      ? {ok: true, binary: install.binary}
      : {ok: false, reason: install.reason};
  }
  try {
    await fetchArchive({packageDir, env, version: install.version, signal, stallMs, onProgress});
  } catch (error) {
    return signal.aborted
      ? {ok: false, cancelled: true}
      : {ok: false, reason: downloadFailure(error)};
  }
  const failed = await unpack(packageDir, env, signal);
  if (signal.aborted) {
    return {ok: false, cancelled: true};
  }
  const after = electronInstall(packageDir, env);
  if (failed !== undefined || after.state !== 'installed') {
    return {ok: false, reason: `unpacking it failed: ${failed ?? 'the binary is still missing'}`};
  }
  return {ok: true, binary: after.binary};
}

/**
 * Shows progress on `stream`: one line rewritten in place on a terminal (at most every 100 ms),
 * else a line per tenth of the download, so logs stay short.
 */
export function progressWriter(stream, version, now = Date.now) {
  let shownAt = -Infinity;
  let tenth = -1;
  let shown = false;
  return {
    update({transferred, total}) {
      const line = progressLine(version, transferred, total);
      if (stream.isTTY) {
        const done = total !== null && transferred >= total;
        if (!done && now() - shownAt < 100) {
          return;
        }
        shownAt = now();
        shown = true;
        stream.write(`\r${line}\u001b[K`);
        return;
      }
      const step = total ? Math.floor((transferred / total) * 10) : Math.floor(now() / 5_000);
      if (step !== tenth) {
        tenth = step;
        stream.write(`${line}\n`);
      }
    },
    /** Ends the line on a terminal, so what follows starts on its own. */
    end() {
      if (shown) {
        stream.write('\n');
        shown = false;
      }
    },
  };
}
