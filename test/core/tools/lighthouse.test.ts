import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {call, pageIdFrom, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-lighthouse-'});

/** Lighthouse loads the page and runs axe and ~100 audits: tens of seconds on a busy machine. */
const AUDIT_TIMEOUT_MS = 180_000;

async function evaluate(pageId: number, fn: string): Promise<unknown> {
  const {text, isError} = await call(fx.client, 'evaluate_script', {pageId, function: fn});
  expect(isError, text).toBe(false);
  const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
  if (json === undefined) {
    throw new Error(`No JSON result in:\n${text}`);
  }
  return JSON.parse(json);
}

describe('lighthouse_audit', () => {
  it(
    'audits a page with known accessibility problems, writes both reports, and restores emulation',
    async () => {
      const pageId = await fx.openPage('/perf-a11y.html');
      const emulated = await call(fx.client, 'emulate', {pageId, viewport: '500x400x2'});
      expect(emulated.isError, emulated.text).toBe(false);

      const outputDir = path.join(fx.tmp, 'reports');
      const {text, isError} = await call(fx.client, 'lighthouse_audit', {
        pageId,
        outputDirPath: outputDir,
      });
      expect(isError, text).toBe(false);
      expect(text).toContain('## Lighthouse audit results');
      expect(text).toContain('Mode: navigation');
      expect(text).toContain('Device: desktop');
      expect(text).toContain(`URL: ${fx.server.url('/perf-a11y.html')}`);

      const score = (id: string): number => {
        const match = new RegExp(`^- .+: (\\d+) \\(${id}\\)$`, 'm').exec(text);
        expect(match, `${id} score in:\n${text}`).not.toBeNull();
        return Number(match?.[1]);
      };
      expect(score('accessibility')).toBeLessThan(90);
      expect(score('seo')).toBeGreaterThanOrEqual(0);
      expect(score('best-practices')).toBeGreaterThanOrEqual(0);

      const failed = Number(/^Failed: (\d+)$/m.exec(text)?.[1]);
      const passed = Number(/^Passed: (\d+)$/m.exec(text)?.[1]);
      expect(failed).toBeGreaterThanOrEqual(3);
      expect(passed).toBeGreaterThan(0);
      // The fixture's known failures, with the nodes they flag.
      expect(text).toMatch(/^- image-alt \[accessibility(, seo)?\]: .+\(score: 0\)$/m);
      expect(text).toMatch(/^- button-name \[accessibility\]: /m);
      expect(text).toMatch(/^- html-has-lang \[accessibility\]: /m);
      expect(text).toMatch(/ {2}- selector="body > img"/);

      const realDir = fs.realpathSync(outputDir);
      const jsonReport = path.join(realDir, 'report.json');
      const htmlReport = path.join(realDir, 'report.html');
      expect(text).toContain(`### Reports\n- ${jsonReport}\n- ${htmlReport}`);
      const lhr: unknown = JSON.parse(fs.readFileSync(jsonReport, 'utf8'));
      expect(lhr).toMatchObject({
        finalDisplayedUrl: fx.server.url('/perf-a11y.html'),
        categories: {accessibility: {id: 'accessibility'}},
      });
      const html = fs.readFileSync(htmlReport, 'utf8');
      // Checked as booleans: a failure must not print a 300 kB report.
      expect(html.includes('<title>Lighthouse Report</title>')).toBe(true);
      expect(html.includes('"requestedUrl":')).toBe(true);

      // Lighthouse's own 1350x940 emulation is gone; the page's emulated viewport is back.
      expect(await evaluate(pageId, '() => [innerWidth, innerHeight, devicePixelRatio]')).toEqual([
        500, 400, 2,
      ]);
    },
    AUDIT_TIMEOUT_MS,
  );

  it('refuses navigation mode on about:blank and says what to do', async () => {
    const opened = await call(fx.client, 'new_page', {url: 'about:blank'});
    expect(opened.isError, opened.text).toBe(false);
    const pageId = pageIdFrom(opened.text, 'about:blank');
    const {text, isError} = await call(fx.client, 'lighthouse_audit', {pageId});
    expect(isError).toBe(true);
    expect(text).toContain('Lighthouse cannot load about:blank in navigation mode');
    expect(text).toContain('navigate_page');
  });
});
