/**
 * Reading a snapshot the way an agent does: find the line by its role and name, take its uid,
 * and look at the lines around it (indentation is nesting).
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {expect} from 'vitest';
import {call} from './engine.js';

/** The first snapshot line that contains every fragment. */
export function lineOf(snapshot: string, ...fragments: string[]): string {
  const line = snapshot
    .split('\n')
    .find(candidate => fragments.every(fragment => candidate.includes(fragment)));
  if (line === undefined) {
    throw new Error(`No snapshot line with ${JSON.stringify(fragments)} in:\n${snapshot}`);
  }
  return line;
}

/** The uid on the first snapshot line that contains every fragment. */
export function uidOf(snapshot: string, ...fragments: string[]): string {
  const uid = /^ *(\d+)/.exec(lineOf(snapshot, ...fragments))?.[1];
  if (uid === undefined) {
    throw new Error(`The line with ${JSON.stringify(fragments)} has no uid`);
  }
  return uid;
}

export function depthOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The lines nested under the first line that contains every fragment. */
export function childrenOf(snapshot: string, ...fragments: string[]): string[] {
  const lines = snapshot.split('\n');
  const start = lines.indexOf(lineOf(snapshot, ...fragments));
  const depth = depthOf(lines[start] ?? '');
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (depthOf(line) <= depth) {
      break;
    }
    out.push(line);
  }
  return out;
}

export async function snapshotOf(client: Client, pageId: number, extra = {}): Promise<string> {
  const result = await call(client, 'take_snapshot', {pageId, ...extra});
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

/** Calls a tool that must succeed and returns its text. */
export async function act(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = await call(client, tool, args);
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

/** Runs a function in the page through evaluate_script and returns its parsed JSON result. */
export async function evaluate(
  client: Client,
  pageId: number,
  source: string,
  args?: string[],
): Promise<unknown> {
  const text = await act(client, 'evaluate_script', {
    pageId,
    function: source,
    ...(args ? {args} : {}),
  });
  const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
  if (json === undefined) {
    throw new Error(`No JSON in:\n${text}`);
  }
  const value: unknown = JSON.parse(json);
  return value;
}

/** A fixture engine's page opener (useEngineWithFixtures). */
interface PageOpener {
  client: Client;
  openPage(pathname: string, fragment?: string): Promise<number>;
}

/** Opens a fixture page (its query left out of the URL it waits for) and takes its snapshot. */
export async function openWithSnapshot(
  fx: PageOpener,
  pathname: string,
): Promise<{id: number; snapshot: string}> {
  const id = await fx.openPage(pathname, pathname.split('?')[0]);
  return {id, snapshot: await snapshotOf(fx.client, id)};
}

/** The text content of the first element the selector finds in the page (undefined if none). */
export function textContentOf(client: Client, id: number, selector: string): Promise<unknown> {
  return evaluate(
    client,
    id,
    `() => document.querySelector(${JSON.stringify(selector)})?.textContent`,
  );
}
