/**
 * What the in-process benchmarks share: an engine started as `serve --headless --isolated` would
 * start it (port 0, its own config dir), and the inspector page opened with a probe of UI frame
 * lengths installed.
 */
import {parseFlags} from '../src/core/config/flags.js';
import {Engine} from '../src/core/Engine.js';
import {findRendererDir} from '../src/core/http/static.js';
import puppeteer, {type Browser, type Page} from 'puppeteer-core';
import {CHROMIUM, ROOT} from './lib.js';

export async function startInProcessEngine(
  configDir: string,
  rendererDir: string | undefined = findRendererDir(ROOT),
): Promise<{engine: Engine; http: Awaited<ReturnType<Engine['startHttp']>>}> {
  const parsed = parseFlags(['--headless', '--isolated', '--port', '0'], {
    env: {},
    hasDisplay: false,
  });
  if (parsed.kind !== 'config') {
    throw new Error('bad flags');
  }
  const engine = new Engine(parsed.config, {
    version: 'bench',
    log: () => undefined,
    rendererDir,
    configDir,
  });
  const http = await engine.startHttp(false);
  return {engine, http};
}

/**
 * Installed before the app loads: records long animation frames and rAF gaps. A plain string, so
 * the bundler's helpers (tsx adds __name wrappers) do not leak into the page.
 */
export const FRAME_PROBE = `(() => {
  const probe = {maxLoaf: 0, maxGap: 0, loafCount: 0, recording: false, last: 0, worst: null};
  window.__frameProbe = probe;
  try {
    new PerformanceObserver(list => {
      if (!probe.recording) return;
      for (const entry of list.getEntries()) {
        probe.loafCount++;
        if (entry.duration > probe.maxLoaf) {
          probe.maxLoaf = entry.duration;
          // Where the time went: scripts, then style/layout/paint after renderStart.
          probe.worst = {
            duration: Math.round(entry.duration),
            scriptMs: Math.round((entry.scripts || []).reduce((sum, script) => sum + script.duration, 0)),
            renderMs: entry.renderStart ? Math.round(entry.startTime + entry.duration - entry.renderStart) : 0,
            styleAndLayoutMs: entry.styleAndLayoutStart
              ? Math.round(entry.startTime + entry.duration - entry.styleAndLayoutStart)
              : 0,
            scripts: (entry.scripts || []).map(script => script.invoker + ' ' + Math.round(script.duration)).slice(0, 5),
          };
        }
      }
    }).observe({type: 'long-animation-frame', buffered: false});
  } catch {}
  const tick = now => {
    if (probe.recording && probe.last > 0) probe.maxGap = Math.max(probe.maxGap, now - probe.last);
    probe.last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** A headless Chromium for looking at the inspector UI. */
export function launchUiBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** Opens the inspector with the frame probe installed and waits until it is connected. */
export async function openProbedInspector(
  browser: Browser,
  inspectorUrl: string,
  token: string,
): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({width: 1280, height: 800});
  await page.evaluateOnNewDocument(FRAME_PROBE);
  await page.goto(`${inspectorUrl}#token=${token}`);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
  );
  return page;
}
