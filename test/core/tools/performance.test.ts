import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {beforeAll, describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-perf-'});

/** A recorded trace takes a load, 5 s of recording and the analysis. */
const TRACE_TIMEOUT_MS = 90_000;

function traceEventsIn(data: Buffer): unknown[] {
  const json: unknown = JSON.parse(data.toString('utf8'));
  const events =
    json !== null && typeof json === 'object' && 'traceEvents' in json ? json.traceEvents : json;
  expect(Array.isArray(events)).toBe(true);
  return Array.isArray(events) ? events : [];
}

describe('performance tools without a trace', () => {
  it('performance_stop_trace without a running trace is an error that says how to start one', async () => {
    const pageId = await fx.openPage('/index.html?no-trace');
    const {text, isError} = await call(fx.client, 'performance_stop_trace', {pageId});
    expect(isError).toBe(true);
    expect(text).toContain('Error: no active performance trace recording to stop.');
    expect(text).toContain('performance_start_trace');
  });

  it('performance_analyze_insight before any trace asks for a recording', async () => {
    const pageId = await fx.openPage('/index.html?no-insight');
    const {text, isError} = await call(fx.client, 'performance_analyze_insight', {
      pageId,
      insightSetId: 'NAVIGATION_0',
      insightName: 'LCPBreakdown',
    });
    expect(isError).toBe(true);
    expect(text).toContain('No recorded traces found.');
  });
});

describe('a trace of a page load (reload + autoStop)', () => {
  let pageId: number;
  let summary: string;
  let insightSetId: string;
  const gzPath = (): string => path.join(fx.tmp, 'load-trace.json.gz');

  beforeAll(async () => {
    pageId = await fx.openPage('/perf-lcp-cls.html');
    const result = await call(fx.client, 'performance_start_trace', {
      pageId,
      filePath: gzPath(),
    });
    expect(result.isError, result.text).toBe(false);
    summary = result.text;
    insightSetId = /## insight set id: (\S+)/.exec(summary)?.[1] ?? '';
  }, TRACE_TIMEOUT_MS);

  it('summarises URL, bounds, throttling, insight sets and lab metrics', () => {
    expect(summary).toContain('The performance trace has been stopped.');
    expect(summary).toContain('## Summary of Performance trace findings:');
    expect(summary).toContain(`URL: ${fx.server.url('/perf-lcp-cls.html')}`);
    expect(summary).toMatch(/Trace bounds: \{min: \d+µs, max: \d+µs\}/);
    expect(summary).toContain('CPU throttling: none');
    expect(summary).toContain('Network throttling: none');
    expect(summary).toContain('# Available insight sets');
    expect(insightSetId).toMatch(/^NAVIGATION_\d+$/);
    // The LCP element is the fixture's heading.
    expect(summary).toMatch(/ {2}- LCP: \d+(\.\d)? ms, element: H1 id='hero'/);
    expect(summary).toContain('  - LCP breakdown:');
    expect(summary).toMatch(/ {4}- TTFB: [\d.]+ ms, bounds: \{min: \d+µs/);
    // The late 240px banner shifts the page well past the 0.1 "good" threshold.
    const cls = Number(/ {2}- CLS: ([\d.]+)/.exec(summary)?.[1]);
    expect(cls).toBeGreaterThan(0.1);
  });

  it('lists the insights worth a look, with example questions', () => {
    expect(summary).toContain('Available insights:');
    expect(summary).toContain('insight name: CLSCulprits');
    expect(summary).toContain('insight name: LCPBreakdown');
    expect(summary).toMatch(
      /insight name: CLSCulprits\n\s+description: .+\n\s+relevant trace bounds:/,
    );
    expect(summary).toContain('example question: Help me optimize my CLS score');
  });

  it('saves the raw trace gzipped, and it parses', () => {
    expect(summary).toContain(`The raw trace data was saved to ${fs.realpathSync(fx.tmp)}`);
    const data = zlib.gunzipSync(fs.readFileSync(gzPath()));
    const events = traceEventsIn(data);
    expect(events.length).toBeGreaterThan(100);
    expect(
      events.some(
        event =>
          event !== null &&
          typeof event === 'object' &&
          'name' in event &&
          event.name === 'LayoutShift',
      ),
    ).toBe(true);
    expect(fs.statSync(gzPath()).mode & 0o777).toBe(0o600);
  });

  it('performance_analyze_insight explains the LCP breakdown and the layout shift', async () => {
    const lcp = await call(fx.client, 'performance_analyze_insight', {
      pageId,
      insightSetId,
      insightName: 'LCPBreakdown',
    });
    expect(lcp.isError, lcp.text).toBe(false);
    expect(lcp.text).toContain('## Insight Title: LCP breakdown');
    expect(lcp.text).toContain("LCP element: H1 id='hero'");
    expect(lcp.text).toMatch(/- Time to first byte: [\d.]+ ms \(\d+%\)/);
    expect(lcp.text).toMatch(/- Element render delay: [\d.]+ ms/);

    const cls = await call(fx.client, 'performance_analyze_insight', {
      pageId,
      insightSetId,
      insightName: 'CLSCulprits',
    });
    expect(cls.isError, cls.text).toBe(false);
    expect(cls.text).toContain('## Insight Title: Layout shift culprits');
    expect(cls.text).toMatch(/Worst cluster: score 0\.\d{4}, 1 shift\(s\)/);
    expect(cls.text).toContain('## External resources:');
  });

  it('an unknown insight name fails and lists the available names', async () => {
    const {text, isError} = await call(fx.client, 'performance_analyze_insight', {
      pageId,
      insightSetId,
      insightName: 'NoSuchInsight',
    });
    expect(isError).toBe(true);
    expect(text).toContain('No Insight with the name "NoSuchInsight" found');
    const available = /Available insights: (.+)\./.exec(text)?.[1]?.split(', ') ?? [];
    expect(available).toEqual(expect.arrayContaining(['LCPBreakdown', 'CLSCulprits']));
  });

  it('an unknown insight set id fails and lists the ids', async () => {
    const {text, isError} = await call(fx.client, 'performance_analyze_insight', {
      pageId,
      insightSetId: 'NAVIGATION_99',
      insightName: 'LCPBreakdown',
    });
    expect(isError).toBe(true);
    expect(text).toContain('No Performance Insights for the given insight set id "NAVIGATION_99"');
    expect(text).toContain(insightSetId);
  });
});

describe('a manually stopped trace', () => {
  it(
    'records until performance_stop_trace, refuses a second start, and saves .json',
    async () => {
      const pageId = await fx.openPage('/perf-lcp-cls.html?manual');
      const emulated = await call(fx.client, 'emulate', {pageId, cpuThrottlingRate: 2});
      expect(emulated.isError, emulated.text).toBe(false);
      const started = await call(fx.client, 'performance_start_trace', {
        pageId,
        reload: false,
        autoStop: false,
      });
      expect(started.isError, started.text).toBe(false);
      expect(started.text).toContain(
        'The performance trace is being recorded. Use performance_stop_trace to stop it.',
      );

      const otherPage = await fx.openPage('/index.html?second-trace');
      const second = await call(fx.client, 'performance_start_trace', {
        pageId: otherPage,
        reload: false,
        autoStop: false,
      });
      expect(second.isError).toBe(true);
      expect(second.text).toContain(`a performance trace is already running on page ${pageId}`);
      expect(second.text).toContain('Only one trace can be running at any given time.');

      // Activity to record: a reload through the ordinary navigation tool.
      const reloaded = await call(fx.client, 'navigate_page', {pageId, type: 'reload'});
      expect(reloaded.isError, reloaded.text).toBe(false);

      const target = path.join(fx.tmp, 'manual-trace.txt');
      const stopped = await call(fx.client, 'performance_stop_trace', {pageId, filePath: target});
      expect(stopped.isError, stopped.text).toBe(false);
      // The extension is corrected to .json, as chrome-devtools-mcp does.
      const saved = path.join(fs.realpathSync(fx.tmp), 'manual-trace.json');
      expect(stopped.text).toContain(`The raw trace data was saved to ${saved}.`);
      expect(traceEventsIn(fs.readFileSync(saved)).length).toBeGreaterThan(100);
      expect(stopped.text).toContain('## insight set id:');
      expect(stopped.text).toContain('perf-lcp-cls.html?manual');
      // The page's emulation is part of the trace's conditions.
      expect(stopped.text).toContain('CPU throttling: 2x');

      // The recording slot is free again.
      const again = await call(fx.client, 'performance_stop_trace', {pageId});
      expect(again.isError).toBe(true);
      expect(again.text).toContain('no active performance trace recording to stop');
    },
    TRACE_TIMEOUT_MS,
  );
});
