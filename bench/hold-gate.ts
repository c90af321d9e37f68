/**
 * What the hold gate costs an agent call that is not held: the gate as ToolRunner calls it (one
 * CallHold per call, checked before the locks), with real tool records and a real InspectorHub, with holding off and with rules on
 * that the call does not match (tool, category, URL glob, WebMCP). Budgets: ≤ 0.05 ms median with
 * holding off, ≤ 0.1 ms with rules on and no match.
 *
 *   npx tsx bench/hold-gate.ts
 *
 * Writes bench/results/hold-gate.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {HoldCallInfo} from '../src/core/mcp/hold/CallHold.js';
import {HoldGate} from '../src/core/mcp/hold/HoldGate.js';
import {InspectorHub} from '../src/core/inspector/InspectorHub.js';
import {allTools} from '../src/core/tools/index.js';
import type {Tool} from '../src/core/tools/base/definition.js';
import {median, ROOT} from './lib.js';

const CALLS_PER_SAMPLE = 1_000;
const SAMPLES = 200;

function tool(name: string): Tool {
  const found = allTools().tools.find(candidate => candidate.name === name);
  if (!found) {
    throw new Error(`no tool ${name}`);
  }
  return found;
}

function gateWith(rules: string[]): HoldGate {
  return new HoldGate({
    hub: new InspectorHub(),
    rules,
    timeoutMs: 300_000,
    webmcp: {toolsOf: () => Promise.resolve([])},
    toolNames: () => allTools().tools.map(candidate => candidate.name),
    validate: (target, args) => target.validate(args, {pageIdRouting: true}),
  });
}

/** Median milliseconds per gate() call over SAMPLES samples of CALLS_PER_SAMPLE calls. */
function measure(gate: HoldGate, request: BenchCall): number {
  const perCall: number[] = [];
  for (let sample = 0; sample < SAMPLES; sample++) {
    const start = performance.now();
    for (let index = 0; index < CALLS_PER_SAMPLE; index++) {
      if (gate.forCall(request.info)?.before(request.params, 1) !== undefined) {
        throw new Error('the call was held: the benchmark only measures calls that pass');
      }
    }
    perCall.push((performance.now() - start) / CALLS_PER_SAMPLE);
  }
  return median(perCall);
}

const signal = new AbortController().signal;
const progress = {report: () => undefined};
const client = {id: 'bench', name: 'bench', version: '1', transport: 'http' as const};
const pages = {list: () => [], selected: undefined};
interface BenchCall {
  info: HoldCallInfo;
  params: Record<string, unknown>;
}
const request = (name: string, params: Record<string, unknown>): BenchCall => ({
  info: {callId: 'c', tool: tool(name), client, pages, signal, progress},
  params,
});

const listPages = request('list_pages', {});
const navigate = request('navigate_page', {pageId: 1, type: 'url', url: 'https://other.test/a/b'});
const rulesOn = [
  'tool:click',
  'tool:fill',
  'category:network',
  'category:performance',
  'url:*://*.example.com/*',
  'webmcp-consequential',
];
const rows = [
  {metric: 'holding off, list_pages', ms: measure(gateWith([]), listPages), budgetMs: 0.05},
  {metric: 'holding off, navigate_page', ms: measure(gateWith([]), navigate), budgetMs: 0.05},
  {
    metric: `rules on (${rulesOn.length}), no match, list_pages`,
    ms: measure(gateWith(rulesOn), listPages),
    budgetMs: 0.1,
  },
  {
    metric: `rules on (${rulesOn.length}), no match, navigate_page with a URL`,
    ms: measure(gateWith(rulesOn), navigate),
    budgetMs: 0.1,
  },
];
for (const row of rows) {
  const verdict = row.ms <= row.budgetMs ? 'ok' : 'OVER BUDGET';
  console.log(
    `${row.metric.padEnd(58)} ${(row.ms * 1000).toFixed(3).padStart(8)} µs  (budget ${row.budgetMs * 1000} µs) ${verdict}`,
  );
}
const out = path.join(ROOT, 'bench/results/hold-gate.json');
fs.writeFileSync(
  out,
  `${JSON.stringify({measuredAt: new Date().toISOString(), callsPerSample: CALLS_PER_SAMPLE, samples: SAMPLES, rows}, null, 2)}\n`,
);
console.log(`Wrote ${path.relative(ROOT, out)}`);
