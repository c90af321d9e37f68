/**
 * Text for a parsed trace: the summary performance_stop_trace returns (URL, bounds, throttling,
 * insight sets with lab metrics and the insights worth a look) and the detail of one insight for
 * performance_analyze_insight. Same shape as chrome-devtools-mcp's, so prompts written for it fit.
 * Text from the page (URLs, node names, selectors) is printed as plain text.
 */
import type * as TraceEngine from '@paulirish/trace_engine';
import type {AnalysedTrace, InsightSet} from './engine.js';

type Models = TraceEngine.Insights.Types.InsightModels;
type AnyInsight = NonNullable<Models[keyof Models]>;
type NetworkRequest = TraceEngine.Types.Events.SyntheticNetworkRequest;
type TraceWindow = TraceEngine.Types.Timing.TraceWindowMicro;
type CriticalRequestNode = TraceEngine.Insights.Models.NetworkDependencyTree.CriticalRequestNode;

interface UiString {
  i18nId: string;
  values?: Readonly<Record<string, unknown>> | undefined;
}

function isUiString(value: unknown): value is UiString {
  return (
    value !== null &&
    typeof value === 'object' &&
    'i18nId' in value &&
    typeof value.i18nId === 'string'
  );
}

function placeholderText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') {
    return String(value);
  }
  if (isUiString(value)) {
    return uiText(value);
  }
  return value === undefined ? '' : JSON.stringify(value);
}

/** The engine leaves strings untranslated (`{i18nId, values}`); fill in the placeholders. */
export function uiText(value: UiString): string {
  const values = value.values ?? {};
  return value.i18nId.replace(/\{(\w+)\}/g, (match, key: string) =>
    key in values ? placeholderText(values[key]) : match,
  );
}

function ms(micro: number): string {
  const milli = micro / 1000;
  return milli < 10 ? `${milli.toFixed(1)} ms` : `${Math.round(milli)} ms`;
}

function milli(value: number): string {
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

function bytes(value: number): string {
  if (value < 1_000) {
    return `${Math.round(value)} B`;
  }
  if (value < 1_000_000) {
    return `${(value / 1_000).toFixed(1)} kB`;
  }
  return `${(value / 1_000_000).toFixed(1)} MB`;
}

function bounds(window: {min: number; max: number}): string {
  return `{min: ${Math.round(window.min)}µs, max: ${Math.round(window.max)}µs}`;
}

function requestLine(request: NetworkRequest): string {
  const data = request.args.data;
  const parts = [
    data.statusCode ? String(data.statusCode) : 'no response',
    `${data.priority} priority`,
    ms(request.dur),
    bytes(data.encodedDataLength),
  ];
  if (data.protocol) {
    parts.push(data.protocol);
  }
  return `${data.url} (${parts.join(', ')})`;
}

/** Example questions an agent can put to the user or itself next, per insight. */
const EXAMPLE_QUESTIONS: Readonly<Record<string, readonly string[]>> = {
  LCPBreakdown: ['Help me optimize my LCP score', 'Which LCP subpart took the longest?'],
  LCPDiscovery: [
    'How can the LCP resource be discovered earlier?',
    'Should the LCP image get fetchpriority=high?',
  ],
  CLSCulprits: ['Help me optimize my CLS score', 'What caused the worst layout shift?'],
  INPBreakdown: [
    'Help me optimize my INP score',
    'Which part of the slowest interaction was slow?',
  ],
  RenderBlocking: [
    'Which render-blocking requests should I fix first?',
    'How can I reduce the number of render-blocking requests?',
  ],
  DocumentLatency: [
    'How do I make the main document load faster?',
    'Did anything slow down the request for this document?',
  ],
  NetworkDependencyTree: [
    'How do I shorten the critical request chain?',
    'Which origins should I preconnect to?',
  ],
  ImageDelivery: ['Which images can be made smaller, and how?'],
  FontDisplay: ['How do I keep fonts from blocking text rendering?'],
  Cache: ['Which resources need longer cache lifetimes?'],
  ThirdParties: ['Which third parties cost the most main-thread time?'],
  DOMSize: ['How can I reduce the size of my DOM?'],
  ForcedReflow: ['Which code forces a synchronous reflow?'],
  DuplicatedJavaScript: ['Which JavaScript modules are bundled more than once?'],
  LegacyJavaScript: ['Which scripts ship polyfills modern browsers do not need?'],
  ModernHTTP: ['Which requests are not served over HTTP/2 or newer?'],
  CharacterSet: ['How should this page declare its character encoding?'],
  Viewport: ['Is this page optimized for mobile viewports?'],
  SlowCSSSelector: ['Which CSS selectors are the most expensive?'],
};

/** The engine uses iterator helpers (Node.js 22+); older Node.js fails a few insights with them. */
function failureHint(error: Error): string {
  const major = Number(process.versions.node.split('.')[0]);
  return major < 22 && error instanceof TypeError
    ? ` (the trace engine needs Node.js 22 or newer for this; the server runs on Node.js ${process.versions.node})`
    : '';
}

function modelEntries(set: InsightSet): [string, AnyInsight][] {
  const entries: [string, AnyInsight][] = [];
  for (const [name, model] of Object.entries(set.model)) {
    entries.push([name, model]);
  }
  return entries;
}

function insightBoundsOf(analysed: AnalysedTrace, model: AnyInsight, set: InsightSet): TraceWindow {
  try {
    return analysed.engine.Insights.Common.insightBounds(model, set.bounds);
  } catch {
    // Some overlays need newer JavaScript (iterator helpers) than Node 20 has.
    return set.bounds;
  }
}

function savingsText(model: AnyInsight): string | undefined {
  const savings = model.metricSavings;
  if (!savings) {
    return undefined;
  }
  const parts: string[] = [];
  for (const metric of ['FCP', 'LCP', 'TBT', 'INP'] as const) {
    const value = savings[metric];
    if (value !== undefined && value > 0) {
      parts.push(`${metric} ${milli(value)}`);
    }
  }
  if (savings.CLS !== undefined && savings.CLS > 0) {
    parts.push(`CLS ${savings.CLS.toFixed(2)}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function conditionsLines(analysed: AnalysedTrace): string[] {
  const metadata = analysed.parsed.metadata;
  return [
    `CPU throttling: ${metadata.cpuThrottling ? `${metadata.cpuThrottling}x` : 'none'}`,
    `Network throttling: ${metadata.networkThrottling ?? 'none'}`,
  ];
}

function labMetricLines(analysed: AnalysedTrace, set: InsightSet): string[] {
  const common = analysed.engine.Insights.Common;
  const lines: string[] = [];
  const lcp = common.getLCP(set);
  if (lcp) {
    const data = set.model.LCPBreakdown?.lcpEvent?.args.data;
    const element =
      data?.nodeName !== undefined ? `, element: ${data.nodeName} (nodeId: ${data.nodeId})` : '';
    lines.push(`  - LCP: ${ms(lcp.value)}${element}`);
    const subparts = set.model.LCPBreakdown?.subparts;
    if (subparts) {
      lines.push('  - LCP breakdown:');
      const subpart = (label: string, window: TraceWindow | undefined): void => {
        if (window) {
          lines.push(`    - ${label}: ${ms(window.range)}, bounds: ${bounds(window)}`);
        }
      };
      subpart('TTFB', subparts.ttfb);
      subpart('Load delay', subparts.loadDelay);
      subpart('Load duration', subparts.loadDuration);
      subpart('Render delay', subparts.renderDelay);
    }
  }
  const inp = common.getINP(set);
  if (inp) {
    lines.push(`  - INP: ${ms(inp.value)} (${inp.event.type})`);
  }
  const cls = common.getCLS(set);
  const worst = cls.worstClusterEvent;
  lines.push(
    `  - CLS: ${cls.value.toFixed(2)}${worst ? `, worst cluster bounds: ${bounds({min: worst.ts, max: worst.ts + (worst.dur ?? 0)})}` : ''}`,
  );
  return lines;
}

/** The text performance_stop_trace (or an auto-stopped start) returns. */
export function formatTraceSummary(analysed: AnalysedTrace): string {
  const {parsed} = analysed;
  const meta = parsed.data.Meta;
  const out: string[] = [
    '## Summary of Performance trace findings:',
    `URL: ${meta.mainFrameURL}`,
    `Trace bounds: ${bounds(meta.traceBounds)}`,
    ...conditionsLines(analysed),
    '',
    '# Available insight sets',
    '',
    'Each insight set covers one part of the trace, split by navigations. Pass its id and an insight name to performance_analyze_insight for details. If no navigation is named, use the first set.',
  ];
  const sets = [...(parsed.insights?.values() ?? [])];
  if (sets.length === 0) {
    out.push('', 'No insight sets: the trace holds no navigation or page activity to analyse.');
  }
  for (const set of sets) {
    out.push('', `## insight set id: ${set.id}`, '', `URL: ${set.url.href}`);
    out.push(`Bounds: ${bounds(set.bounds)}`);
    out.push('Metrics (lab / observed):', ...labMetricLines(analysed, set));
    out.push('Metrics (field / real users): n/a – this server does not query CrUX');
    const listed = modelEntries(set).filter(([, model]) => model.state !== 'pass');
    if (listed.length === 0) {
      out.push('Available insights: none flagged (every insight passed).');
    } else {
      out.push('Available insights:');
    }
    for (const [name, model] of listed) {
      const lines = [
        `insight name: ${name}`,
        `description: ${uiText(model.description)}`,
        `relevant trace bounds: ${bounds(insightBoundsOf(analysed, model, set))}`,
      ];
      const savings = savingsText(model);
      if (savings) {
        lines.push(`estimated metric savings: ${savings}`);
      }
      if (model.wastedBytes) {
        lines.push(`estimated wasted bytes: ${bytes(model.wastedBytes)}`);
      }
      for (const question of EXAMPLE_QUESTIONS[name] ?? []) {
        lines.push(`example question: ${question}`);
      }
      out.push(`  - ${lines.join('\n    ')}`);
    }
    const failed = Object.entries(set.modelErrors);
    if (failed.length > 0) {
      const hint = failed.map(([, error]) => failureHint(error)).find(Boolean) ?? '';
      out.push(
        `Insights that could not be computed: ${failed.map(([name]) => name).join(', ')}${hint}`,
      );
    }
  }
  return out.join('\n');
}

// Detail of one insight ------------------------------------------------------------------------

function checklistLines(checklist: Record<string, {label: UiString; value: boolean}>): string[] {
  return Object.values(checklist).map(
    item => `- [${item.value ? 'PASSED' : 'FAILED'}] ${uiText(item.label)}`,
  );
}

function percentOf(part: number, whole: number): string {
  return whole > 0 ? ` (${Math.round((part / whole) * 100)}%)` : '';
}

function lcpBreakdownDetail(set: InsightSet): string[] {
  const model = set.model.LCPBreakdown;
  if (!model?.lcpMs || !model.lcpEvent) {
    return ['No LCP was recorded in this part of the trace.'];
  }
  const data = model.lcpEvent.args.data;
  const lines = [`LCP: ${milli(model.lcpMs)}`];
  if (data?.nodeName !== undefined) {
    lines.push(`LCP element: ${data.nodeName} (nodeId: ${data.nodeId})`);
  }
  if (data?.type !== undefined) {
    lines.push(`LCP type: ${data.type}`);
  }
  if (model.lcpRequest) {
    lines.push(`LCP resource: ${requestLine(model.lcpRequest)}`);
  }
  const subparts = model.subparts;
  if (subparts) {
    const total = model.lcpMs * 1000;
    lines.push('Subparts:');
    for (const window of [
      subparts.ttfb,
      subparts.loadDelay,
      subparts.loadDuration,
      subparts.renderDelay,
    ]) {
      if (window) {
        lines.push(
          `- ${uiText(window.label)}: ${ms(window.range)}${percentOf(window.range, total)}, bounds: ${bounds(window)}`,
        );
      }
    }
  }
  return lines;
}

function lcpDiscoveryDetail(set: InsightSet): string[] {
  const model = set.model.LCPDiscovery;
  if (!model?.lcpEvent) {
    return ['No LCP was recorded in this part of the trace.'];
  }
  if (!model.lcpRequest) {
    return [
      'The LCP element is not an image loaded over the network, so there is nothing to discover earlier.',
    ];
  }
  const lines = [`LCP resource: ${requestLine(model.lcpRequest)}`];
  if (model.earliestDiscoveryTimeTs !== undefined) {
    const delay = model.lcpRequest.ts - model.earliestDiscoveryTimeTs;
    lines.push(`Requested ${ms(Math.max(0, delay))} after it could first have been discovered.`);
  }
  if (model.checklist) {
    lines.push('Checklist:', ...checklistLines(model.checklist));
  }
  return lines;
}

function clsDetail(set: InsightSet): string[] {
  const model = set.model.CLSCulprits;
  if (!model || model.clusters.length === 0) {
    return ['No layout shifts were recorded in this part of the trace.'];
  }
  const lines = [`Layout shift clusters: ${model.clusters.length}`];
  const worst = model.worstCluster;
  if (worst) {
    lines.push(
      `Worst cluster: score ${worst.clusterCumulativeScore.toFixed(4)}, ${worst.events.length} shift(s), bounds: ${bounds({min: worst.ts, max: worst.ts + worst.dur})}`,
    );
    lines.push('Shifts in the worst cluster:');
    for (const shift of worst.events.slice(0, 10)) {
      const data = shift.args.data;
      const since = shift.parsedData.timeFromNavigation;
      const nodes = (data?.impacted_nodes ?? [])
        .map(node => `${node.debug_name ?? 'node'} (backendNodeId ${node.node_id})`)
        .slice(0, 5);
      lines.push(
        `- score ${(data?.weighted_score_delta ?? 0).toFixed(4)}${since === undefined ? '' : ` at ${ms(since)} after navigation`}, ts: ${shift.ts}${nodes.length ? `, moved: ${nodes.join(', ')}` : ''}`,
      );
    }
    const culprits = model.topCulpritsByCluster.get(worst) ?? [];
    lines.push('Root causes (worst cluster):');
    if (culprits.length === 0) {
      lines.push('- none identified (often DOM content inserted above existing content by script)');
    }
    for (const culprit of culprits) {
      lines.push(`- ${uiText(culprit.description)}`);
    }
  }
  if (model.animationFailures.length > 0) {
    lines.push('Non-composited animations:');
    for (const failure of model.animationFailures.slice(0, 10)) {
      lines.push(`- ${failure.name ?? '(unnamed)'}: ${failure.failureReasons.join(', ')}`);
    }
  }
  return lines;
}

function inpDetail(set: InsightSet): string[] {
  const event = set.model.INPBreakdown?.longestInteractionEvent;
  if (!event) {
    return [
      'No interactions were recorded. Start a trace with reload=false and autoStop=false, interact with the page, then call performance_stop_trace.',
    ];
  }
  return [
    `Longest interaction: ${event.type}, ${ms(event.dur)}, ts: ${event.ts}`,
    `- Input delay: ${ms(event.inputDelay)}${percentOf(event.inputDelay, event.dur)}`,
    `- Processing duration: ${ms(event.mainThreadHandling)}${percentOf(event.mainThreadHandling, event.dur)}`,
    `- Presentation delay: ${ms(event.presentationDelay)}${percentOf(event.presentationDelay, event.dur)}`,
  ];
}

function renderBlockingDetail(set: InsightSet): string[] {
  const model = set.model.RenderBlocking;
  if (!model || model.renderBlockingRequests.length === 0) {
    return ['No render-blocking requests.'];
  }
  return [
    'Render-blocking requests:',
    ...model.renderBlockingRequests.map(request => {
      const wasted = model.requestIdToWastedMs?.get(request.args.data.requestId);
      return `- ${requestLine(request)}${wasted ? `, estimated savings ${milli(wasted)}` : ''}`;
    }),
  ];
}

function documentLatencyDetail(set: InsightSet): string[] {
  const data = set.model.DocumentLatency?.data;
  if (!data) {
    return ['The main document request was not found in this part of the trace.'];
  }
  const lines: string[] = [];
  if (data.documentRequest) {
    lines.push(`Document request: ${requestLine(data.documentRequest)}`);
  }
  lines.push(
    `Server response time: ${milli(data.serverResponseTime)}`,
    `Redirect duration: ${milli(data.redirectDuration)}`,
    `Uncompressed response bytes: ${bytes(data.uncompressedResponseBytes)}`,
    'Checklist:',
    ...checklistLines(data.checklist),
  );
  return lines;
}

function dependencyTreeDetail(set: InsightSet): string[] {
  const model = set.model.NetworkDependencyTree;
  if (!model) {
    return [];
  }
  const lines = [`Longest chain: ${ms(model.maxTime)}`];
  let printed = 0;
  const walk = (node: CriticalRequestNode, depth: number): void => {
    if (printed >= 40) {
      return;
    }
    printed++;
    lines.push(
      `${'  '.repeat(depth)}- ${node.request.args.data.url} (${ms(node.timeFromInitialRequest)} from the first request)${node.isLongest ? ' [longest chain]' : ''}`,
    );
    for (const child of node.children) {
      walk(child, depth + 1);
    }
  };
  if (model.rootNodes.length > 0) {
    lines.push('Critical request chains:');
    for (const root of model.rootNodes) {
      walk(root, 0);
    }
  }
  if (model.preconnectedOrigins.length > 0) {
    lines.push(
      'Preconnected origins:',
      ...model.preconnectedOrigins.map(
        origin => `- ${origin.url}${origin.unused ? ' (unused)' : ''}`,
      ),
    );
  }
  if (model.preconnectCandidates.length > 0) {
    lines.push(
      'Preconnect candidates:',
      ...model.preconnectCandidates.map(
        candidate => `- ${candidate.origin} (estimated savings ${milli(candidate.wastedMs)})`,
      ),
    );
  }
  return lines;
}

function imageDeliveryDetail(set: InsightSet): string[] {
  const model = set.model.ImageDelivery;
  if (!model || model.optimizableImages.length === 0) {
    return ['No image could be delivered more efficiently.'];
  }
  return model.optimizableImages.slice(0, 20).map(image => {
    const how = image.optimizations
      .map(optimization =>
        'fileDimensions' in optimization
          ? `resize from ${optimization.fileDimensions.width}x${optimization.fileDimensions.height} to ${optimization.displayDimensions.width}x${optimization.displayDimensions.height} (${bytes(optimization.byteSavings)})`
          : `${optimization.type.toLowerCase().replaceAll('_', ' ')} (${bytes(optimization.byteSavings)})`,
      )
      .join('; ');
    return `- ${image.request.args.data.url}: save ${bytes(image.byteSavings)} — ${how}`;
  });
}

function cacheDetail(set: InsightSet): string[] {
  const model = set.model.Cache;
  if (!model || model.requests.length === 0) {
    return ['Every cacheable resource has an efficient cache lifetime.'];
  }
  return model.requests
    .slice(0, 30)
    .map(
      entry =>
        `- ${entry.request.args.data.url}: cache TTL ${entry.ttl} s, ${bytes(entry.wastedBytes)} could be saved on repeat visits`,
    );
}

function fontDisplayDetail(set: InsightSet): string[] {
  const fonts = set.model.FontDisplay?.fonts ?? [];
  if (fonts.length === 0) {
    return ['No web fonts were loaded.'];
  }
  return fonts.map(
    font =>
      `- ${font.name ?? font.request.args.data.url}: font-display ${font.display}, estimated savings ${milli(font.wastedTime)}`,
  );
}

function domSizeDetail(set: InsightSet): string[] {
  const model = set.model.DOMSize;
  if (!model) {
    return [];
  }
  const lines: string[] = [];
  const stats = model.maxDOMStats?.args.data;
  if (stats) {
    lines.push(`Total elements: ${stats.totalElements}`);
    if (stats.maxDepth) {
      lines.push(`Deepest node: ${stats.maxDepth.nodeName}, depth ${stats.maxDepth.depth}`);
    }
    if (stats.maxChildren) {
      lines.push(
        `Most children: ${stats.maxChildren.nodeName}, ${stats.maxChildren.numChildren} children`,
      );
    }
  }
  for (const update of model.largeUpdates.slice(0, 10)) {
    lines.push(`- ${uiText(update.label)}: ${milli(update.duration)} over ${update.size} elements`);
  }
  return lines;
}

function thirdPartiesDetail(set: InsightSet): string[] {
  const model = set.model.ThirdParties;
  if (!model) {
    return [];
  }
  const firstParty = model.firstPartyEntity?.name;
  const others = model.entitySummaries.filter(summary => summary.entity.name !== firstParty);
  if (others.length === 0) {
    return ['No third-party code or requests.'];
  }
  return others
    .slice(0, 20)
    .map(
      summary =>
        `- ${summary.entity.name}: ${bytes(summary.transferSize)} transferred, ${milli(summary.mainThreadTime)} main-thread time`,
    );
}

function forcedReflowDetail(set: InsightSet): string[] {
  const model = set.model.ForcedReflow;
  if (!model) {
    return [];
  }
  const lines: string[] = [];
  const top = model.topLevelFunctionCallData;
  if (top) {
    lines.push(
      `Top-level function: ${top.topLevelFunctionCall.functionName || '(anonymous)'} ${top.topLevelFunctionCall.url}:${top.topLevelFunctionCall.lineNumber + 1}, total reflow time ${ms(top.totalReflowTime)}`,
    );
  }
  for (const entry of model.aggregatedBottomUpData.slice(0, 10)) {
    const frame = entry.bottomUpData;
    lines.push(
      `- ${frame ? `${frame.functionName || '(anonymous)'} ${frame.url}:${frame.lineNumber + 1}` : '(unattributed)'}: ${ms(entry.totalTime)}`,
    );
  }
  return lines;
}

function slowSelectorDetail(set: InsightSet): string[] {
  const model = set.model.SlowCSSSelector;
  if (!model) {
    return [];
  }
  const lines = [
    `Total selector time: ${milli(model.totalElapsedMs)}, match attempts: ${model.totalMatchAttempts}, matches: ${model.totalMatchCount}`,
  ];
  if (model.topSelectorElapsedMs) {
    lines.push(
      `Slowest selector: ${model.topSelectorElapsedMs.selector} (${ms(model.topSelectorElapsedMs['elapsed (us)'])})`,
    );
  }
  if (model.topSelectorMatchAttempts) {
    lines.push(
      `Most match attempts: ${model.topSelectorMatchAttempts.selector} (${model.topSelectorMatchAttempts.match_attempts})`,
    );
  }
  if (lines.length === 1 && model.totalMatchAttempts === 0) {
    lines.push('Selector statistics are only recorded with the CSS selector stats category.');
  }
  return lines;
}

function detailFor(name: string, set: InsightSet, model: AnyInsight): string[] {
  switch (name) {
    case 'LCPBreakdown':
      return lcpBreakdownDetail(set);
    case 'LCPDiscovery':
      return lcpDiscoveryDetail(set);
    case 'CLSCulprits':
      return clsDetail(set);
    case 'INPBreakdown':
      return inpDetail(set);
    case 'RenderBlocking':
      return renderBlockingDetail(set);
    case 'DocumentLatency':
      return documentLatencyDetail(set);
    case 'NetworkDependencyTree':
      return dependencyTreeDetail(set);
    case 'ImageDelivery':
      return imageDeliveryDetail(set);
    case 'Cache':
      return cacheDetail(set);
    case 'FontDisplay':
      return fontDisplayDetail(set);
    case 'DOMSize':
      return domSizeDetail(set);
    case 'ThirdParties':
      return thirdPartiesDetail(set);
    case 'ForcedReflow':
      return forcedReflowDetail(set);
    case 'SlowCSSSelector':
      return slowSelectorDetail(set);
    case 'CharacterSet': {
      const data = set.model.CharacterSet?.data;
      return data ? ['Checklist:', ...checklistLines(data.checklist)] : [];
    }
    case 'Viewport': {
      const viewport = set.model.Viewport;
      if (!viewport) {
        return [];
      }
      const content = viewport.viewportEvent?.args.data.content;
      return [
        `Mobile-optimized viewport: ${viewport.mobileOptimized === null ? 'unknown' : viewport.mobileOptimized ? 'yes' : 'no'}`,
        ...(content === undefined ? [] : [`Meta viewport: ${content}`]),
      ];
    }
    case 'ModernHTTP': {
      const requests = set.model.ModernHTTP?.http1Requests ?? [];
      return requests.length === 0
        ? ['Every request used HTTP/2 or newer (or was local).']
        : ['Requests over HTTP/1.1:', ...requests.slice(0, 30).map(r => `- ${requestLine(r)}`)];
    }
    default:
      return model.state === 'pass' ? ['Nothing to improve here.'] : [];
  }
}

/** Self-healing: each failure names what is available instead. */
export function formatInsight(
  analysed: AnalysedTrace,
  insightSetId: string,
  insightName: string,
): string {
  const sets = analysed.parsed.insights;
  if (!sets || sets.size === 0) {
    throw new Error(
      'No Performance insights are available for this trace. Record a trace that loads a page (performance_start_trace with reload=true).',
    );
  }
  const set = sets.get(insightSetId);
  if (!set) {
    throw new Error(
      `No Performance Insights for the given insight set id "${insightSetId}". Only use ids given in the "Available insight sets" list: ${[...sets.keys()].join(', ')}.`,
    );
  }
  const failure = Object.entries(set.modelErrors).find(([name]) => name === insightName)?.[1];
  if (failure) {
    throw new Error(
      `The insight ${insightName} could not be computed for this trace: ${failure.message}${failureHint(failure)}`,
    );
  }
  const model = modelEntries(set).find(([name]) => name === insightName)?.[1];
  if (!model) {
    const names = modelEntries(set).map(([name]) => name);
    throw new Error(
      `No Insight with the name "${insightName}" found in insight set ${insightSetId}. Available insights: ${names.join(', ')}.`,
    );
  }
  const out = [
    `## Insight Title: ${uiText(model.title)}`,
    '',
    '## Insight Summary:',
    uiText(model.description),
    `State: ${model.state}`,
    `Insight set: ${set.id} (${set.url.href})`,
    `Relevant trace bounds: ${bounds(insightBoundsOf(analysed, model, set))}`,
    '',
    '## Detailed analysis:',
    ...detailFor(insightName, set, model),
  ];
  const savings = savingsText(model);
  out.push('', `## Estimated savings: ${savings ?? 'none'}`);
  if (model.wastedBytes) {
    out.push(`Estimated wasted bytes: ${bytes(model.wastedBytes)}`);
  }
  if (model.docs) {
    out.push('', '## External resources:', `- ${model.docs}`);
  }
  return out.join('\n');
}
