/**
 * Packaging: the electron-builder config is valid for electron-builder's own schema, targets the
 * three platforms with the committed icons, and its afterPack hook flips the Electron fuses — run
 * for real with @electron/fuses on stand-in binaries that carry a fuse wire, at the path each
 * platform's layout puts the binary. The full `electron-builder --dir` run is opt-in
 * (MBI_PACKAGE_TEST=1; it says so in the output when skipped) and uses a fake Electron dist.
 *
 * Tests: electron-builder.config.cjs
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {FuseV1Options, getCurrentFuseWire} from '@electron/fuses';
import {afterAll, describe, expect, it} from 'vitest';
import {ROOT} from '../helpers/engine.js';
import {scaled} from '../helpers/loadFactor.js';

const require = createRequire(import.meta.url);

interface PackContext {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: {appInfo: {productFilename: string}; executableName?: string};
}

interface BuilderConfig {
  productName: string;
  files: string[];
  icon: string;
  afterPack: (context: PackContext) => Promise<void>;
  linux: {target: string[]; icon: string; executableName: string};
  mac: {target: string[]};
  win: {target: string[]};
  directories: {output: string};
}

const config = require(path.join(ROOT, 'electron-builder.config.cjs')) as BuilderConfig;
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-packaging-'));
afterAll(() => fs.rmSync(tempRoot, {recursive: true, force: true}));

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** How the wire stores a fuse: ASCII '0' (off) or '1' (on); @electron/fuses does not export these. */
const FuseState = {DISABLE: 0x30, ENABLE: 0x31} as const;
/** Electron's shipped defaults: runAsNode on, cookie encryption off, node options on, inspect on, … */
const SHIPPED_WIRE = '10110001';

function writeFakeBinary(file: string): void {
  fs.mkdirSync(path.dirname(file), {recursive: true});
  fs.writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('\x7fELF fake electron binary\n'),
      Buffer.from(SENTINEL),
      Buffer.from([1, SHIPPED_WIRE.length]),
      Buffer.from(SHIPPED_WIRE),
      Buffer.from('\nrest of the binary\n'),
    ]),
  );
}

function pngSize(file: string): {width: number; height: number} {
  const data = fs.readFileSync(file);
  expect(data.subarray(1, 4).toString()).toBe('PNG');
  return {width: data.readUInt32BE(16), height: data.readUInt32BE(20)};
}

const HARDENED = {
  [FuseV1Options.RunAsNode]: FuseState.DISABLE,
  [FuseV1Options.EnableCookieEncryption]: FuseState.ENABLE,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: FuseState.DISABLE,
  [FuseV1Options.EnableNodeCliInspectArguments]: FuseState.DISABLE,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: FuseState.ENABLE,
  [FuseV1Options.OnlyLoadAppFromAsar]: FuseState.ENABLE,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: FuseState.DISABLE,
};

describe('electron-builder config', () => {
  it('passes electron-builder’s schema', async () => {
    const {validateConfiguration} = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (config: unknown, logger: unknown) => Promise<void>;
    };
    const {DebugLogger} = require('builder-util') as {
      DebugLogger: new (enabled: boolean) => unknown;
    };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({...config, notAnOption: 1}, new DebugLogger(false)),
    ).rejects.toThrow(/unknown property/);
  });

  it('builds AppImage + deb, dmg and nsis, from the built app only', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.files).toEqual(
      expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**']),
    );
    expect(config.files.some(pattern => pattern.startsWith('src'))).toBe(false);
  });

  it('uses committed icons: a 1024 px icon.png and sized Linux icons', () => {
    expect(pngSize(path.join(ROOT, config.icon))).toEqual({width: 1024, height: 1024});
    const iconDir = path.join(ROOT, config.linux.icon);
    const icons = fs.readdirSync(iconDir).filter(name => name.endsWith('.png'));
    expect(icons.length).toBeGreaterThanOrEqual(6);
    for (const name of icons) {
      const [width, height] = name.replace('.png', '').split('x').map(Number);
      expect(pngSize(path.join(iconDir, name))).toEqual({width, height});
    }
  });

  it('is what `npm run dist` runs, after a build', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.dist).toMatch(
      /^npm run build && electron-builder --config electron-builder\.config\.cjs/,
    );
  });
});

describe('fuses flipped in afterPack', () => {
  const cases: {platform: string; binary: (outDir: string) => string; arch: number}[] = [
    {platform: 'linux', binary: outDir => path.join(outDir, 'mcp-browser-inspector'), arch: 1},
    {platform: 'win32', binary: outDir => path.join(outDir, 'MCP Browser Inspector.exe'), arch: 1},
    {
      platform: 'darwin',
      binary: outDir =>
        path.join(
          outDir,
          'MCP Browser Inspector.app',
          'Contents',
          'Frameworks',
          'Electron Framework.framework',
          'Electron Framework',
        ),
      arch: 1,
    },
  ];

  it.each(cases)('$platform', async ({platform, binary, arch}) => {
    const appOutDir = path.join(tempRoot, platform);
    const file = binary(appOutDir);
    writeFakeBinary(file);
    await config.afterPack({
      appOutDir,
      electronPlatformName: platform,
      arch,
      packager: {
        appInfo: {productFilename: config.productName},
        ...(platform === 'linux' ? {executableName: config.linux.executableName} : {}),
      },
    });
    // For macOS @electron/fuses takes the .app and finds the framework binary inside it.
    const wire = await getCurrentFuseWire(
      platform === 'darwin' ? path.join(appOutDir, `${config.productName}.app`) : file,
    );
    expect(wire).toMatchObject(HARDENED);
    // Untouched: the V8 snapshot fuse keeps its shipped state.
    expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(FuseState.DISABLE);
    // Only the wire changed: the file around it is byte-for-byte the same length and prefix.
    expect(fs.readFileSync(file).subarray(0, 26).toString()).toBe('\x7fELF fake electron binary\n');
  });
});

const PACKAGE_TEST_SKIPPED =
  '[packaging] electron-builder --dir (linux-unpacked) skipped: set MBI_PACKAGE_TEST=1 to assemble the app with a stand-in Electron (a few seconds; writes into a temp dir).';

describe('electron-builder --dir with a stand-in Electron (opt-in: MBI_PACKAGE_TEST=1)', () => {
  const enabled = process.env.MBI_PACKAGE_TEST === '1';
  if (!enabled) {
    // Said in the run's output, not only in a skipped test's name.
    console.warn(PACKAGE_TEST_SKIPPED);
    it.skip(PACKAGE_TEST_SKIPPED, () => undefined);
    return;
  }
  it(
    'assembles the app into an asar and ships a hardened binary',
    async () => {
      const dist = path.join(tempRoot, 'electron-dist');
      writeFakeBinary(path.join(dist, 'electron'));
      fs.writeFileSync(path.join(dist, 'version'), '45.5.0');
      const output = path.join(tempRoot, 'out');
      const result = spawnSync(
        'npx',
        [
          'electron-builder',
          '--config',
          'electron-builder.config.cjs',
          '--linux',
          'dir',
          `-c.electronDist=${dist}`,
          `-c.directories.output=${output}`,
        ],
        {cwd: ROOT, encoding: 'utf8', timeout: 600_000},
      );
      expect(result.status, result.stderr + result.stdout).toBe(0);
      const unpacked = path.join(output, 'linux-unpacked');
      const asarFile = path.join(unpacked, 'resources', 'app.asar');
      expect(fs.existsSync(asarFile)).toBe(true);
      // Self-contained: the bundles, the app manifest with its entry, and no node_modules.
      const {listPackage, extractFile} = require('@electron/asar') as {
        listPackage: (archive: string) => string[];
        extractFile: (archive: string, file: string) => Buffer;
      };
      const entries = listPackage(asarFile).map(entry => entry.split(path.sep).join('/'));
      expect(entries).toEqual(
        expect.arrayContaining([
          '/out/main/index.js',
          '/out/main/package.json',
          '/out/preload/index.cjs',
          '/out/renderer/index.html',
          '/package.json',
        ]),
      );
      expect(entries.some(entry => entry.startsWith('/out/main/chunks/lighthouseRuntime-'))).toBe(
        true,
      );
      expect(entries.filter(entry => entry.includes('node_modules'))).toEqual([]);
      expect(entries.filter(entry => entry.endsWith('.map'))).toEqual([]);
      const manifest = JSON.parse(extractFile(asarFile, 'package.json').toString('utf8')) as {
        main?: string;
      };
      expect(manifest.main).toBe('out/main/index.js');
      expect(await getCurrentFuseWire(path.join(unpacked, 'mcp-browser-inspector'))).toMatchObject(
        HARDENED,
      );
    },
    scaled(700_000),
  );
});
