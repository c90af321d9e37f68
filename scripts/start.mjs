// `npm start`: builds if needed, then opens the desktop app, downloading Electron's binary on the
// first start (scripts/electron-binary.mjs: a progress line, bounded, Ctrl-C cancels). Where
// Electron cannot start here (there is no display, the download failed or was skipped, or it exits
// before its window is up) it says why in one line and runs the headless inspector instead, with
// the same flags. Children never outlive this script: signals are forwarded, exits are awaited.
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {downloadElectron, electronInstall, progressWriter} from './electron-binary.mjs';

const root = path.resolve(import.meta.dirname, '..');
const userArgs = process.argv.slice(2);
/** How long a child may take to exit after a forwarded signal before it is killed. */
const KILL_AFTER_MS = 10_000;
/** Electron that is still not ready after this long is left alone (it may be waiting on a dialog). */
const READY_WAIT_MS = 60_000;

const children = new Set();
let stopping = false;
/** The first-start download while it runs: a signal cancels it (and then ends this script). */
let download;

function say(line) {
  process.stderr.write(`${line}\n`);
}

/** Linux and the BSDs need X11 or Wayland for a window. */
function displayProblem(env) {
  if (!['linux', 'freebsd', 'openbsd'].includes(process.platform)) {
    return undefined;
  }
  return env.DISPLAY || env.WAYLAND_DISPLAY
    ? undefined
    : 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
}

/** The value of a string flag (camelCase or kebab-case, `--name v` or `--name=v`), last one wins. */
function flagValue(args, name) {
  const kebab = name.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
  let value;
  args.forEach((arg, index) => {
    for (const spelling of [name, kebab]) {
      if (arg === `--${spelling}` && index + 1 < args.length) {
        value = args[index + 1];
      } else if (arg.startsWith(`--${spelling}=`)) {
        value = arg.slice(spelling.length + 3);
      }
    }
  });
  return value;
}

function run(command, args, options) {
  const child = spawn(command, args, {stdio: 'inherit', ...options});
  children.add(child);
  const exited = new Promise(resolve => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({code, signal});
    });
    child.once('error', error => {
      children.delete(child);
      resolve({code: null, signal: null, error});
    });
  });
  return {child, exited};
}

function stopChildren(signal) {
  for (const child of children) {
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    timer.unref();
    child.once('exit', () => clearTimeout(timer));
  }
}

function exitWith(result) {
  if (result.signal) {
    // Re-raise so the caller sees "killed by SIGTERM" like it would for the child itself.
    process.removeAllListeners(result.signal);
    process.kill(process.pid, result.signal);
    return;
  }
  process.exit(result.code ?? 1);
}

async function runHeadless(reason) {
  say(`Electron cannot start here: ${reason}. Starting the headless inspector instead.`);
  const cli = path.join(root, 'out', 'node', 'cli', 'index.js');
  const {exited} = run(process.execPath, [cli, ...userArgs]);
  exitWith(await exited);
}

function mtimeOf(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Resolves 'ready' once the app (re)wrote its ready file, 'exited' if it stopped before that, or
 * 'waiting' if it takes very long. A file left over from an earlier run does not count.
 */
function waitForReady(readyFile, before, exited) {
  const isFresh = () => {
    const now = mtimeOf(readyFile);
    return now !== undefined && now !== before;
  };
  return new Promise(resolve => {
    let settled = false;
    const finish = value => {
      if (!settled) {
        settled = true;
        clearInterval(poll);
        clearTimeout(giveUp);
        resolve(value);
      }
    };
    const poll = setInterval(() => {
      if (isFresh()) {
        finish('ready');
      }
    }, 100);
    const giveUp = setTimeout(() => finish('waiting'), READY_WAIT_MS);
    void exited.then(() => finish(isFresh() ? 'ready' : 'exited'));
  });
}

async function runElectron(binary) {
  const mainBuilt = ['out/main/index.js', 'out/main/package.json', 'out/preload/index.cjs'].every(
    file => fs.existsSync(path.join(root, file)),
  );
  if (!mainBuilt && process.env.MBI_SKIP_BUILD !== '1') {
    spawnSync('npm', ['run', 'build'], {cwd: root, stdio: ['ignore', 2, 2]});
  }
  // The ready file tells us the window is up: the user's own, else one in a private temp dir.
  const userReadyFile = flagValue(userArgs, 'readyFile');
  const tempDir =
    userReadyFile === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-start-')) : undefined;
  const readyFile = userReadyFile ?? path.join(tempDir, 'ready.json');
  // out/main is the app (its package.json names out/main/index.js; see scripts/build-node.mjs).
  const appDir = path.join(root, 'out', 'main');
  const args = [appDir, ...userArgs, ...(tempDir ? ['--readyFile', readyFile] : [])];
  const env = {...process.env};
  // Would turn the app into a plain Node process.
  delete env.ELECTRON_RUN_AS_NODE;
  const readyBefore = mtimeOf(path.resolve(readyFile));
  const {exited} = run(binary, args, {env});
  const cleanup = () => {
    if (tempDir) {
      fs.rmSync(tempDir, {recursive: true, force: true});
    }
  };
  const readiness = await waitForReady(path.resolve(readyFile), readyBefore, exited);
  if (readiness === 'exited' && !stopping) {
    const result = await exited;
    cleanup();
    if (result.code === 0) {
      // A second launch hands its flags to the running app and exits cleanly.
      process.exit(0);
    }
    const how = result.error
      ? result.error.message
      : result.signal
        ? `killed by ${result.signal}`
        : `exit code ${result.code}`;
    await runHeadless(`Electron exited before its window opened (${how})`);
    return;
  }
  const result = await exited;
  cleanup();
  exitWith(result);
}

async function main() {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (download !== undefined && download.signal === undefined) {
        // Cancel cleanly: the download's temporary files go, then this script ends.
        download.signal = signal;
        download.controller.abort();
        return;
      }
      stopping = true;
      if (children.size === 0) {
        process.exit(0);
      }
      stopChildren(signal);
    });
  }
  // npm passes a SIGTERM to its `sh -c` only, which dies and leaves this script re-parented: when
  // npm started us, losing the parent means stopping (the children get the signal as above).
  if (process.env.npm_lifecycle_event !== undefined && process.platform !== 'win32') {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) {
        clearInterval(watch);
        process.emit('SIGTERM', 'SIGTERM');
      }
    }, 250);
    watch.unref();
  }
  // A crash of this script must not orphan the app or the server.
  process.on('exit', () => {
    for (const child of children) {
      child.kill('SIGKILL');
    }
  });

  if (process.env.MBI_SKIP_BUILD !== '1') {
    const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    if (build.status !== 0) {
      say('npm start: the build failed (see above); fix it and run npm start again.');
      process.exit(1);
    }
  }
  if (stopping) {
    process.exit(0);
  }

  const packageDir = path.join(root, 'node_modules', 'electron');
  const install = electronInstall(packageDir, process.env);
  const problem = install.state === 'unusable' ? install.reason : displayProblem(process.env);
  if (problem) {
    await runHeadless(problem);
    return;
  }
  const binary =
    install.state === 'installed'
      ? install.binary
      : await fetchElectron(packageDir, install.version);
  if (binary !== undefined) {
    await runElectron(binary);
  }
}

/**
 * The first start: Electron's binary is downloaded (and unpacked by its own install.js). Returns
 * the binary, or undefined once the headless fallback (or a cancel) took over.
 */
async function fetchElectron(packageDir, version) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    await runHeadless(
      `the Electron binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set (unset it, and npm start downloads Electron ${version})`,
    );
    return undefined;
  }
  download = {controller: new AbortController(), signal: undefined};
  const progress = progressWriter(process.stderr, version);
  // Said at once: resolving and connecting can take a while before the first byte.
  progress.update({transferred: 0, total: null});
  const result = await downloadElectron({
    packageDir,
    env: process.env,
    signal: download.controller.signal,
    onProgress: progress.update,
  });
  progress.end();
  const cancelledBy = download.signal;
  download = undefined;
  if (result.ok) {
    say(`Electron ${version} is installed; opening the window.`);
    return result.binary;
  }
  if (result.cancelled) {
    say(
      'Cancelled the Electron download; nothing was installed. Run npm start again to download it.',
    );
    exitWith({signal: cancelledBy ?? 'SIGINT'});
    return undefined;
  }
  await runHeadless(
    `the Electron binary is not installed and its download failed: ${result.reason} (set ELECTRON_MIRROR, or HTTPS_PROXY, or run npm start where downloads work)`,
  );
  return undefined;
}

await main();
