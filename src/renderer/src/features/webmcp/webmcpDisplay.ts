/**
 * Pure helpers of the WebMCP panel: grouping tools by page and frame, who invoked what, which
 * tools need a confirmation, and making page-supplied text safe to show (every string here came
 * from a page or a client: it is shown as text, and invisible or direction-changing characters
 * are made visible so "gnp.exe" cannot pose as "exe.png").
 */
import type {
  PageInfo,
  WebMcpInvocation,
  WebMcpStatus,
  WebMcpToolInfo,
} from '../../../../shared/protocol.js';
import {revealInvisible} from '../../ui/revealInvisible.js';

export function toolKey(tool: Pick<WebMcpToolInfo, 'pageId' | 'frameId' | 'name'>): string {
  return `${tool.pageId}|${tool.frameId}|${tool.name}`;
}

/** The tool as the WebMCP commands name it. */
export function toolTarget(tool: WebMcpToolInfo): {
  pageId: number;
  frameId: string;
  toolName: string;
} {
  return {pageId: tool.pageId, frameId: tool.frameId, toolName: tool.name};
}

function invocationToolKey(invocation: WebMcpInvocation): string {
  return `${invocation.pageId}|${invocation.frameId}|${invocation.toolName}`;
}

/** The one shared helper (ui/revealInvisible.ts), re-exported for the panel's modules. */
export {revealInvisible};

/** A one-line preview of a long text (the full text is shown when the tool is opened). */
export function preview(text: string, limit = 240): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > limit ? `${single.slice(0, limit)}…` : single;
}

export interface Chip {
  id: string;
  label: string;
  tone: 'neutral' | 'warn' | 'danger' | 'info';
  description: string;
}

/** One chip per annotation the browser reported (unknown ones too). */
export function annotationChips(tool: WebMcpToolInfo): Chip[] {
  const chips: Chip[] = [];
  const {annotations} = tool;
  if (annotations.readOnly === true) {
    chips.push({
      id: 'readOnly',
      label: 'read-only',
      tone: 'neutral',
      description: 'Does not change anything.',
    });
  } else {
    chips.push({
      id: 'writes',
      label: 'may change state',
      tone: 'warn',
      description: 'Not marked read-only.',
    });
  }
  if (annotations.untrustedContent === true) {
    chips.push({
      id: 'untrustedContent',
      label: 'untrusted output',
      tone: 'warn',
      description: 'Its output may contain third-party or user content.',
    });
  }
  if (annotations.consequential === true) {
    chips.push({
      id: 'consequential',
      label: 'consequential',
      tone: 'danger',
      description: 'Running it has consequences (e.g. a purchase).',
    });
  }
  if (annotations.autosubmit === true) {
    chips.push({
      id: 'autosubmit',
      label: 'autosubmit',
      tone: 'info',
      description: 'The form submits itself.',
    });
  }
  if (annotations.debugging === true) {
    chips.push({
      id: 'debugging',
      label: 'debugging',
      tone: 'info',
      description: 'Meant for developer tools.',
    });
  }
  if (tool.declarative) {
    chips.push({
      id: 'form',
      label: 'form',
      tone: 'info',
      description: 'Declared by a <form> element.',
    });
  }
  const known = new Set([
    'readOnly',
    'untrustedContent',
    'consequential',
    'autosubmit',
    'debugging',
  ]);
  for (const [key, value] of Object.entries(annotations)) {
    if (!known.has(key) && value === true) {
      chips.push({
        id: key,
        label: revealInvisible(key),
        tone: 'info',
        description: 'Reported by the browser.',
      });
    }
  }
  return chips;
}

/** Consequential or not read-only: ask before running it. */
export function needsConfirmation(tool: WebMcpToolInfo): boolean {
  return tool.annotations.consequential === true || tool.annotations.readOnly !== true;
}

export function invokerLabel(invocation: WebMcpInvocation): string {
  const {invoker} = invocation;
  switch (invoker.kind) {
    case 'inspector':
      return 'This app';
    case 'page':
      return 'The page';
    case 'mcp':
      return `MCP client ${invoker.client.name}${invoker.client.version ? ` ${invoker.client.version}` : ''}`;
  }
}

export function statusLabel(status: WebMcpStatus): string {
  switch (status) {
    case 'running':
      return 'running';
    case 'TimedOut':
      return 'Timed out';
    case 'Completed':
    case 'Canceled':
    case 'Error':
    case 'Interrupted':
      return status;
  }
}

/** The shared status classes: ok, error, running, cancelled. */
export function statusTone(status: WebMcpStatus): 'ok' | 'error' | 'running' | 'cancelled' {
  switch (status) {
    case 'Completed':
      return 'ok';
    case 'running':
      return 'running';
    case 'Canceled':
      return 'cancelled';
    case 'Error':
    case 'Interrupted':
    case 'TimedOut':
      return 'error';
  }
}

export type ShownOutput = {kind: 'text'; text: string} | {kind: 'json'; text: string};

/** Output as the page sent it: a string as text, anything else as indented JSON. */
export function shownOutput(output: string | undefined): ShownOutput | undefined {
  if (output === undefined) {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(output);
    if (typeof parsed === 'string') {
      return {kind: 'text', text: revealInvisible(parsed)};
    }
    return {kind: 'json', text: revealInvisible(JSON.stringify(parsed, null, 2))};
  } catch {
    return {kind: 'text', text: revealInvisible(output)};
  }
}

export interface FrameGroup {
  frameId: string;
  url: string;
  origin: string;
  main: boolean;
  tools: WebMcpToolInfo[];
}

export interface PageGroup {
  pageId: number;
  title: string;
  url: string;
  selected: boolean;
  frames: FrameGroup[];
  toolCount: number;
}

function matches(tool: WebMcpToolInfo, filter: string): boolean {
  if (filter === '') {
    return true;
  }
  const needle = filter.toLowerCase();
  return (
    tool.name.toLowerCase().includes(needle) ||
    (tool.title?.toLowerCase().includes(needle) ?? false) ||
    tool.description.toLowerCase().includes(needle)
  );
}

/** Every open page (tools or not, so each can be diagnosed), its frames, main frame first. */
export function groupTools(
  pages: readonly PageInfo[],
  tools: readonly WebMcpToolInfo[],
  filter: string,
): PageGroup[] {
  const byPage = new Map<number, Map<string, FrameGroup>>();
  for (const tool of tools) {
    if (!matches(tool, filter.trim())) {
      continue;
    }
    let frames = byPage.get(tool.pageId);
    if (!frames) {
      frames = new Map();
      byPage.set(tool.pageId, frames);
    }
    let frame = frames.get(tool.frameId);
    if (!frame) {
      frame = {
        frameId: tool.frameId,
        url: tool.frameUrl,
        origin: tool.origin,
        main: tool.mainFrame !== false,
        tools: [],
      };
      frames.set(tool.frameId, frame);
    }
    frame.tools.push(tool);
  }
  const groups: PageGroup[] = pages.map(page => {
    const frames = [...(byPage.get(page.id)?.values() ?? [])].sort(
      (a, b) => Number(b.main) - Number(a.main),
    );
    byPage.delete(page.id);
    return {
      pageId: page.id,
      title: page.title,
      url: page.url,
      selected: page.selected,
      frames,
      toolCount: frames.reduce((sum, frame) => sum + frame.tools.length, 0),
    };
  });
  // Tools of a page the page list does not know yet (events can arrive in either order).
  for (const [pageId, frames] of byPage) {
    const list = [...frames.values()];
    groups.push({
      pageId,
      title: '',
      url: list[0]?.url ?? '',
      selected: false,
      frames: list,
      toolCount: list.reduce((sum, frame) => sum + frame.tools.length, 0),
    });
  }
  return groups;
}

/** The newest invocation of each tool, and the running ones. */
export function indexInvocations(invocations: readonly WebMcpInvocation[]): {
  latest: Map<string, WebMcpInvocation>;
  running: Map<string, WebMcpInvocation[]>;
} {
  const latest = new Map<string, WebMcpInvocation>();
  const running = new Map<string, WebMcpInvocation[]>();
  for (const invocation of invocations) {
    const key = invocationToolKey(invocation);
    latest.set(key, invocation);
    if (invocation.status === 'running') {
      const list = running.get(key) ?? [];
      list.push(invocation);
      running.set(key, list);
    }
  }
  return {latest, running};
}
