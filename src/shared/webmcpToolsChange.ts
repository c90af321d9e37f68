/**
 * Folds a `webmcpToolsChanged` event into a list of tools of every page: a whole list replaces
 * what was known of its page, a change (`delta`) adds or replaces the tools it carries and drops
 * those it names as removed. Applying an event again, or an older one before newer ones, ends in
 * the same list, so a UI can start from the state and then apply whatever the store still holds.
 */
import type {InspectorEvent, WebMcpToolInfo} from './protocol.js';

export type WebMcpToolsChangedEvent = Extract<InspectorEvent, {type: 'webmcpToolsChanged'}>;

function keyOf(tool: {frameId: string; name: string}): string {
  return `${tool.frameId}\u0000${tool.name}`;
}

export function applyWebMcpToolsChanged(
  tools: readonly WebMcpToolInfo[],
  event: WebMcpToolsChangedEvent,
): WebMcpToolInfo[] {
  const others = tools.filter(tool => tool.pageId !== event.pageId);
  if (event.delta !== true) {
    return [...others, ...event.tools];
  }
  const page = new Map(
    tools.filter(tool => tool.pageId === event.pageId).map(tool => [keyOf(tool), tool]),
  );
  for (const removed of event.removed ?? []) {
    page.delete(keyOf(removed));
  }
  for (const tool of event.tools) {
    page.set(keyOf(tool), tool);
  }
  return [...others, ...page.values()];
}
