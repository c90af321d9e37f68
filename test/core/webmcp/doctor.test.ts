/**
 * The WebMCP doctor: every diagnosis as a pure function, then the real cases in Chromium — a
 * browser attached with --browserUrl that was started without --enable-features=WebMCP, a page
 * that is not a secure context, and the browser not running yet.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {webmcpDoctorReportSchema} from '../../../src/shared/protocol.js';
import {diagnose, majorVersion, type DoctorFacts} from '../../../src/core/webmcp/doctor.js';
import {
  call,
  pageIdFrom,
  startEngine,
  useEngineWithFixtures,
  waitFor,
  type TestEngine,
} from '../../helpers/engine.js';
import {launchDebuggableChromium, type DebuggableChromium} from '../../helpers/chromium.js';
import {FixtureServer} from '../../helpers/fixtureServer.js';

function facts(overrides: Partial<DoctorFacts> = {}): DoctorFacts {
  return {
    browserRunning: true,
    mode: 'launch',
    endpoint: undefined,
    browserVersion: 'HeadlessChrome/156.0.8078.108',
    enableError: undefined,
    page: {
      id: 3,
      url: 'http://127.0.0.1:8080/',
      secureContextType: 'SecureLocalhost',
      modelContext: true,
    },
    frames: [],
    toolCount: 2,
    ...overrides,
  };
}

describe('diagnose', () => {
  it('reads the major version of Chrome, headless Chrome and Chromium', () => {
    expect(majorVersion('HeadlessChrome/156.0.8078.108')).toBe(156);
    expect(majorVersion('Chrome/149.0.1.2')).toBe(149);
    expect(majorVersion('Chromium/120.0')).toBe(120);
    expect(majorVersion('Firefox/1')).toBeUndefined();
  });

  it('finds nothing wrong on a healthy page', () => {
    const report = diagnose(facts());
    expect(report).toMatchObject({available: true, problems: [], pageId: 3});
    expect(report.notes).toContain('2 WebMCP tools registered on page 3; 0 iframes checked.');
  });

  it('says the browser is too old, with the old-flag hint from 146 to 149', () => {
    const old = diagnose(facts({browserVersion: 'Chrome/120.0.1.1'}));
    expect(old.available).toBe(false);
    expect(old.problems[0]).toMatchObject({
      code: 'browser-too-old',
      message: 'This browser is Chrome/120.0.1.1; WebMCP needs Chrome 150 or newer.',
      fix: 'Point --executablePath (or --channel) at Chrome 150 or newer.',
    });
    const preview = diagnose(
      facts({
        browserVersion: 'Chrome/148.0.1.1',
        mode: 'connect',
        endpoint: 'http://127.0.0.1:9222',
      }),
    );
    expect(preview.problems[0]?.message).toContain(
      '--enable-features=WebMCPTesting,DevToolsWebMCPSupport',
    );
    expect(preview.problems[0]?.fix).toContain('Restart the browser at http://127.0.0.1:9222');
  });

  it('says the domain is missing when WebMCP.enable is unknown', () => {
    const report = diagnose(
      facts({enableError: "Protocol error (WebMCP.enable): 'WebMCP.enable' wasn't found"}),
    );
    expect(report.available).toBe(false);
    expect(report.problems[0]?.code).toBe('domain-missing');
    expect(report.problems[0]?.message).toContain("'WebMCP.enable' wasn't found");
  });

  it('tells an attached browser started without the flag how to restart it', () => {
    const report = diagnose(
      facts({
        mode: 'connect',
        endpoint: 'http://127.0.0.1:9222',
        page: {id: 1, url: 'http://127.0.0.1/', secureContextType: 'Secure', modelContext: false},
      }),
    );
    expect(report.available).toBe(false);
    expect(report.problems).toEqual([
      {
        code: 'feature-disabled',
        message:
          'The browser at http://127.0.0.1:9222 was started without --enable-features=WebMCP: document.modelContext is missing on a secure page.',
        fix: 'Quit that browser and start it again with --enable-features=WebMCP added to its command line (keep --remote-debugging-port and --user-data-dir), or drop --browserUrl/--wsEndpoint so this app launches a browser with the flag.',
      },
    ]);
    const launched = diagnose(
      facts({
        page: {id: 1, url: 'http://127.0.0.1/', secureContextType: 'Secure', modelContext: false},
      }),
    );
    expect(launched.problems[0]?.fix).toBe(
      'Remove the --chromeArg that disables WebMCP and restart the server.',
    );
  });

  it('flags an insecure page instead of blaming the flag', () => {
    const report = diagnose(
      facts({
        page: {
          id: 4,
          url: 'http://example.test/',
          secureContextType: 'InsecureScheme',
          modelContext: false,
        },
      }),
    );
    expect(report.problems.map(problem => problem.code)).toEqual(['insecure-context']);
    expect(report.problems[0]?.fix).toContain('https://');
  });

  it('flags iframes without allow="tools", blocked by a header, or insecure', () => {
    const report = diagnose(
      facts({
        frames: [
          {
            frameId: 'A',
            url: 'http://a.test/',
            secureContextType: 'SecureLocalhost',
            toolsAllowed: false,
            blockReason: 'IframeAttribute',
          },
          {
            frameId: 'B',
            url: 'http://b.test/',
            secureContextType: 'SecureLocalhost',
            toolsAllowed: false,
            blockReason: 'Header',
          },
          {
            frameId: 'C',
            url: 'http://c.test/',
            secureContextType: 'InsecureAncestor',
            toolsAllowed: undefined,
            blockReason: undefined,
          },
          {
            frameId: 'D',
            url: 'http://d.test/',
            secureContextType: 'Secure',
            toolsAllowed: true,
            blockReason: undefined,
          },
        ],
      }),
    );
    expect(report.available).toBe(true);
    expect(report.problems.map(problem => [problem.code, problem.frameId])).toEqual([
      ['iframe-not-allowed', 'A'],
      ['iframe-not-allowed', 'B'],
      ['iframe-insecure', 'C'],
    ]);
    expect(report.problems[1]?.message).toContain('Permissions-Policy header');
  });

  it('says what to do when the browser is not running', () => {
    const report = diagnose(facts({browserRunning: false, page: undefined}));
    expect(report.problems[0]?.code).toBe('browser-not-running');
  });
});

describe('in a launched browser', () => {
  const fx = useEngineWithFixtures({
    flags: [
      '--categoryExperimentalWebmcp',
      '--chromeArg=--host-resolver-rules=MAP insecure.test 127.0.0.1',
    ],
  });

  it('says the browser is not running before the first call', async () => {
    const reply = await fx.engine.engine.handleCommand({type: 'webmcpDoctor'});
    expect(reply.ok).toBe(true);
    const report = webmcpDoctorReportSchema.parse(reply.ok ? reply.value : undefined);
    expect(report.problems[0]?.code).toBe('browser-not-running');
  });

  it('reports WebMCP available with the browser status, and an insecure page', async () => {
    const client = fx.client;
    const insecureUrl = fx.server
      .url('/webmcp/imperative.html')
      .replace('127.0.0.1', 'insecure.test');
    const opened = await call(client, 'new_page', {url: insecureUrl});
    expect(opened.isError, opened.text).toBe(false);
    const pageId = pageIdFrom(opened.text, 'insecure.test');
    expect(fx.engine.engine.browser.status.webmcp).toEqual({available: true});

    const reply = await fx.engine.engine.handleCommand({type: 'webmcpDoctor', pageId});
    const report = webmcpDoctorReportSchema.parse(reply.ok ? reply.value : undefined);
    expect(report.available).toBe(false);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({
      code: 'insecure-context',
      message: `Page ${pageId} (${insecureUrl}) is not a secure context, so document.modelContext does not exist there.`,
    });
    // The tools are missing for that reason; the list says so too.
    const listed = await call(client, 'list_webmcp_tools', {pageId});
    expect(listed.text).toContain('No WebMCP tools available.');
  });
});

describe('a browser attached with --browserUrl that was started without --enable-features=WebMCP', () => {
  let server: FixtureServer;
  let engine: TestEngine;
  let chrome: DebuggableChromium;

  beforeAll(async () => {
    server = await new FixtureServer().start();
    chrome = await launchDebuggableChromium();
    engine = await startEngine(['--categoryExperimentalWebmcp', '--browserUrl', chrome.browserUrl]);
  });

  afterAll(async () => {
    await engine.stop();
    await chrome.stop();
    await server.stop();
  });

  it('says the flag is missing and how to restart that browser', async () => {
    const client = await engine.connect();
    const opened = await call(client, 'new_page', {url: server.url('/webmcp/imperative.html')});
    expect(opened.isError, opened.text).toBe(false);
    const pageId = pageIdFrom(opened.text, 'imperative.html');

    const reply = await engine.engine.handleCommand({type: 'webmcpDoctor', pageId});
    const report = webmcpDoctorReportSchema.parse(reply.ok ? reply.value : undefined);
    expect(report.available).toBe(false);
    expect(report.problems.map(problem => problem.code)).toEqual(['feature-disabled']);
    expect(report.problems[0]?.message).toMatch(
      /^The browser at http:\/\/127\.0\.0\.1:\d+ was started without --enable-features=WebMCP/,
    );
    expect(report.problems[0]?.fix).toContain('start it again with --enable-features=WebMCP');

    // The browser status carries the same verdict for the UI.
    await waitFor(() => engine.engine.browser.status.webmcp?.available === false);
    expect(engine.engine.browser.status.webmcp?.reason).toBe(
      'The attached browser was started without --enable-features=WebMCP. Restart it with that flag.',
    );
    const listed = await call(client, 'list_webmcp_tools', {pageId});
    expect(listed.text).toContain('No WebMCP tools available.');
    expect(listed.text).toContain('started without --enable-features=WebMCP');
  });
});
