/**
 * No secret reaches the recording or the inspector's events, in any form: URL credentials of every
 * shape (a user name alone, a password holding a raw `@`, ws/wss, percent-encoded inside another
 * URL, inside longer text), and every configured secret (token, --wsHeaders values, the
 * credentials of --proxyServer, the query values of --wsEndpoint) wherever the agent or the page
 * puts them. The recording's bytes are read, and so is a UI's WebSocket stream.
 */
import fs from 'node:fs';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, startEngine, useEngineWithFixtures, type TestEngine} from '../../helpers/engine.js';
import {openInspectorSocket, type InspectorSocket} from '../../helpers/inspectorSocket.js';
import {scaled} from '../../helpers/loadFactor.js';

const TOKEN = 'secrets-test-token-0123456789';
const HEADER_VALUE = 'hdr-value-secret-4242';
const PROXY_PASSWORD = 'proxy-pw-secret-77';
const PROXY_USER = 'proxyuser-secret-55';
const QUERY_TOKEN = 'qs-token-secret-9911';
const USER_ONLY = 'ghp_useronlytoken1234';
const AT_PASSWORD_TAIL = 'tail-after-at-3344';
const ENCODED_PASSWORD = 'encoded-pw-secret-66';
const OAUTH_TOKEN = 'oauth-access-token-secret-88';
const BROWSER_URL_PASSWORD = 'browser-url-pw-secret-99';

const CONFIGURED = [
  '--token',
  TOKEN,
  '--wsHeaders',
  JSON.stringify({'X-Api-Key': HEADER_VALUE}),
  '--proxyServer',
  `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:9`,
];
const SECRETS = [
  TOKEN,
  HEADER_VALUE,
  PROXY_PASSWORD,
  PROXY_USER,
  QUERY_TOKEN,
  USER_ONLY,
  AT_PASSWORD_TAIL,
  ENCODED_PASSWORD,
  OAUTH_TOKEN,
  BROWSER_URL_PASSWORD,
];

/** Text holding every secret in every form a page or an agent could give it. */
const HOSTILE_TEXT = [
  `clone https://${USER_ONLY}@github.com/o/r.git now`,
  `https://user:p@${AT_PASSWORD_TAIL}@host.example/x`,
  `wss://k:${AT_PASSWORD_TAIL}@browser.example/ws`,
  `go?next=https%3A%2F%2Fu%3A${ENCODED_PASSWORD}%40evil.example%2Fp`,
  `configured: ${TOKEN} ${HEADER_VALUE} ${encodeURIComponent(PROXY_PASSWORD)}`,
  `proxy http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:9`,
  `signed in: https://app.example/callback#access_token=${OAUTH_TOKEN}&token_type=bearer`,
].join('\n');

function recordingOf(engine: TestEngine): string {
  const recorder = engine.engine.recordings.recorder;
  recorder?.flush();
  return fs.readFileSync(recorder?.file ?? '', 'utf8');
}

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) {
    expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
  }
}

describe('a server launching its browser', () => {
  const fx = useEngineWithFixtures({flags: CONFIGURED, clientName: 'secrets'});
  let ui: InspectorSocket;

  beforeAll(async () => {
    ui = await openInspectorSocket(fx.engine);
  });

  it('keeps every form of every secret out of the file and the events', async () => {
    const pageId = await fx.openPage('/index.html');
    const script = `() => { const text = ${JSON.stringify(HOSTILE_TEXT)}; console.log(text); document.title = text.split('\\n')[0]; return text; }`;
    const ran = await call(fx.client, 'evaluate_script', {pageId, function: script});
    // The agent gets what the page returned: secrets are kept out of records, not out of answers.
    expect(ran.text).toContain(USER_ONLY);
    await call(fx.client, 'list_console_messages', {pageId});
    await call(fx.client, 'list_pages');
    await call(fx.client, 'navigate_page', {
      pageId,
      url: `http://${USER_ONLY}@127.0.0.1:1/login?next=${encodeURIComponent(`https://u:${ENCODED_PASSWORD}@x.example/`)}#id_token=${OAUTH_TOKEN}`,
    });
    const recorded = recordingOf(fx.engine);
    expect(recorded).toContain('[redacted]');
    expectNoSecret(recorded, 'the recording');
    const last = fx.engine.engine.hub.nextSeq - 1;
    await expect
      .poll(() => ui.events.at(-1)?.seq ?? 0, {timeout: scaled(10_000)})
      .toBeGreaterThanOrEqual(last);
    expectNoSecret(JSON.stringify(ui.events), 'the UI stream');
  });
});

describe('a server attached to a browser by --wsEndpoint', () => {
  let engine: TestEngine;

  beforeAll(async () => {
    engine = await startEngine([
      ...CONFIGURED,
      '--wsEndpoint',
      `ws://127.0.0.1:1/devtools/browser?token=${QUERY_TOKEN}&x=1`,
    ]);
  });

  afterAll(async () => {
    await engine.stop();
  });

  it('says why it cannot connect without the endpoint token and without [object Object]', async () => {
    const client = await engine.connect('attached');
    const listed = await call(client, 'list_pages');
    expect(listed.isError).toBe(true);
    expect(listed.text).toContain('Could not connect to the browser at ws://127.0.0.1:1/');
    expect(listed.text).toContain('token=[redacted]');
    expect(listed.text).toMatch(/ECONNREFUSED/);
    expect(listed.text).not.toContain('[object Object]');
    expect(listed.text).not.toContain(QUERY_TOKEN);
    // The agent's own arguments are recorded without the credentials in them, too.
    await call(client, 'new_page', {url: `https://${USER_ONLY}@example.com/`});
    const recorded = recordingOf(engine);
    expect(recorded).toContain('"type":"browserStatus"');
    expectNoSecret(recorded, 'the recording');
    const status = engine.engine.state().browser;
    expect(status.error).toContain('token=[redacted]');
  });
});

describe('a server attached to a browser by --browserUrl with credentials', () => {
  let engine: TestEngine;

  beforeAll(async () => {
    engine = await startEngine([
      '--token',
      TOKEN,
      '--browserUrl',
      `http://admin:${BROWSER_URL_PASSWORD}@127.0.0.1:1/`,
    ]);
  });

  afterAll(async () => {
    await engine.stop();
  });

  it("tells the agent why it cannot connect without the endpoint's password", async () => {
    const client = await engine.connect('attached-by-url');
    const listed = await call(client, 'list_pages');
    expect(listed.isError).toBe(true);
    expect(listed.text).toContain('Could not connect to the browser at http://127.0.0.1:1/');
    // Puppeteer's own message quoted the whole URL, password and all.
    expect(listed.text, listed.text).not.toContain(BROWSER_URL_PASSWORD);
    expect(listed.text).not.toContain('admin:');
    expectNoSecret(recordingOf(engine), 'the recording');
  });
});
