import fs from 'node:fs';
import type {ServerResponse} from 'node:http';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {beforeAll, describe, expect, it} from 'vitest';
import {FixtureServer} from '../../helpers/fixtureServer.js';
import {call, openPage, startEngine, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

// A valid 1x1 PNG: binary, not UTF-8.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x81, 0xc3, 0x28, 0xa0, 0xa1]);
const LARGE = 'abcdefghij'.repeat(2_500); // 25,000 characters

let deadUrl: string;

function addRoutes(fixtures: FixtureServer): void {
  const send =
    (type: string, body: string | Buffer, status = 200, extra: Record<string, string> = {}) =>
    (_request: unknown, response: ServerResponse): void => {
      response.writeHead(status, {'Content-Type': type, 'Cache-Control': 'no-store', ...extra});
      response.end(body);
    };
  fixtures.route('/net/style.css', send('text/css', 'body { color: rebeccapurple; }'));
  fixtures.route('/net/script.js', send('text/javascript', 'window.scriptLoaded = true;'));
  fixtures.route('/net/image.png', send('image/png', PIXEL));
  fixtures.route('/net/xhr.txt', send('text/plain', 'plain xhr body'));
  fixtures.route('/net/data.json', (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'Set-Cookie': 'session=abc123; Path=/',
        'X-Echo-Length': String(body.length),
      });
      response.end(JSON.stringify({ok: true, books: ['Dune', 'Emma'], echo: body}));
    });
  });
  fixtures.route('/net/redirect', send('text/plain', '', 302, {Location: '/net/hop'}));
  fixtures.route('/net/hop', send('text/plain', '', 301, {Location: '/net/final'}));
  fixtures.route('/net/final', send('text/plain', 'arrived'));
  fixtures.route('/net/large', send('text/plain', LARGE));
  fixtures.route('/net/binary', send('application/octet-stream', BINARY));
  fixtures.route('/net/empty', send('text/plain', ''));
  fixtures.route('/net/item', send('text/plain', 'item'));
}

const fx = useEngineWithFixtures({routes: addRoutes, tmpPrefix: 'mbi-network-'});

beforeAll(async () => {
  const closed = await new FixtureServer().start();
  deadUrl = closed.url('/unreachable');
  await closed.stop();
});

/** Opens the network fixture and waits until every request it makes has settled. */
async function openNetworkPage(target: Client = fx.client): Promise<number> {
  const pathname = `/network-all.html?dead=${encodeURIComponent(deadUrl)}`;
  const id = await openPage(target, fx.server.url(pathname), pathname);
  await waitFor(
    async () =>
      (await call(target, 'list_console_messages', {pageId: id})).text.includes('network done'),
    15_000,
    'the fixture requests to settle',
  );
  return id;
}

function reqidOf(listing: string, urlFragment: string): number {
  const line = listing.split('\n').find(l => l.startsWith('reqid=') && l.includes(urlFragment));
  if (!line) {
    throw new Error(`No request for ${urlFragment} in:\n${listing}`);
  }
  return Number(/^reqid=(\d+)/.exec(line)?.[1]);
}

describe('list_network_requests', () => {
  it('lists document, stylesheet, script, image, fetch, XHR and failed requests with status', async () => {
    const id = await openNetworkPage();
    const {text, isError} = await call(fx.client, 'list_network_requests', {pageId: id});
    expect(isError).toBe(false);
    const origin = fx.server.origin;
    expect(text).toMatch(/^## Network requests\nShowing 1-\d+ of \d+ \(Page 1 of 1\)\.$/m);
    // Same-origin requests print as paths, with the origin named once.
    expect(text).toContain(`Paths below without an origin are on ${origin}.`);
    expect(text).toMatch(/^reqid=\d+ GET \/network-all\.html\?dead=\S+ \[200\]$/m);
    expect(text).toContain('GET /net/style.css [200]');
    expect(text).toContain('GET /net/script.js [200]');
    expect(text).toContain('GET /net/image.png [200]');
    expect(text).toContain('POST /net/data.json [200]');
    expect(text).toContain('GET /net/xhr.txt [200]');
    expect(text).toContain('GET /net/redirect [302]');
    expect(text).toContain('GET /net/hop [301]');
    expect(text).toContain('GET /net/final [200]');
    expect(text).toContain(`GET ${deadUrl} [net::ERR_CONNECTION_REFUSED]`);
    // Ids count up in request order.
    const ids = [...text.matchAll(/^reqid=(\d+)/gm)].map(match => Number(match[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('filters by resource type', async () => {
    const id = await openNetworkPage();
    const images = await call(fx.client, 'list_network_requests', {
      pageId: id,
      resourceTypes: ['image'],
    });
    expect(images.text).toContain('/net/image.png [200]');
    expect(images.text).not.toContain('/net/style.css');
    expect(images.text).toContain('Showing 1-1 of 1 (Page 1 of 1).');

    const mixed = await call(fx.client, 'list_network_requests', {
      pageId: id,
      resourceTypes: ['stylesheet', 'script', 'xhr'],
    });
    expect(mixed.text).toContain('/net/style.css');
    expect(mixed.text).toContain('/net/script.js');
    expect(mixed.text).toContain('/net/xhr.txt');
    expect(mixed.text).not.toContain('/net/data.json');

    const none = await call(fx.client, 'list_network_requests', {
      pageId: id,
      resourceTypes: ['websocket'],
    });
    expect(none.text).toContain('## Network requests\nNo requests found.');

    const bad = await call(fx.client, 'list_network_requests', {
      pageId: id,
      resourceTypes: ['nonsense'],
    });
    expect(bad.isError).toBe(true);
  });

  it('pages through requests and notes an invalid page', async () => {
    const id = await openNetworkPage();
    const all = await call(fx.client, 'list_network_requests', {pageId: id});
    const total = Number(/of (\d+) \(Page/.exec(all.text)?.[1]);
    expect(total).toBeGreaterThan(10);
    const allIds = [...all.text.matchAll(/^reqid=(\d+)/gm)].map(match => Number(match[1]));

    const first = await call(fx.client, 'list_network_requests', {pageId: id, pageSize: 4});
    expect(first.text).toContain(`Showing 1-4 of ${total} (Page 1 of ${Math.ceil(total / 4)}).`);
    expect(first.text).toContain('Next page: 1');
    expect(first.text).not.toContain('Previous page');
    const firstIds = [...first.text.matchAll(/^reqid=(\d+)/gm)].map(match => Number(match[1]));
    expect(firstIds).toEqual(allIds.slice(0, 4));

    const second = await call(fx.client, 'list_network_requests', {
      pageId: id,
      pageSize: 4,
      pageIdx: 1,
    });
    expect(second.text).toContain(`Showing 5-8 of ${total}`);
    expect(second.text).toContain('Next page: 2');
    expect(second.text).toContain('Previous page: 0');
    const secondIds = [...second.text.matchAll(/^reqid=(\d+)/gm)].map(match => Number(match[1]));
    expect(secondIds).toEqual(allIds.slice(4, 8));

    const invalid = await call(fx.client, 'list_network_requests', {
      pageId: id,
      pageSize: 4,
      pageIdx: 99,
    });
    expect(invalid.text).toContain(
      `Invalid page number provided. Showing first page.\nShowing 1-4 of ${total}`,
    );

    const defaultSize = await call(fx.client, 'list_network_requests', {pageId: id, pageIdx: 0});
    expect(defaultSize.text).toContain(`Showing 1-${Math.min(20, total)} of ${total}`);
  });

  it('a repeated listing shows new requests and a pending request once it is answered', async () => {
    let answer: (() => void) | undefined;
    fx.server.route('/net/held', (_request, response) => {
      answer = () => response.writeHead(200, {'Content-Type': 'text/plain'}).end('held');
    });
    const id = await fx.openPage('/other.html?held');
    const first = await call(fx.client, 'list_network_requests', {pageId: id});
    expect(first.text).not.toContain('/net/held');
    await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { window.held = fetch("/net/held").then(r => r.text()); return true; }',
    });
    const pending = await waitFor(async () => {
      const {text} = await call(fx.client, 'list_network_requests', {pageId: id});
      return text.includes('/net/held [pending]') ? text : undefined;
    });
    // Asked again with nothing changed: the same listing.
    expect((await call(fx.client, 'list_network_requests', {pageId: id})).text).toBe(pending);
    await waitFor(() => answer !== undefined, 5_000, 'the held request to reach the server');
    answer?.();
    await waitFor(async () => {
      const {text} = await call(fx.client, 'list_network_requests', {pageId: id});
      return text.includes('/net/held [200]') && !text.includes('[pending]');
    });
  });

  it('keeps earlier navigations on request, and moves the document request with its navigation', async () => {
    const id = await openNetworkPage();
    const before = await call(fx.client, 'list_network_requests', {pageId: id});
    const styleId = reqidOf(before.text, '/net/style.css');

    const nav = await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/other.html'),
    });
    expect(nav.isError, nav.text).toBe(false);
    const current = await call(fx.client, 'list_network_requests', {pageId: id});
    expect(current.text).toMatch(/^reqid=\d+ GET \S*\/other\.html \[200\]$/m);
    expect(current.text).not.toContain('/net/style.css');

    const preserved = await call(fx.client, 'list_network_requests', {
      pageId: id,
      includePreservedRequests: true,
    });
    expect(reqidOf(preserved.text, '/net/style.css')).toBe(styleId);
    const otherLine = preserved.text.indexOf('/other.html');
    expect(otherLine).toBeGreaterThan(preserved.text.indexOf('/net/style.css'));

    // Old requests stay reachable by their id.
    const detail = await call(fx.client, 'get_network_request', {pageId: id, reqid: styleId});
    expect(detail.text).toContain(`## Request ${fx.server.origin}/net/style.css`);
  });
});

describe('get_network_request', () => {
  it('shows headers, a JSON request body and a JSON response body', async () => {
    const id = await openNetworkPage();
    const listing = await call(fx.client, 'list_network_requests', {pageId: id});
    const reqid = reqidOf(listing.text, '/net/data.json');
    const {text, isError} = await call(fx.client, 'get_network_request', {pageId: id, reqid});
    expect(isError).toBe(false);
    expect(text).toContain(
      `## Request ${fx.server.origin}/net/data.json\nStatus: 200\n### Request Headers`,
    );
    expect(text).toMatch(/^- content-type:application\/json$/im);
    expect(text).toMatch(/^- x-api-key:secret-key-123$/im);
    expect(text).toContain('### Request Body\n```\n{"query":"books","page":2}\n```');
    expect(text).toMatch(/### Response Headers\n(- .*\n)*- set-cookie:session=abc123; Path=\//i);
    expect(text).toContain(
      '### Response Body\n```\n{"ok":true,"books":["Dune","Emma"],"echo":"{\\"query\\":\\"books\\",\\"page\\":2}"}\n```',
    );
    expect(text).not.toContain('### Request failed with');
  });

  it('truncates large bodies at 10,000 characters and marks binary and empty ones', async () => {
    const id = await openNetworkPage();
    const listing = await call(fx.client, 'list_network_requests', {pageId: id});

    const large = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/large'),
    });
    const body = large.text.split('### Response Body\n')[1] ?? '';
    expect(body.startsWith('```\n' + LARGE.slice(0, 10_000) + '\n```\n... <truncated')).toBe(true);
    expect(body).toContain('25000 characters in total');
    expect(body).not.toContain(LARGE.slice(0, 10_001));

    const binary = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/binary'),
    });
    expect(binary.text).toContain(`### Response Body\n<binary data, ${BINARY.length} bytes>`);

    const image = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/image.png'),
    });
    expect(image.text).toContain(`<binary data, ${PIXEL.length} bytes>`);

    const empty = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/empty'),
    });
    expect(empty.text).toContain('### Response Body\n<empty response>');
  });

  it('shows the redirect chain and the failure reason', async () => {
    const id = await openNetworkPage();
    const listing = await call(fx.client, 'list_network_requests', {pageId: id});
    const redirectId = reqidOf(listing.text, '/net/redirect');
    const hopId = reqidOf(listing.text, '/net/hop');
    const finalId = reqidOf(listing.text, '/net/final');

    const final = await call(fx.client, 'get_network_request', {pageId: id, reqid: finalId});
    expect(final.text).toContain('Status: 200');
    expect(final.text).toContain('### Response Body\n```\narrived\n```');
    expect(final.text).toContain(
      `### Redirect chain\nreqid=${redirectId} GET ${fx.server.origin}/net/redirect [302]\n  reqid=${hopId} GET ${fx.server.origin}/net/hop [301]`,
    );
    const hop = await call(fx.client, 'get_network_request', {pageId: id, reqid: redirectId});
    expect(hop.text).toContain('Status: 302');
    expect(hop.text).toMatch(/^- location:\/net\/hop$/im);
    expect(hop.text).toContain('<no body: redirect response>');

    const failed = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/unreachable'),
    });
    expect(failed.isError).toBe(false);
    expect(failed.text).toContain('Status: net::ERR_CONNECTION_REFUSED');
    expect(failed.text).toContain('### Request failed with\nnet::ERR_CONNECTION_REFUSED');
    expect(failed.text).not.toContain('### Response Body');
  });

  it('saves bodies to files (whole, mode 0600) instead of inline', async () => {
    const id = await openNetworkPage();
    const listing = await call(fx.client, 'list_network_requests', {pageId: id});
    const responseFile = path.join(fx.tmp, 'large.network-response');
    const large = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/large'),
      responseFilePath: responseFile,
    });
    expect(large.isError, large.text).toBe(false);
    const savedTo = fs.realpathSync(responseFile);
    expect(large.text).toContain(`### Response Body\nSaved to ${savedTo}.`);
    expect(fs.readFileSync(responseFile, 'utf8')).toBe(LARGE);
    expect(fs.statSync(responseFile).mode & 0o777).toBe(0o600);

    const binaryFile = path.join(fx.tmp, 'nested', 'binary.network-response');
    const requestFile = path.join(fx.tmp, 'post.network-request');
    await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/binary'),
      responseFilePath: binaryFile,
    });
    expect(fs.readFileSync(binaryFile).equals(BINARY)).toBe(true);

    const post = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/data.json'),
      requestFilePath: requestFile,
    });
    expect(post.text).toContain(`### Request Body\nSaved to ${fs.realpathSync(requestFile)}.`);
    expect(fs.readFileSync(requestFile, 'utf8')).toBe('{"query":"books","page":2}');
    expect(fs.statSync(requestFile).mode & 0o777).toBe(0o600);
  });

  it('refuses paths outside the allowed roots', async () => {
    const id = await openNetworkPage();
    const listing = await call(fx.client, 'list_network_requests', {pageId: id});
    const denied = await call(fx.client, 'get_network_request', {
      pageId: id,
      reqid: reqidOf(listing.text, '/net/large'),
      responseFilePath: '/proc/forbidden.network-response',
    });
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('Access denied');
  });

  it('explains unknown ids and a missing reqid', async () => {
    const id = await openNetworkPage();
    const unknown = await call(fx.client, 'get_network_request', {pageId: id, reqid: 99_999});
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain(
      `Error: No request with reqid 99999 on page ${id}. Requests are kept for the current and last 3 navigations; call list_network_requests to see the reqids.`,
    );
    const missing = await call(fx.client, 'get_network_request', {pageId: id});
    expect(missing.isError).toBe(false);
    expect(missing.text).toContain('Pass a reqid from list_network_requests.');
  });

  it('reports a body that is still loading instead of waiting for it', async () => {
    let finish: (() => void) | undefined;
    fx.server.route('/net/slow', (_request, response) => {
      response.writeHead(200, {'Content-Type': 'text/plain'});
      response.write('first part;');
      finish = () => response.end('last part');
    });
    const id = await fx.openPage('/other.html?slow');
    await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { window.slow = fetch("/net/slow").then(r => r.text()); return true; }',
    });
    const listing = await waitFor(async () => {
      const {text} = await call(fx.client, 'list_network_requests', {pageId: id});
      return text.includes('/net/slow [200]') ? text : undefined;
    });
    const reqid = reqidOf(listing, '/net/slow');
    const pending = await call(fx.client, 'get_network_request', {pageId: id, reqid});
    expect(pending.text).toContain('Status: 200');
    expect(pending.text).toContain('<pending: the body is still loading.');
    finish?.();
    await call(fx.client, 'evaluate_script', {pageId: id, function: '() => window.slow'});
    const done = await waitFor(async () => {
      const {text} = await call(fx.client, 'get_network_request', {pageId: id, reqid});
      return text.includes('first part;last part') ? text : undefined;
    });
    expect(done).toContain('### Response Body\n```\nfirst part;last part\n```');
  });
});

describe('--redactNetworkHeaders', () => {
  it('hides sensitive header values and keeps harmless ones', async () => {
    const redacting = await startEngine(['--redactNetworkHeaders']);
    try {
      const redactClient = await redacting.connect();
      const id = await openNetworkPage(redactClient);
      const listing = await call(redactClient, 'list_network_requests', {pageId: id});
      const {text} = await call(redactClient, 'get_network_request', {
        pageId: id,
        reqid: reqidOf(listing.text, '/net/data.json'),
      });
      expect(text).toMatch(/^- x-api-key:<redacted>$/im);
      expect(text).toMatch(/^- set-cookie:<redacted>$/im);
      expect(text).toMatch(/^- x-echo-length:<redacted>$/im);
      expect(text).toMatch(/^- content-type:application\/json$/im);
      expect(text).not.toContain('secret-key-123');
      expect(text).not.toContain('abc123;');
      // Bodies are not headers: still shown.
      expect(text).toContain('"books":["Dune","Emma"]');
    } finally {
      await redacting.stop();
    }
  });
});
