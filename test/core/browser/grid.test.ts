/**
 * Attaching to a grid (a browserless stand-in on 127.0.0.1 in front of a real Chromium): refusals
 * say what broke and which flag fixes it, and a session the grid ends is named in the next reply,
 * with the pages lost, before the server connects again.
 *
 * Tests: src/core/browser/launch/ManagedBrowser.ts, src/core/browser/launch/remoteBrowser.ts
 */
import net from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ManagedBrowser} from '../../../src/core/browser/launch/ManagedBrowser.js';
import type {BrowserConfig} from '../../../src/core/config/serverConfig.js';
import {launchDebuggableChromium, type DebuggableChromium} from '../../helpers/chromium.js';
import {call, openPage, startEngine, waitFor} from '../../helpers/engine.js';
import {FixtureServer} from '../../helpers/fixtureServer.js';
import {startGridStandIn, type GridStandIn} from '../../helpers/gridStandIn.js';

const TOKEN = 'grid-secret-token-4242';
const WRONG = 'wrong-token-1717';

let chromium: DebuggableChromium;
let grid: GridStandIn;

beforeAll(async () => {
  chromium = await launchDebuggableChromium();
  grid = await startGridStandIn({upstream: chromium.wsEndpoint, token: TOKEN});
});

afterAll(async () => {
  await grid.close();
  await chromium.stop();
});

function attached(flags: Partial<BrowserConfig>, logs: string[] = []): ManagedBrowser {
  return new ManagedBrowser({
    config: {
      headless: true,
      // As on a box without a display: nothing is launched here, so nothing may say so.
      headlessBecauseNoDisplay: true,
      isolated: true,
      chromeArgs: [],
      ignoreDefaultChromeArgs: [],
      acceptInsecureCerts: false,
      ...flags,
    },
    features: [],
    log: line => logs.push(line),
  });
}

/** The error attaching gives, as the agent reads it (message and cause). */
async function attachError(flags: Partial<BrowserConfig>): Promise<string> {
  const browser = attached(flags);
  try {
    await browser.ensure();
  } catch (error) {
    if (error instanceof Error) {
      return `${error.message}\nCause: ${error.cause instanceof Error ? error.cause.message : ''}`;
    }
    throw error;
  } finally {
    await browser.close();
  }
  throw new Error('attached, but a refusal was expected');
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>(resolve => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('a grid that refuses', () => {
  it('a wrong token in --wsHeaders: the credentials were refused, and --wsHeaders carries them', async () => {
    const text = await attachError({
      wsEndpoint: grid.wsEndpoint(),
      wsHeaders: {Authorization: `Bearer ${WRONG}`},
    });
    expect(text).toContain(
      `Could not connect to the browser at ${grid.wsEndpoint()}: the endpoint refused the credentials (HTTP 403 Forbidden). They are sent from --wsHeaders (Authorization): check the token there`,
    );
    expect(text).toContain('Unexpected server response: 403');
    expect(text).not.toContain('--remote-debugging-port');
    expect(text).not.toContain(WRONG);
  });

  it('a wrong token in the --wsEndpoint query: the URL carries them, and the token is not shown', async () => {
    const text = await attachError({wsEndpoint: grid.wsEndpoint({token: WRONG})});
    expect(text).toContain('?token=[redacted]: the endpoint refused the credentials (HTTP 403');
    expect(text).toContain('They are sent in the --wsEndpoint URL (its query or user:password)');
    expect(text).not.toContain(WRONG);
    expect(text).not.toContain('--remote-debugging-port');
  });

  it('no token at all (401): says none were sent and how to send them', async () => {
    const text = await attachError({wsEndpoint: grid.wsEndpoint()});
    expect(text).toContain('the endpoint refused the credentials (HTTP 401 Unauthorized)');
    expect(text).toContain(`No credentials were sent: pass them with --wsHeaders`);
  });

  it('a wrong path (404): names the path', async () => {
    const text = await attachError({
      wsEndpoint: grid.wsEndpoint({token: TOKEN, path: '/chrome-typo'}),
    });
    expect(text).toContain(
      'nothing answers at the path /chrome-typo (HTTP 404 Not Found). Check the path in --wsEndpoint',
    );
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('credentials');
  });

  it('nothing listening: names the address; --remote-debugging-port only for --browserUrl', async () => {
    const port = await closedPort();
    const viaWs = await attachError({wsEndpoint: `ws://127.0.0.1:${port}/?token=${TOKEN}`});
    expect(viaWs).toContain(
      `nothing accepts connections at 127.0.0.1:${port} (connection refused). Check the address in --wsEndpoint`,
    );
    expect(viaWs).not.toContain('--remote-debugging-port');
    expect(viaWs).not.toContain(TOKEN);
    const viaUrl = await attachError({browserUrl: `http://127.0.0.1:${port}`});
    expect(viaUrl).toContain(
      `nothing accepts connections at 127.0.0.1:${port} (connection refused). Start Chrome with --remote-debugging-port=9222`,
    );
  });

  it('attached, nothing says the browser runs headless for want of a display', async () => {
    const logs: string[] = [];
    const browser = attached({wsEndpoint: grid.wsEndpoint({token: TOKEN})}, logs);
    try {
      await browser.ensure();
      expect(browser.status.state).toBe('running');
      expect(browser.status.note).toBeUndefined();
      expect(logs.join('\n')).not.toContain('No display found');
    } finally {
      await browser.close();
    }
  });
});

describe('a grid that ends the session', () => {
  it('the next call says so, names the lost pages with their last URLs, and works on a new session', async () => {
    const server = await new FixtureServer().start();
    const endpoint = grid.wsEndpoint({token: TOKEN});
    const engine = await startEngine(['--wsEndpoint', endpoint]);
    try {
      const client = await engine.connect('grid-agent');
      const pageId = await openPage(client, server.url('/index.html?from=grid'));
      const before = grid.sessionsOpened();
      await grid.endSessions();
      await waitFor(
        () => engine.engine.browser.status.state === 'disconnected',
        10_000,
        'the engine to see the session end',
      );
      expect(engine.engine.browser.status.note).toMatch(
        /^The remote browser at ws:\/\/127\.0\.0\.1:\d+\/\?token=\[redacted\] ended the session \(\d+ open pages? lost\)\. The next tool call connects again\.$/,
      );

      const next = await call(client, 'list_pages');
      expect(next.isError, next.text).toBe(false);
      const [note = '', ...rest] = next.text.split('\n');
      expect(note).toMatch(
        /^Note: the remote browser at ws:\/\/127\.0\.0\.1:\d+\/\?token=\[redacted\] ended the session since your last call \(a grid ends sessions after its time limit/,
      );
      expect(note).toContain('Its open pages were lost: ');
      expect(note).toContain(`${pageId} (${server.url('/index.html?from=grid')})`);
      expect(note).toContain('Reconnected to a new session: page ids have changed.');
      expect(next.text).not.toContain(TOKEN);
      // Connected again: a new session on the grid, and its pages listed.
      expect(grid.sessionsOpened()).toBe(before + 1);
      expect(rest.join('\n')).toContain('## Pages');
      expect(rest.join('\n')).not.toContain('from=grid');
      // Once.
      expect((await call(client, 'list_pages')).text).not.toContain('ended the session');
    } finally {
      await engine.stop();
      await server.stop();
    }
  }, 90_000);
});
