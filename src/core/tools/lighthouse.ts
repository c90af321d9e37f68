/**
 * Tool family: lighthouse — a Lighthouse audit (accessibility, SEO, best practices) of the page as
 * it is, driven through the page's own puppeteer Page. Lighthouse is loaded on first use: it is big
 * and most runs never audit.
 */
import path from 'node:path';
import type * as Lighthouse from 'lighthouse';
import {z} from 'zod';
import {reapplyEmulation} from '../browser/pages/emulationState.js';
import {temporaryFileNote} from '../files/FileAccess.js';
import {SECTION_ORDER} from './base/ResponseBuilder.js';
import {definePageTool} from './base/definition.js';
import {isRecord} from '../../shared/values.js';

/** Performance is left to traces (performance_start_trace). */
const CATEGORIES = ['accessibility', 'seo', 'best-practices'];
/** Nodes listed inline per failing audit; the saved reports have all of them. */
const MAX_NODES_PER_AUDIT = 10;
const LOAD_WAIT_MS = 30_000;

const SCREENS = {
  desktop: {mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false},
  mobile: {mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false},
} as const;

interface AuditNode {
  selector?: string;
  snippet?: string;
  nodeLabel?: string;
  explanation?: string;
}

interface FailedAudit {
  id: string;
  title: string;
  score: number;
  description?: string | undefined;
  displayValue?: string | undefined;
  categories: string[];
  nodes: AuditNode[];
  totalNodes: number;
}

function stringField(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

/**
 * Collects the DOM nodes an audit flags, from any table or list in its details. Sub-items hold
 * context (e.g. the background of a contrast failure), not failing elements.
 */
function collectNodes(value: unknown, nodes: Map<string, AuditNode>): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      collectNodes(item, nodes);
    }
    return;
  }
  if (!isRecord(value) || value.type === 'debugdata' || value.type === 'subitems') {
    return;
  }
  if (value.type === 'node') {
    const node: AuditNode = {};
    for (const key of ['selector', 'snippet', 'nodeLabel', 'explanation'] as const) {
      const field = stringField(value, key);
      if (field !== undefined) {
        node[key] = field;
      }
    }
    const key =
      stringField(value, 'lhId') ??
      stringField(value, 'path') ??
      (node.selector || node.snippet
        ? `${node.selector ?? ''}|${node.snippet ?? ''}`
        : `#${nodes.size}`);
    nodes.set(key, {...node, ...nodes.get(key)});
    return;
  }
  for (const [name, child] of Object.entries(value)) {
    if (name !== 'subItems') {
      collectNodes(child, nodes);
    }
  }
}

function failedAudits(lhr: Lighthouse.Result): FailedAudit[] {
  const categoriesOf = new Map<string, string[]>();
  for (const category of Object.values(lhr.categories)) {
    for (const ref of category.auditRefs) {
      categoriesOf.set(ref.id, [...(categoriesOf.get(ref.id) ?? []), category.id]);
    }
  }
  const failed: FailedAudit[] = [];
  for (const audit of Object.values(lhr.audits)) {
    if (audit.score === null || audit.score >= 1) {
      continue;
    }
    const nodes = new Map<string, AuditNode>();
    collectNodes(audit.details, nodes);
    failed.push({
      id: audit.id,
      title: audit.title,
      score: audit.score,
      description: audit.description,
      displayValue: audit.displayValue,
      categories: categoriesOf.get(audit.id) ?? [],
      nodes: [...nodes.values()].slice(0, MAX_NODES_PER_AUDIT),
      totalNodes: nodes.size,
    });
  }
  return failed;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

interface AuditSummary {
  mode: string;
  device: string;
  lhr: Lighthouse.Result;
  reports: string[];
}

/** chrome-devtools-mcp 1.11's layout of the results. */
function formatResults({mode, device, lhr, reports}: AuditSummary): string {
  const out = [
    '## Lighthouse audit results',
    `Mode: ${mode}`,
    `Device: ${device}`,
    `URL: ${lhr.finalDisplayedUrl}`,
  ];
  if (lhr.runtimeError) {
    out.push(
      `Lighthouse could not audit the page: ${lhr.runtimeError.code}: ${oneLine(lhr.runtimeError.message)}`,
    );
  }
  for (const warning of lhr.runWarnings) {
    out.push(`Warning: ${oneLine(warning)}`);
  }
  out.push('### Category scores');
  for (const category of Object.values(lhr.categories)) {
    const score = category.score === null ? 'n/a' : Math.round(category.score * 100);
    out.push(`- ${category.title}: ${score} (${category.id})`);
  }
  const failed = failedAudits(lhr);
  const passed = Object.values(lhr.audits).filter(audit => audit.score === 1).length;
  out.push(
    '### Audit summary',
    `Passed: ${passed}`,
    `Failed: ${failed.length}`,
    `Total timing: ${lhr.timing.total}ms`,
  );
  if (failed.length > 0) {
    out.push('### Failed audits');
  }
  for (const audit of failed) {
    const categories = audit.categories.length > 0 ? ` [${audit.categories.join(', ')}]` : '';
    const display = audit.displayValue ? ` (${audit.displayValue})` : '';
    out.push(`- ${audit.id}${categories}: ${audit.title}${display} (score: ${audit.score})`);
    if (audit.description) {
      out.push(`  ${oneLine(audit.description)}`);
    }
    if (audit.totalNodes > 0) {
      const shown = audit.totalNodes > audit.nodes.length ? `, showing ${audit.nodes.length}` : '';
      out.push(`  Nodes (${audit.totalNodes}${shown}):`);
    }
    for (const node of audit.nodes) {
      // JSON-quoted, so quotes or spaces inside a value cannot fake another key.
      const parts: string[] = [];
      if (node.selector) {
        parts.push(`selector=${JSON.stringify(node.selector)}`);
      }
      if (node.nodeLabel) {
        parts.push(`label=${JSON.stringify(oneLine(node.nodeLabel))}`);
      }
      if (node.snippet) {
        parts.push(`snippet=${JSON.stringify(oneLine(node.snippet))}`);
      }
      out.push(`  - ${parts.join(' ')}`);
      if (node.explanation) {
        out.push(`    ${oneLine(node.explanation)}`);
      }
    }
  }
  out.push('### Reports', ...reports.map(report => `- ${report}`));
  return out.join('\n');
}

export const lighthouseAudit = definePageTool({
  name: 'lighthouse_audit',
  description:
    'Get Lighthouse scores, failing audits, and the DOM nodes they flag for accessibility, SEO and best practices. Full reports are saved to disk. This excludes performance: for that, run performance_start_trace.',
  category: 'debugging',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    mode: z
      .enum(['navigation', 'snapshot'])
      .default('navigation')
      .describe('"navigation" reloads & audits. "snapshot" analyzes current state.'),
    device: z.enum(['desktop', 'mobile']).default('desktop').describe('Device to emulate.'),
    outputDirPath: z
      .string()
      .optional()
      .describe('Directory for reports. If omitted, uses temporary files.'),
  },
  filePaths: [{param: 'outputDirPath', scope: 'always'}],
  handler: async (call, response) => {
    const {mode, device, outputDirPath} = call.params;
    const page = call.page;
    const url = page.page.url();
    if (mode === 'navigation' && !/^(https?|file):/i.test(url)) {
      throw new Error(
        `Lighthouse cannot load ${url || 'this page'} in navigation mode. Navigate the page to the site to audit (navigate_page) first, or use mode "snapshot".`,
      );
    }
    const lighthouse = await import('./lighthouseRuntime.js');
    const flags: Lighthouse.Flags = {
      onlyCategories: CATEGORIES,
      output: ['json', 'html'],
      maxWaitForLoad: LOAD_WAIT_MS,
      formFactor: device,
      screenEmulation: {...SCREENS[device]},
      emulatedUserAgent: lighthouse.userAgents[device],
    };
    let result: Lighthouse.RunnerResult | undefined;
    call.reportProgress(
      `Running the Lighthouse ${mode} audit (${device})${mode === 'navigation' ? ` while ${url} loads` : ''}`,
    );
    try {
      result =
        mode === 'navigation'
          ? await lighthouse.navigation(page.page, url, {flags})
          : await lighthouse.snapshot(page.page, {flags});
    } finally {
      await reapplyEmulation(page);
      page.url = page.page.url();
    }
    if (!result) {
      throw new Error('Lighthouse returned no result for this page.');
    }
    const lhr = result.lhr;
    call.reportProgress('Writing the Lighthouse reports');
    const json = lighthouse.generateReport(lhr, 'json');
    const html = lighthouse.generateReport(lhr, 'html');
    let jsonPath: string;
    if (outputDirPath !== undefined) {
      jsonPath = await call.files.writeFile(path.join(outputDirPath, 'report.json'), json);
    } else {
      jsonPath = await call.files.writeTemporaryFile('report.json', json);
    }
    const htmlPath = await call.files.writeFile(
      path.join(path.dirname(jsonPath), 'report.html'),
      html,
    );
    const reports =
      outputDirPath === undefined
        ? [jsonPath, htmlPath].map(temporaryFileNote)
        : [jsonPath, htmlPath];
    const text = formatResults({mode, device, lhr, reports});
    response.addSection(SECTION_ORDER.lighthouse, () => text);
  },
});

export const lighthouseTools = [lighthouseAudit];
