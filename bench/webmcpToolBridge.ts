/**
 * The webmcp_<name> tools (--webmcpTools), measured inside bench/webmcp.ts on its engine:
 *
 * 1. What a `webmcp_add` call adds over a direct CDP round trip (WebMCP.invokeTool, then the
 *    toolResponded event), over HTTP with keep-alive (RawHttpClient: what an agent pays, minus an
 *    SDK client's own parsing) and through the SDK client. Interleaved with the CDP runs.
 *    Target: median overhead ≤ 2 ms.
 * 2. How long after the page registers a tool the client gets notifications/tools/list_changed
 *    (measured from just before the page is asked to register). Target: ≤ 100 ms.
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {ToolListChangedNotificationSchema} from '@modelcontextprotocol/sdk/types.js';
import type {PageState} from '../src/core/browser/pages/PageState.js';
import {RawHttpClient} from './lib.js';

export interface WebMcpToolsBenchInput {
  page: PageState;
  client: Client;
  mcpUrl: string;
  token: string;
  /** One direct CDP round trip of the same tool, in ms. */
  direct: () => Promise<number>;
  iterations: number;
  warmup: number;
  median: (values: readonly number[]) => number;
  p90: (values: readonly number[]) => number;
}

const LIST_CHANGED_RUNS = 20;

async function evaluate(page: PageState, expression: string): Promise<void> {
  const {exceptionDetails} = await page.cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
  });
  if (exceptionDetails) {
    throw new Error(exceptionDetails.text);
  }
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`);
    }
    await new Promise(resolve => setTimeout(resolve, 1));
  }
}

export async function measureWebMcpTools(
  input: WebMcpToolsBenchInput,
): Promise<Record<string, unknown>> {
  const {page, client, direct, median, p90} = input;
  const {tools} = await client.listTools();
  if (!tools.some(tool => tool.name === 'webmcp_add')) {
    throw new Error(`webmcp_add is not offered: ${tools.map(tool => tool.name).join(', ')}`);
  }
  const raw = await RawHttpClient.connect(input.mcpUrl, input.token);
  const viaRawHttp = async (): Promise<number> => {
    const started = performance.now();
    const body = await raw.callTool('webmcp_add', {a: 1, b: 2});
    const elapsed = performance.now() - started;
    if (!body.includes('"text":"3"')) {
      throw new Error(`unexpected result: ${body}`);
    }
    return elapsed;
  };
  const viaSdk = async (): Promise<number> => {
    const started = performance.now();
    const result = await client.callTool({name: 'webmcp_add', arguments: {a: 1, b: 2}});
    const elapsed = performance.now() - started;
    if (!JSON.stringify(result.content).includes('"text":"3"')) {
      throw new Error(`unexpected result: ${JSON.stringify(result)}`);
    }
    return elapsed;
  };
  for (let i = 0; i < input.warmup; i++) {
    await direct();
    await viaRawHttp();
    await viaSdk();
  }
  const cdpTimes: number[] = [];
  const rawTimes: number[] = [];
  const sdkTimes: number[] = [];
  for (let i = 0; i < input.iterations; i++) {
    cdpTimes.push(await direct());
    rawTimes.push(await viaRawHttp());
    sdkTimes.push(await viaSdk());
  }
  raw.close();

  // list_changed after a registration, and after the removal (not timed).
  let notified: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notified.push(performance.now());
  });
  const latencies: number[] = [];
  for (let run = 0; run < LIST_CHANGED_RUNS; run++) {
    notified = [];
    const started = performance.now();
    await evaluate(page, `window.addTool('bench_tool_${run}')`);
    await waitUntil(() => notified.length > 0, 'list_changed after registration');
    latencies.push((notified[0] ?? started) - started);
    notified = [];
    await evaluate(page, `window.unregisterTool('bench_tool_${run}')`);
    await waitUntil(() => notified.length > 0, 'list_changed after removal');
  }
  const cdp = median(cdpTimes);
  return {
    callCdpRoundTripMedianMs: cdp,
    callRawHttpMedianMs: median(rawTimes),
    callSdkHttpMedianMs: median(sdkTimes),
    overheadRawHttpMs: Math.round((median(rawTimes) - cdp) * 1000) / 1000,
    overheadSdkHttpMs: Math.round((median(sdkTimes) - cdp) * 1000) / 1000,
    p90: {cdp: p90(cdpTimes), rawHttp: p90(rawTimes), sdkHttp: p90(sdkTimes)},
    callTargetMs: 2,
    listChangedMedianMs: median(latencies),
    listChangedMaxMs: Math.round(Math.max(...latencies) * 1000) / 1000,
    listChangedTargetMs: 100,
  };
}
