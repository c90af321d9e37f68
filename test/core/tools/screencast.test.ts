import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-screencast-'});

/** An ISO base-media file starts with a box whose type is 'ftyp'. */
function isMp4(file: string): boolean {
  const head = fs.readFileSync(file).subarray(0, 12);
  return head.subarray(4, 8).toString('latin1') === 'ftyp';
}

describe('screencast', () => {
  it('screencast_stop without a screencast is an error', async () => {
    const pageId = await fx.openPage('/index.html?no-screencast');
    const {text, isError} = await call(fx.client, 'screencast_stop', {pageId});
    expect(isError).toBe(true);
    expect(text).toContain('Error: no active screencast recording to stop.');
  });

  it('records navigation and actions into an mp4; a second start is refused', async () => {
    const pageId = await fx.openPage('/perf-animated.html');
    const target = path.join(fx.tmp, 'run.webm');
    const started = await call(fx.client, 'screencast_start', {pageId, filePath: target});
    expect(started.isError, started.text).toBe(false);
    const saved = path.join(fs.realpathSync(fx.tmp), 'run.mp4');
    expect(started.text).toContain(
      `Screencast recording started. The recording will be saved to ${saved}. Use screencast_stop to stop recording.`,
    );

    const again = await call(fx.client, 'screencast_start', {pageId});
    expect(again.isError).toBe(true);
    expect(again.text).toContain(
      'a screencast recording is already in progress. Use screencast_stop to stop it before starting a new one.',
    );

    // Something to record: a navigation and an interaction.
    const navigated = await call(fx.client, 'navigate_page', {
      pageId,
      url: fx.server.url('/index.html?recorded'),
    });
    expect(navigated.isError, navigated.text).toBe(false);
    const filled = await call(fx.client, 'evaluate_script', {
      pageId,
      function:
        "() => { document.getElementById('go').click(); return document.getElementById('out').textContent; }",
    });
    expect(filled.text).toContain('clicked 1');
    const back = await call(fx.client, 'navigate_page', {pageId, type: 'back'});
    expect(back.isError, back.text).toBe(false);

    const stopped = await call(fx.client, 'screencast_stop', {pageId});
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.text).toContain(
      `The screencast recording has been stopped and saved to ${saved}.`,
    );
    expect(fs.statSync(saved).size).toBeGreaterThan(1000);
    expect(isMp4(saved)).toBe(true);
    expect(fs.statSync(saved).mode & 0o777).toBe(0o600);

    // The page is free to record again.
    const stopAgain = await call(fx.client, 'screencast_stop', {pageId});
    expect(stopAgain.isError).toBe(true);
  });

  it('defaults to screencast.mp4 in a fresh folder of the server temporary folder', async () => {
    const pageId = await fx.openPage('/perf-animated.html?default-path');
    const started = await call(fx.client, 'screencast_start', {pageId});
    expect(started.isError, started.text).toBe(false);
    const file =
      /will be saved to (\S+screencast\.mp4) \(a temporary file, removed when the server stops\)\./.exec(
        started.text,
      )?.[1] ?? '';
    expect(path.dirname(path.dirname(path.dirname(file)))).toBe(fs.realpathSync(os.tmpdir()));
    expect(path.basename(path.dirname(path.dirname(file)))).toMatch(/^mcp-browser-inspector-\d+-/);
    // Frames keep coming from the animation; wait until the page has painted a few.
    const painted = await call(fx.client, 'wait_for', {pageId, text: ['Painted 30 frames']});
    expect(painted.isError, painted.text).toBe(false);
    const stopped = await call(fx.client, 'screencast_stop', {pageId});
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.text).toContain(
      `saved to ${file} (a temporary file, removed when the server stops).`,
    );
    expect(isMp4(file)).toBe(true);
    fs.rmSync(path.dirname(file), {recursive: true, force: true});
  });
});
