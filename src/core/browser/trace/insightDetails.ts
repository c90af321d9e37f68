/**
 * The detailed analysis of one insight for performance_analyze_insight, as chrome-devtools-mcp
 * words it: per-insight facts (LCP phases, layout shifts, blocking requests, the dependency
 * tree…), with text from the page printed as plain text.
 */
import type {InsightSet} from './engine.js';
import {
  bounds,
  bytes,
  milli,
  ms,
  requestLine,
  uiText,
  type AnyInsight,
  type CriticalRequestNode,
  type UiString,
} from './textParts.js';

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

export function detailFor(name: string, set: InsightSet, model: AnyInsight): string[] {
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
