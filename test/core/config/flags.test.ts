import {describe, expect, it} from 'vitest';
import {TOOL_CATEGORIES, categoryFlagName} from '../../../src/shared/categories.js';
import {FLAG_SPECS, helpText} from '../../../src/core/config/flagSpecs.js';
import {detectDisplay, isLoopbackHost, parseFlags} from '../../../src/core/config/flags.js';
import {type ServerConfig} from '../../../src/core/config/serverConfig.js';

const env = {env: {}, hasDisplay: true};

function config(argv: string[], environment = env): ServerConfig {
  const parsed = parseFlags(argv, environment);
  if (parsed.kind !== 'config') {
    throw new Error(`expected a config, got ${JSON.stringify(parsed)}`);
  }
  return parsed.config;
}

function error(argv: string[]): string {
  const parsed = parseFlags(argv, env);
  if (parsed.kind !== 'error') {
    throw new Error(`expected an error, got ${parsed.kind}`);
  }
  return parsed.message;
}

describe('parseFlags', () => {
  it('has the documented defaults', () => {
    const c = config([]);
    expect(c.port).toBe(7624);
    expect(c.host).toBe('127.0.0.1');
    expect(c.stdio).toBe(false);
    expect(c.pageIdRouting).toBe(true);
    expect(c.javascriptEvaluation).toBe(true);
    expect(c.slim).toBe(false);
    expect(c.isolateClients).toBe(false);
    expect(c.screenshot.format).toBe('png');
    expect(c.browser.headless).toBe(false);
    expect(c.categories).toEqual({
      input: true,
      navigation: true,
      emulation: true,
      performance: true,
      network: true,
      debugging: true,
      extensions: false,
      experimentalThirdParty: false,
      memory: true,
      experimentalWebmcp: false,
      pwa: false,
    });
  });

  it('accepts camelCase and kebab-case, repeatable arrays and negations', () => {
    const c = config([
      '--port=0',
      '--ready-file',
      '/tmp/r.json',
      '--telemetryLog',
      '/tmp/t.jsonl',
      '--chrome-arg=--lang=de',
      '--chromeArg=--mute-audio',
      '--ignore-default-chrome-arg=--hide-scrollbars',
      '--no-category-emulation',
      '--categoryExperimentalWebmcp',
      '--no-page-id-routing',
      '--javascriptEvaluation=false',
      '--screenshot-format',
      'jpeg',
      '--screenshotQuality',
      '80',
      '--screenshot-max-width=800',
      '--viewport',
      '1024x768',
      '--filesystemRoot',
      '/tmp/a',
      '--workspace=/tmp/b',
      '--experimentalVision',
      '--slim',
      '--redactNetworkHeaders',
      '--isolated',
      '--acceptInsecureCerts',
      '--proxyServer',
      'http://127.0.0.1:3128',
      '--isolate-clients',
    ]);
    expect(c.port).toBe(0);
    expect(c.readyFile).toBe('/tmp/r.json');
    expect(c.telemetryLog).toBe('/tmp/t.jsonl');
    expect(c.browser.chromeArgs).toEqual(['--lang=de', '--mute-audio']);
    expect(c.browser.ignoreDefaultChromeArgs).toEqual(['--hide-scrollbars']);
    expect(c.categories.emulation).toBe(false);
    expect(c.categories.experimentalWebmcp).toBe(true);
    expect(c.pageIdRouting).toBe(false);
    expect(c.javascriptEvaluation).toBe(false);
    expect(c.screenshot).toEqual({format: 'jpeg', quality: 80, maxWidth: 800});
    expect(c.browser.viewport).toEqual({width: 1024, height: 768});
    expect(c.workspaceRoots).toEqual(['/tmp/a', '/tmp/b']);
    expect(c.experimentalVision).toBe(true);
    expect(c.slim).toBe(true);
    expect(c.redactNetworkHeaders).toBe(true);
    expect(c.browser.isolated).toBe(true);
    expect(c.browser.acceptInsecureCerts).toBe(true);
    expect(c.browser.proxyServer).toBe('http://127.0.0.1:3128');
    expect(c.isolateClients).toBe(true);
    expect(config(['--isolateClients']).isolateClients).toBe(true);
  });

  it('takes --memoryDebugging (off by default) and its peer alias --experimentalMemory', () => {
    expect(config([]).memoryDebugging).toBe(false);
    expect(config(['--memoryDebugging']).memoryDebugging).toBe(true);
    expect(config(['--memory-debugging']).memoryDebugging).toBe(true);
    expect(config(['--experimentalMemory']).memoryDebugging).toBe(true);
    expect(config(['--memoryDebugging=false']).memoryDebugging).toBe(false);
  });

  it('has a --category<Name> flag for every category', () => {
    for (const category of TOOL_CATEGORIES) {
      const name = categoryFlagName(category);
      expect(FLAG_SPECS.some(spec => spec.name === name)).toBe(true);
      expect(config([`--${name}=false`]).categories[category]).toBe(false);
      expect(config([`--${name}`]).categories[category]).toBe(true);
    }
  });

  it('rejects bad values naming the flag and what is accepted', () => {
    expect(error(['--port', 'abc'])).toBe(
      'Invalid value for --port: "abc". Expected an integer 0-65535 (0 = any free port).',
    );
    expect(error(['--port', '70000'])).toContain('--port');
    expect(error(['--channel', 'nightly'])).toBe(
      'Invalid value for --channel: "nightly". Expected stable, beta, dev, canary.',
    );
    expect(error(['--screenshotFormat', 'gif'])).toContain('Expected png, jpeg, webp.');
    expect(error(['--screenshotQuality', '101'])).toContain('Expected an integer 0-100.');
    expect(error(['--viewport', 'big'])).toContain('Expected WIDTHxHEIGHT');
    expect(error(['--wsEndpoint', 'http://x'])).toContain('Expected a ws(s):// URL.');
    expect(error(['--wsEndpoint', 'ws://127.0.0.1:1/x', '--wsHeaders', '{bad'])).toContain(
      '--wsHeaders',
    );
    expect(error(['--browserUrl', 'ftp://x'])).toContain('--browserUrl');
    expect(error(['--headless=maybe'])).toContain('Expected true or false');
    expect(error(['--token', 'short'])).toBe(
      'Invalid value for --token: "<hidden>". Expected at least 16 characters from A-Z a-z 0-9 . _ ~ -.',
    );
    expect(error(['--isolated', '--userDataDir', '/tmp/p'])).toContain(
      'either --isolated or --userDataDir',
    );
    expect(
      error(['--browserUrl', 'http://127.0.0.1:9222', '--wsEndpoint', 'ws://127.0.0.1:9222/x']),
    ).toContain('either --browserUrl or --wsEndpoint');
  });

  it('says a flag needs a value when it has none: last, before another flag, or --flag=', () => {
    expect(error(['--port'])).toBe('--port needs a value: an integer 0-65535 (0 = any free port).');
    expect(error(['--port', '--headless'])).toBe(error(['--port']));
    expect(error(['--port='])).toBe(error(['--port']));
    expect(error(['-e'])).toBe(
      '--executablePath needs a value: a path to a Chrome or Chromium binary.',
    );
    expect(error(['--ready-file'])).toBe('--readyFile needs a value: a file path.');
    // Repeatable flags too, which the parser would otherwise drop without a word.
    expect(error(['--chromeArg=--lang=de', '--chromeArg'])).toBe(
      '--chromeArg needs a value: a Chromium switch, e.g. --chromeArg=--lang=de (repeatable).',
    );
    expect(error(['--workspace', '--slim'])).toBe(
      '--workspace needs a value: a directory path (repeatable).',
    );
    expect(error(['--token'])).toMatch(/^--token needs a value: /);
    for (const spec of FLAG_SPECS.filter(s => s.kind !== 'boolean')) {
      expect(error([`--${spec.name}`]), spec.name).toMatch(
        new RegExp(`^--${spec.name} needs a value: `),
      );
    }
  });

  it('refuses non-loopback hosts unless dangerously allowed', () => {
    expect(error(['--host', '0.0.0.0'])).toContain('--dangerouslyAllowNonLoopback');
    expect(error(['--host', '192.168.1.5'])).toContain('not a loopback address');
    expect(config(['--host', '0.0.0.0', '--dangerouslyAllowNonLoopback']).host).toBe('0.0.0.0');
    expect(config(['--host', 'localhost']).host).toBe('127.0.0.1');
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('127.9.9.9')).toBe(true);
    expect(isLoopbackHost('0x7f000001')).toBe(false);
  });

  it('takes the token from the environment when no flag is given, and validates it', () => {
    const token = 'a'.repeat(32);
    expect(config([], {env: {MCP_BROWSER_INSPECTOR_TOKEN: token}, hasDisplay: true}).token).toBe(
      token,
    );
    expect(
      config(['--token', 'b'.repeat(20)], {
        env: {MCP_BROWSER_INSPECTOR_TOKEN: token},
        hasDisplay: true,
      }).token,
    ).toBe('b'.repeat(20));
    const bad = parseFlags([], {env: {MCP_BROWSER_INSPECTOR_TOKEN: 'x'}, hasDisplay: true});
    expect(bad.kind === 'error' && bad.message).toContain('MCP_BROWSER_INSPECTOR_TOKEN');
  });

  it('warns about unknown flags and stray arguments instead of failing', () => {
    const parsed = parseFlags(['--frobnicate', '--port', '0', 'extra'], env);
    expect(parsed.kind).toBe('config');
    if (parsed.kind === 'config') {
      expect(parsed.warnings).toEqual([
        'Unknown flag --frobnicate was ignored. Run with --help to see all flags.',
        'Unexpected argument(s) ignored: extra. Flags start with --.',
      ]);
      expect(parsed.unknown).toEqual(['--frobnicate', 'extra']);
    }
  });

  it('goes headless by itself without a display, and says why', () => {
    const c = config([], {env: {}, hasDisplay: false});
    expect(c.browser.headless).toBe(true);
    expect(c.browser.headlessBecauseNoDisplay).toBe(true);
    expect(
      config(['--headless'], {env: {}, hasDisplay: false}).browser.headlessBecauseNoDisplay,
    ).toBe(false);
    expect(detectDisplay({}, 'linux')).toBe(false);
    expect(detectDisplay({DISPLAY: ':0'}, 'linux')).toBe(true);
    expect(detectDisplay({WAYLAND_DISPLAY: 'wayland-0'}, 'linux')).toBe(true);
    expect(detectDisplay({}, 'darwin')).toBe(true);
  });

  it('lists every flag in --help', () => {
    const parsed = parseFlags(['--help'], env);
    expect(parsed.kind).toBe('help');
    const text = helpText();
    for (const spec of FLAG_SPECS) {
      expect(text).toContain(`--${spec.name}`);
    }
    expect(text).toContain('--filesystemRoot');
  });
});
