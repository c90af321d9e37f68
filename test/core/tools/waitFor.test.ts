import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures();

describe('wait_for', () => {
  it('returns at once for text already on the page, with a snapshot', async () => {
    const id = await fx.openPage('/input-waitfor.html?present');
    const result = await call(fx.client, 'wait_for', {pageId: id, text: ['Waiting page']});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Element matching one of ["Waiting page"] found.');
    expect(result.text).toContain('## Latest page snapshot');
    expect(result.text).toContain('heading "Waiting page"');
  });

  it('waits for any of several texts to appear', async () => {
    const id = await fx.openPage('/input-waitfor.html?main=300');
    const result = await call(fx.client, 'wait_for', {
      pageId: id,
      text: ['Never shown', 'Main ready'],
      timeout: 5_000,
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Element matching one of ["Never shown","Main ready"] found.');
    // The snapshot is taken after the text appeared, so it shows it.
    expect(result.text).toContain('Main ready');
  });

  it('finds text that appears inside an iframe', async () => {
    const id = await fx.openPage('/input-waitfor.html?frame=300');
    const result = await call(fx.client, 'wait_for', {pageId: id, text: ['Frame ready']});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Element matching one of ["Frame ready"] found.');
    expect(result.text).toContain('Frame ready');
  });

  it('matches accessible names given only in attributes', async () => {
    const id = await fx.openPage('/input-waitfor.html?label=200');
    const result = await call(fx.client, 'wait_for', {pageId: id, text: ['Close dialog']});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('button "Close dialog"');
  });

  it('keeps waiting across a navigation', async () => {
    const id = await fx.openPage('/input-waitfor.html?navigate');
    const scheduled = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { setTimeout(() => { location.href = "/other.html"; }, 150); return true; }',
    });
    expect(scheduled.isError, scheduled.text).toBe(false);
    const result = await call(fx.client, 'wait_for', {pageId: id, text: ['Back home']});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('link "Back home"');
  });

  it('times out on text that never shows (hidden text does not count)', async () => {
    const id = await fx.openPage('/input-waitfor.html?timeout');
    const started = Date.now();
    const result = await call(fx.client, 'wait_for', {
      pageId: id,
      text: ['Hidden secret', 'Nowhere'],
      timeout: 400,
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      'Timed out after waiting 400ms for any of ["Hidden secret","Nowhere"] to appear on the page.',
    );
    expect(result.text).not.toContain('## Latest page snapshot');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('rejects an empty list of texts', async () => {
    const id = await fx.openPage('/input-waitfor.html?empty');
    const result = await call(fx.client, 'wait_for', {pageId: id, text: []});
    expect(result.isError).toBe(true);
    expect(result.text).toContain('text');
  });
});
