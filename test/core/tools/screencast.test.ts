import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {FixtureServer} from '../../helpers/fixtureServer.js';
import {call, pageIdFrom, startEngine, type TestEngine} from '../../helpers/engine.js';

let server: FixtureServer;
let engine: TestEngine;
let client: Client;
let tmp: string;

beforeAll(async () => {
  server = await new FixtureServer().start();
  engine = await startEngine();
  client = await engine.connect();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-screencast-'));
});

afterAll(async () => {
  await engine.stop();
  await server.stop();
  fs.rmSync(tmp, {recursive: true, force: true});
});

async function openPage(pathname: string): Promise<number> {
  const {text, isError} = await call(client, 'new_page', {url: server.url(pathname)});
  expect(isError, text).toBe(false);
  return pageIdFrom(text, pathname);
}

/** An ISO base-media file starts with a box whose type is 'ftyp'. */
function isMp4(file: string): boolean {
  const head = fs.readFileSync(file).subarray(0, 12);
  return head.subarray(4, 8).toString('latin1') === 'ftyp';
}

describe('screencast', () => {
  it('screencast_stop without a recording is an error', async () => {
    const pageId = await openPage('/index.html?no-screencast');
    const {text, isError} = await call(client, 'screencast_stop', {pageId});
    expect(isError).toBe(true);
    expect(text).toContain('Error: no active screencast recording to stop.');
  });

  it('records navigation and actions into an mp4; a second start is refused', async () => {
    const pageId = await openPage('/perf-animated.html');
    const target = path.join(tmp, 'run.webm');
    const started = await call(client, 'screencast_start', {pageId, filePath: target});
    expect(started.isError, started.text).toBe(false);
    const saved = path.join(fs.realpathSync(tmp), 'run.mp4');
    expect(started.text).toContain(
      `Screencast recording started. The recording will be saved to ${saved}. Use screencast_stop to stop recording.`,
    );

    const again = await call(client, 'screencast_start', {pageId});
    expect(again.isError).toBe(true);
    expect(again.text).toContain(
      'a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one.',
    );

    // Something to record: a navigation and an interaction.
    const navigated = await call(client, 'navigate_page', {
      pageId,
      url: server.url('/index.html?recorded'),
    });
    expect(navigated.isError, navigated.text).toBe(false);
    const filled = await call(client, 'evaluate_script', {
      pageId,
      function:
        "() => { document.getElementById('go').click(); return document.getElementById('out').textContent; }",
    });
    expect(filled.text).toContain('clicked 1');
    const back = await call(client, 'navigate_page', {pageId, type: 'back'});
    expect(back.isError, back.text).toBe(false);

    const stopped = await call(client, 'screencast_stop', {pageId});
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.text).toContain(
      `The screencast recording has been stopped and saved to ${saved}.`,
    );
    expect(fs.statSync(saved).size).toBeGreaterThan(1000);
    expect(isMp4(saved)).toBe(true);
    expect(fs.statSync(saved).mode & 0o777).toBe(0o600);

    // The page is free to record again.
    const stopAgain = await call(client, 'screencast_stop', {pageId});
    expect(stopAgain.isError).toBe(true);
  });

  it('defaults to screencast.mp4 in a fresh temporary folder', async () => {
    const pageId = await openPage('/perf-animated.html?default-path');
    const started = await call(client, 'screencast_start', {pageId});
    expect(started.isError, started.text).toBe(false);
    const file = /will be saved to (\S+screencast\.mp4)\./.exec(started.text)?.[1] ?? '';
    expect(path.dirname(path.dirname(file))).toBe(fs.realpathSync(os.tmpdir()));
    // Frames keep coming from the animation; wait until the page has painted a few.
    const painted = await call(client, 'wait_for', {pageId, text: ['Painted 30 frames']});
    expect(painted.isError, painted.text).toBe(false);
    const stopped = await call(client, 'screencast_stop', {pageId});
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.text).toContain(`saved to ${file}.`);
    expect(isMp4(file)).toBe(true);
    fs.rmSync(path.dirname(file), {recursive: true, force: true});
  });
});
