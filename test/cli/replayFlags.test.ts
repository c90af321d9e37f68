/**
 * What a replay takes over from a recording's header: only Chromium switches that change what the
 * page sees, each with a value of the expected shape; every switch family that runs a program,
 * opens the browser to others, picks files, sends traffic elsewhere or lowers a protection is
 * refused by name (never by value); fields about the machine or the server are never read.
 */
import {describe, expect, it} from 'vitest';
import {chromeArgsTakenOver, takesOverChromeArg} from '../../src/cli/replayChromeArgs.js';
import {recordedFlags, refusedFlagsLine} from '../../src/cli/replayFlags.js';
import {CONFIG_BOOLEAN_FLAGS} from '../../src/core/config/flagSpecs.js';
import {parseFlags} from '../../src/core/config/flags.js';

const parsed = parseFlags([], {env: {}, hasDisplay: false});
if (parsed.kind !== 'config') {
  throw new Error('the defaults parse');
}
const defaults = parsed.config;

/** Every dangerous family, as a crafted recording would carry it. */
const DANGEROUS: Record<string, string[]> = {
  'command prefixes and launchers': [
    '--renderer-cmd-prefix=/bin/sh -c "touch /tmp/pwned"',
    '--gpu-launcher=/bin/sh',
    '--utility-cmd-prefix=/bin/sh',
    '--browser-subprocess-path=/tmp/evil',
    '--ppapi-plugin-launcher=/bin/sh',
    '--plugin-launcher=/bin/sh',
    '--zygote-cmd-prefix=/bin/sh',
  ],
  'debugging ports and pipes': [
    '--remote-debugging-port=9222',
    '--remote-debugging-address=0.0.0.0',
    '--remote-debugging-pipe',
    '--remote-debugging-io-pipes=3,4',
    '--remote-allow-origins=*',
    '--enable-unsafe-extension-debugging',
  ],
  'profile, extension and file paths': [
    '--user-data-dir=/home/user/.config/chromium',
    '--profile-directory=Default',
    '--load-extension=/tmp/evil-extension',
    '--disable-extensions-except=/tmp/evil-extension',
    '--disk-cache-dir=/tmp/cache',
    '--crash-dumps-dir=/tmp',
    '--log-file=/home/user/.bashrc',
    '--enable-logging=stderr',
    '--policy=/tmp/policy.json',
    '--register-pepper-plugins=/tmp/p.so;application/x-evil',
    'file:///etc/passwd',
    '/etc/passwd',
  ],
  proxies: [
    '--proxy-server=http://attacker:8080',
    '--proxy-pac-url=http://attacker/pac',
    '--proxy-bypass-list=*',
    '--host-resolver-rules=MAP * attacker',
    '--host-rules=MAP * attacker',
  ],
  'sandbox and web security': [
    '--no-sandbox',
    '--disable-setuid-sandbox',
    '--disable-gpu-sandbox',
    '--no-zygote',
    '--single-process',
    '--disable-web-security',
    '--disable-site-isolation-trials',
    '--allow-running-insecure-content',
    '--ignore-certificate-errors',
    '--ignore-certificate-errors-spki-list=abc',
    '--unsafely-treat-insecure-origin-as-secure=http://attacker',
    '--allow-file-access-from-files',
    '--disable-features=IsolateOrigins,site-per-process',
  ],
  'feature switches not set by this server': [
    '--enable-features=WebMCP,NetworkServiceInProcess',
    '--enable-features=ChromeLabs',
    '--enable-blink-features=SomeFeature',
    '--js-flags=--allow-natives-syntax',
  ],
  'spellings that dodge an exact match': [
    '-renderer-cmd-prefix=/bin/sh',
    '--Renderer-Cmd-Prefix=/bin/sh',
    '--window-size=1,1 --renderer-cmd-prefix=/bin/sh',
    '--lang=en\n--renderer-cmd-prefix=/bin/sh',
    '--user-agent=\u202eevil',
    '--hide-scrollbars=1',
    '--window-size',
    '--',
  ],
};

describe('recorded Chromium arguments', () => {
  it.each(Object.entries(DANGEROUS))('refuses every %s', (_family, args) => {
    for (const arg of args) {
      expect(takesOverChromeArg(arg), arg).toBe(false);
    }
    const split = chromeArgsTakenOver(args, []);
    expect(split.chromeArgs).toEqual([]);
    expect(split.refused.length).toBeGreaterThan(0);
  });

  it('names what it refused by switch, never by value', () => {
    const {refused} = chromeArgsTakenOver(
      [
        '--renderer-cmd-prefix=/bin/sh -c "curl evil"',
        '--proxy-server=http://user:secret@attacker:8080',
        '/home/user/secret-file',
        '--lang=en\u2028FORGED',
      ],
      ['--disable-extensions', '--remote-debugging-pipe'],
    );
    expect(refused).toEqual([
      '--renderer-cmd-prefix',
      '--proxy-server',
      'an argument that is not a switch (a URL or a path)',
      '--lang',
      '--ignoreDefaultChromeArg=--disable-extensions',
      '--ignoreDefaultChromeArg=--remote-debugging-pipe',
    ]);
    const line = refusedFlagsLine(refused);
    expect(line).not.toMatch(/secret|curl|FORGED|attacker/);
    expect(line).toContain('--chromeArg');
  });

  it('takes over what changes what the page sees, with values of the expected shape', () => {
    const allowed = [
      '--window-size=1024,768',
      '--force-device-scale-factor=2',
      '--lang=de-DE',
      '--accept-lang=de-DE,de;q=0.9',
      '--user-agent=Mozilla/5.0 (X11; Linux x86_64) ReplayUA/1',
      '--force-color-profile=srgb',
      '--font-render-hinting=none',
      '--hide-scrollbars',
      '--mute-audio',
      '--force-dark-mode',
      '--force-prefers-reduced-motion',
      '--enable-features=WebMCP',
      '--disable-features=WebMCP',
    ];
    const split = chromeArgsTakenOver(allowed, ['--hide-scrollbars', '--mute-audio']);
    expect(split).toEqual({
      chromeArgs: allowed,
      ignoreDefaultChromeArgs: ['--hide-scrollbars', '--mute-audio'],
      refused: [],
    });
  });
});

describe('recorded server flags', () => {
  /** A header with every machine and server field set, as a crafted recording would. */
  const hostileHeader = {
    port: 9,
    host: '0.0.0.0',
    dangerouslyAllowNonLoopback: true,
    token: 'a'.repeat(43),
    stdio: true,
    readyFile: '/home/user/.bashrc',
    telemetryLog: '/home/user/.profile',
    workspaceRoots: ['/'],
    isolateClients: false,
    clientSessions: {idleTimeoutMs: 1, max: 1},
    hold: {rules: ['tool:*'], timeoutMs: 1},
    recording: {enabled: true, dir: '/home/user'},
    snapshotDiffs: false,
    browser: {
      headless: true,
      isolated: false,
      userDataDir: '/home/user/.config/google-chrome',
      executablePath: '/tmp/evil',
      channel: 'canary',
      browserUrl: 'http://attacker:9222',
      wsEndpoint: 'ws://attacker:9222/devtools/browser/x',
      wsHeaders: {Authorization: 'Bearer x'},
      proxyServer: 'http://attacker:8080',
      acceptInsecureCerts: true,
      viewport: {width: 800, height: 600},
      chromeArgs: ['--lang=fr', '--renderer-cmd-prefix=/bin/sh', '--remote-debugging-port=9222'],
      ignoreDefaultChromeArgs: ['--disable-extensions'],
    },
  };

  it('takes over exactly the tool and output switches of the config booleans', () => {
    // Every config boolean flipped from its default, as a recording made with each would say.
    const header = Object.fromEntries(CONFIG_BOOLEAN_FLAGS.map(name => [name, !defaults[name]]));
    const {argv, refused} = recordedFlags(header, [], defaults);
    expect(argv).toEqual([
      '--slim',
      '--experimentalVision',
      '--memoryDebugging',
      '--webmcpTools',
      '--no-pageIdRouting',
      '--no-javascriptEvaluation',
      '--redactNetworkHeaders',
    ]);
    expect(refused).toEqual([]);
    // A switch the command line gives is the command line's.
    expect(recordedFlags(header, ['--no-slim', '--webmcpTools=false'], defaults).argv).toEqual([
      '--experimentalVision',
      '--memoryDebugging',
      '--no-pageIdRouting',
      '--no-javascriptEvaluation',
      '--redactNetworkHeaders',
    ]);
  });

  it('never reads the machine or the server from a recording', () => {
    const {argv, refused} = recordedFlags(hostileHeader, [], defaults);
    expect(argv).toEqual(['--headless', '--viewport=800x600', '--chromeArg=--lang=fr']);
    expect(refused).toEqual([
      '--renderer-cmd-prefix',
      '--remote-debugging-port',
      '--ignoreDefaultChromeArg=--disable-extensions',
      '--acceptInsecureCerts',
    ]);
    const config = parseFlags(argv, {env: {}, hasDisplay: false});
    expect(config.kind).toBe('config');
    if (config.kind !== 'config') {
      return;
    }
    const {browser} = config.config;
    expect(browser.executablePath).toBeUndefined();
    expect(browser.userDataDir).toBeUndefined();
    expect(browser.channel).toBeUndefined();
    expect(browser.browserUrl).toBeUndefined();
    expect(browser.wsEndpoint).toBeUndefined();
    expect(browser.wsHeaders).toBeUndefined();
    expect(browser.proxyServer).toBeUndefined();
    expect(browser.acceptInsecureCerts).toBe(false);
    expect(browser.chromeArgs).toEqual(['--lang=fr']);
    expect(browser.ignoreDefaultChromeArgs).toEqual([]);
    expect(config.config.workspaceRoots).toEqual(defaults.workspaceRoots);
    expect(config.config.hold).toEqual(defaults.hold);
    expect(config.config.recording).toEqual(defaults.recording);
    expect(config.config.port).toBe(defaults.port);
    expect(config.config.host).toBe(defaults.host);
    expect(config.config.telemetryLog).toBeUndefined();
    expect(config.config.readyFile).toBeUndefined();
  });
});
