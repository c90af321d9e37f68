/** The small shapes of a call's outcome: an error result, its first line, what the inspector keeps. */
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {
  boundValue,
  previewText,
  RESULT_TEXT_PREVIEW_CHARS,
  STRUCTURED_PREVIEW_CHARS,
  VALUE_DEPTH_LIMIT,
} from '../../shared/boundedValue.js';
import {inertLines} from '../../shared/inertText.js';
import type {ToolResult} from '../../shared/protocol.js';
import {isRecord} from '../../shared/values.js';

/**
 * The result with every text made inert for line-by-line reading: the reply's own lines are joined
 * with LF, so any other line break (CR, VT, FF, NEL, U+2028…) or bidi control in it came from a
 * page, a file or a client, and is escaped (shared/inertText.ts). Values that go into a line are
 * made one line where they are written (`oneLine`).
 */
export function inertResult(result: CallToolResult): CallToolResult {
  return {
    ...result,
    content: result.content.map(item =>
      item.type === 'text' ? {...item, text: inertLines(item.text)} : item,
    ),
  };
}

export function errorResult(text: string): CallToolResult {
  return {content: [{type: 'text', text}], isError: true};
}

/** A thrown error as the agent reads it, with its cause when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.cause instanceof Error
      ? `${error.message}\nCause: ${error.cause.message}`
      : error.message;
  }
  return String(error);
}

/** The line the inspector shows for a failed call: the first `Error: ` line, else the first. */
export function firstErrorLine(text: string): string {
  const errorLine = text.split('\n').find(line => line.startsWith('Error: '));
  return (errorLine ?? text.split('\n')[0] ?? '').slice(0, 500);
}

export function toolResultOf(result: CallToolResult): ToolResult {
  const texts: string[] = [];
  const images: {mimeType: string; data: string}[] = [];
  for (const item of result.content) {
    if (item.type === 'text') {
      texts.push(item.text);
    } else if (item.type === 'image') {
      images.push({mimeType: item.mimeType, data: item.data});
    }
  }
  return {
    text: texts.join('\n'),
    images,
    ...(result.structuredContent ? {structuredContent: result.structuredContent} : {}),
  };
}

/**
 * The result as the inspector keeps and records it: the text and the structured result cut to
 * previews with their full size marked (the agent got the whole result, once); images as they are
 * (the hub bounds those).
 */
export function resultPreview(result: CallToolResult): ToolResult {
  const shown = toolResultOf(result);
  const text = previewText(shown.text, RESULT_TEXT_PREVIEW_CHARS);
  const structured =
    shown.structuredContent === undefined
      ? undefined
      : boundValue(shown.structuredContent, {
          maxDepth: VALUE_DEPTH_LIMIT,
          maxChars: STRUCTURED_PREVIEW_CHARS,
        });
  return {
    text: text.text,
    images: shown.images,
    ...(structured !== undefined && isRecord(structured.value)
      ? {structuredContent: structured.value}
      : {}),
    ...(text.cut ? {textChars: shown.text.length} : {}),
    ...(structured?.cut === true ? {structuredCut: true} : {}),
  };
}
