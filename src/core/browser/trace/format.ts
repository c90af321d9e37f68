/**
 * Text for a parsed trace: the summary performance_stop_trace returns (URL, bounds, throttling,
 * insight sets with lab metrics and the insights worth a look) and the detail of one insight for
 * performance_analyze_insight. Same shape as chrome-devtools-mcp's, so prompts written for it fit.
 * Text from the page (URLs, node names, selectors) is printed as plain text.
 */
import type {AnalysedTrace, InsightSet} from './engine.js';
import {detailFor} from './insightDetails.js';
import {
  bounds,
  bytes,
  failureHint,
  insightBoundsOf,
  modelEntries,
  ms,
  savingsText,
  uiText,
  type TraceWindow,
} from './textParts.js';

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
