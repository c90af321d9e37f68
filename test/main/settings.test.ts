import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {parseFlags} from '../../src/core/config/flags.js';
import {
  categorySettings,
  loadSettings,
  saveSettings,
  settingsFile,
  settingsToArgs,
  updateSettings,
} from '../../src/main/settings.js';

let dir: string;

beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-settings-')), 'config');
});
afterEach(() => fs.rmSync(path.dirname(dir), {recursive: true, force: true}));

const parse = (argv: string[]) => {
  const parsed = parseFlags(argv, {env: {}, hasDisplay: true});
  if (parsed.kind !== 'config') {
    throw new Error(JSON.stringify(parsed));
  }
  return parsed.config;
};

describe('settings file', () => {
  it('starts empty when there is no file', () => {
    expect(loadSettings(dir)).toEqual({settings: {}, file: settingsFile(dir)});
  });

  it('round-trips window bounds, categories and port, written with mode 0600 in a 0700 dir', () => {
    const settings = {
      window: {x: 10, y: 20, width: 1000, height: 700, maximized: true},
      categories: {network: false, pwa: true},
      port: 9123,
    };
    saveSettings(settings, dir);
    expect(loadSettings(dir).settings).toEqual(settings);
    if (process.platform !== 'win32') {
      expect(fs.statSync(settingsFile(dir)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(fs.readdirSync(dir)).toEqual(['settings.json']);
  });

  it('merges updates with what is saved', () => {
    updateSettings({port: 8000}, dir);
    updateSettings({categories: {memory: false}}, dir);
    expect(loadSettings(dir).settings).toEqual({port: 8000, categories: {memory: false}});
  });

  it.each([
    ['broken JSON', '{"port": 80', /not valid JSON/],
    ['a port out of range', '{"port": 70000}', /port/],
    ['a string port', '{"port": "8000"}', /port/],
    ['an unknown category', '{"categories": {"root": true}}', /categories/],
    ['a tiny window', '{"window": {"width": 10, "height": 10}}', /window\.width/],
    ['an array', '[]', /root/],
  ])('ignores a file with %s and says why', (_name, text, reason) => {
    fs.mkdirSync(dir, {recursive: true});
    fs.writeFileSync(settingsFile(dir), text);
    const loaded = loadSettings(dir);
    expect(loaded.settings).toEqual({});
    expect(loaded.warning).toMatch(reason);
    expect(loaded.warning).toContain(settingsFile(dir));
  });

  it('refuses to save invalid settings', () => {
    expect(() => saveSettings({port: 0}, dir)).toThrow();
    expect(fs.existsSync(settingsFile(dir))).toBe(false);
  });

  it('drops unknown keys (a newer or older version wrote them)', () => {
    fs.mkdirSync(dir, {recursive: true});
    fs.writeFileSync(settingsFile(dir), '{"port": 8001, "future": {"x": 1}}');
    expect(loadSettings(dir).settings).toEqual({port: 8001});
  });
});

describe('saved settings as flags', () => {
  it('apply when the command line says nothing', () => {
    const config = parse(settingsToArgs({port: 9001, categories: {network: false, pwa: true}}));
    expect(config.port).toBe(9001);
    expect(config.categories.network).toBe(false);
    expect(config.categories.pwa).toBe(true);
    expect(config.categories.input).toBe(true);
  });

  it('lose against explicit flags in any spelling', () => {
    const saved = settingsToArgs({
      port: 9001,
      categories: {network: false, pwa: true, memory: true},
    });
    const config = parse([
      ...saved,
      '--port',
      '0',
      '--category-network',
      '--no-category-pwa',
      '--categoryMemory=false',
    ]);
    expect(config.port).toBe(0);
    expect(config.categories.network).toBe(true);
    expect(config.categories.pwa).toBe(false);
    expect(config.categories.memory).toBe(false);
  });

  it('categorySettings records every category state', () => {
    expect(
      categorySettings([
        {id: 'network', enabled: false},
        {id: 'input', enabled: true},
      ]),
    ).toEqual({network: false, input: true});
  });
});
