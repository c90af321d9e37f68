// Packaging for `npm run dist`: Linux (AppImage, deb), macOS (dmg), Windows (nsis), with the icons
// in resources/. The Electron fuses are flipped in afterPack — after the app is assembled and
// before it is signed and wrapped into an installer — so every artifact ships the hardened binary.
// (Playwright's Electron tests need the inspect fuse, so they run against the unpackaged build.)
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file: electron-builder require()s it */
const path = require('node:path');

/** What each fuse is set to (named like @electron/fuses' FuseV1Options). */
const FUSE_SETTINGS = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
};

/** The file that carries the fuse wire, per platform, inside an assembled (unpacked) app. */
function electronBinaryPath(context) {
  const {appOutDir, electronPlatformName, packager} = context;
  const productFilename = packager.appInfo.productFilename;
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${productFilename}.app`);
    case 'win32':
      return path.join(appOutDir, `${productFilename}.exe`);
    default:
      return path.join(appOutDir, packager.executableName ?? productFilename);
  }
}

async function flipElectronFuses(context) {
  const {flipFuses, FuseVersion, FuseV1Options} = require('@electron/fuses');
  const binary = electronBinaryPath(context);
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  // arm64 macOS refuses to run a binary whose ad-hoc signature no longer matches.
  const ARM64 = 3;
  await flipFuses(binary, {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: isMac && context.arch === ARM64,
    [FuseV1Options.RunAsNode]: FUSE_SETTINGS.runAsNode,
    [FuseV1Options.EnableCookieEncryption]: FUSE_SETTINGS.enableCookieEncryption,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]:
      FUSE_SETTINGS.enableNodeOptionsEnvironmentVariable,
    [FuseV1Options.EnableNodeCliInspectArguments]: FUSE_SETTINGS.enableNodeCliInspectArguments,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]:
      FUSE_SETTINGS.enableEmbeddedAsarIntegrityValidation,
    [FuseV1Options.OnlyLoadAppFromAsar]: FUSE_SETTINGS.onlyLoadAppFromAsar,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]:
      FUSE_SETTINGS.grantFileProtocolExtraPrivileges,
  });
}

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'io.github.mcp-browser-inspector',
  productName: 'MCP Browser Inspector',
  copyright: 'Apache-2.0',
  directories: {output: 'dist', buildResources: 'resources'},
  // The desktop app needs the built main, preload and renderer, the icon and package.json. The
  // main bundle carries every runtime dependency (scripts/build-node.mjs), so there are no
  // node_modules to add: package.json lists devDependencies only.
  files: [
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    // The heap snapshot worker runs as a worker thread: unpacked, since it is loaded by file path.
    'out/heap/**',
    'resources/icon.png',
    'package.json',
    '!**/*.map',
  ],
  // The root package.json has no "main" (npm would pack that file into the headless package).
  extraMetadata: {main: 'out/main/index.js'},
  asar: true,
  asarUnpack: ['out/heap/**'],
  icon: 'resources/icon.png',
  afterPack: flipElectronFuses,
  linux: {
    target: ['AppImage', 'deb'],
    icon: 'resources/icons',
    category: 'Development',
    executableName: 'mcp-browser-inspector',
    maintainer: 'MCP Browser Inspector contributors',
    synopsis: 'Watch and steer what your coding agent does in the browser',
  },
  deb: {
    // AppImage and deb users start the app from the menu; the MCP server starts with it.
    packageCategory: 'devel',
  },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    icon: 'resources/icon.png',
    hardenedRuntime: true,
  },
  dmg: {
    title: '${productName} ${version}',
  },
  win: {
    target: ['nsis'],
    icon: 'resources/icon.png',
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
  },
};
