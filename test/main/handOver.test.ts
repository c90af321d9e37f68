import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {parseFlags} from '../../src/core/config/flags.js';
import {type ServerConfig} from '../../src/core/config/serverConfig.js';
import {
  describeHandOver,
  extractUserArgs,
  groupFlags,
  handOverArgs,
  planHandOver,
} from '../../src/main/handOver.js';

function config(argv: string[]): ServerConfig {
  const parsed = parseFlags(argv, {env: {}, hasDisplay: true});
  if (parsed.kind !== 'config') {
    throw new Error(JSON.stringify(parsed));
  }
  return parsed.config;
}

const plan = (argv: string[], current: ServerConfig, cwd = '/work') =>
  planHandOver({argv, cwd}, current);

describe('user arguments from an Electron argv', () => {
  it('packaged: everything after the executable', () => {
    expect(extractUserArgs(['/opt/App/app', '--port', '9000'], true)).toEqual(['--port', '9000']);
  });

  it('unpackaged: everything after the app path, skipping Electron and Node switches', () => {
    expect(extractUserArgs(['electron', '.', '--slim'], false)).toEqual(['--slim']);
    expect(
      extractUserArgs(
        [
          'electron',
          '--inspect=0',
          '--remote-debugging-port=0',
          '-r',
          '/tmp/loader.js',
          'out/main/index.js',
          '--port',
          '0',
        ],
        false,
      ),
    ).toEqual(['--port', '0']);
    expect(extractUserArgs(['electron'], false)).toEqual([]);
  });

  it('takes the validated hand-over data, else falls back to the raw argv', () => {
    expect(
      handOverArgs({argv: ['--slim'], cwd: '/x'}, ['electron', '.', '--other'], false),
    ).toEqual({
      argv: ['--slim'],
      cwd: '/x',
    });
    expect(handOverArgs({argv: 'no'}, ['electron', '.', '--other'], false)).toEqual({
      argv: ['--other'],
      cwd: '',
    });
    expect(handOverArgs(undefined, ['/opt/app', '--x'], true).argv).toEqual(['--x']);
  });
});

describe('flag groups', () => {
  it('pairs flags with their values in every spelling', () => {
    const groups = groupFlags([
      '--port',
      '9000',
      '--category-network=false',
      '--no-category-pwa',
      '--headless',
      'true',
      '--chrome-arg',
      '--foo',
      '-e',
      '/usr/bin/chromium',
      '--unknownFlag',
      'positional',
    ]);
    expect(groups.map(group => [group.spec.name, group.tokens])).toEqual([
      ['port', ['--port', '9000']],
      ['categoryNetwork', ['--category-network=false']],
      ['categoryPwa', ['--no-category-pwa']],
      ['headless', ['--headless', 'true']],
      ['chromeArg', ['--chrome-arg']],
      ['executablePath', ['-e', '/usr/bin/chromium']],
    ]);
  });
});

describe('hand-over plan', () => {
  const running = config(['--port', '9000', '--categoryNetwork=false', '--categoryPwa']);

  it('a bare second launch changes nothing (saved switches are not reset to defaults)', () => {
    const result = plan([], running);
    expect(result).toEqual({categories: {}, needsRestart: [], warnings: []});
    expect(describeHandOver(result)).toBeUndefined();
  });

  it('applies category switches live, only where they differ', () => {
    const result = plan(['--category-network', '--categoryPwa', '--no-category-memory'], running);
    expect(result.categories).toEqual({network: true, memory: false});
    expect(result.needsRestart).toEqual([]);
    expect(describeHandOver(result)).toBe('Switched categories: network on, memory off.');
  });

  it('names flags that need a restart, only when they change something', () => {
    const result = plan(
      ['--port', '9001', '--headless', '--slim', '--viewport', '800x600'],
      running,
    );
    expect(result.needsRestart).toEqual(['--port', '--headless', '--slim', '--viewport']);
    expect(describeHandOver(result)).toContain(
      'Restart MCP Browser Inspector to apply --port, --headless, --slim, --viewport',
    );
    expect(plan(['--port', '9000', '--no-headless'], running).needsRestart).toEqual([]);
  });

  it('notices an explicit default that differs from the running (saved) value', () => {
    expect(plan(['--port', '7624'], running).needsRestart).toEqual(['--port']);
  });

  it('never echoes a token value', () => {
    const result = plan(['--token', 'abcdefghijklmnopqrstuvwxyz123456'], running);
    expect(result.needsRestart).toEqual(['--token']);
    expect(describeHandOver(result)).not.toContain('abcdefghijklmnop');
  });

  it('writes a --readyFile now, resolved against the second launch’s directory', () => {
    const result = plan(['--readyFile', 'ready.json'], running, '/home/me/project');
    expect(result.readyFile).toBe(path.resolve('/home/me/project', 'ready.json'));
    expect(result.needsRestart).toEqual([]);
  });

  it('applies nothing when the flags are invalid, and says why', () => {
    const result = plan(['--port', 'eighty', '--category-network'], running);
    expect(result.error).toMatch(/Invalid value for --port/);
    expect(result.categories).toEqual({});
    expect(describeHandOver(result)).toMatch(/nothing was changed/);
  });

  it('passes on warnings about unknown flags', () => {
    expect(plan(['--frobnicate'], running).warnings[0]).toMatch(/Unknown flag --frobnicate/);
  });
});
