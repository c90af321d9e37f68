/**
 * --slim: three tools with tiny definitions for agents that only need to load, read and look.
 * Responses are plain lines (no page list, no snapshot).
 */
import {z} from 'zod';
import {captureScreenshot} from '../../browser/screenshot.js';
import {definePageTool} from '../base/definition.js';
import {checkNavigableUrl, navigate as navigatePage} from '../pages.js';
import {evaluateScript, pageScriptHost} from '../script.js';

export const slimNavigate = definePageTool({
  name: 'navigate',
  description: 'Loads a URL',
  category: 'navigation',
  readOnly: false,
  slim: true,
  schema: {url: z.string().describe('URL to load')},
  handler: async (call, response) => {
    await checkNavigableUrl(call, call.params.url);
    await navigatePage(call, call.page, response, {
      type: 'url',
      url: call.params.url,
      timeout: 30_000,
      quiet: true,
    });
    if (!response.lines.some(line => line.startsWith('Unable'))) {
      response.appendLine(`Navigated to ${call.page.page.url()}.`);
    }
  },
});

export const slimEvaluate = definePageTool({
  name: 'evaluate',
  description: 'Evaluates a JavaScript script',
  category: 'debugging',
  readOnly: false,
  slim: true,
  conditions: ['javascriptEvaluation'],
  blockedByDialog: true,
  schema: {script: z.string().describe('JS script to run on the page')},
  handler: async (call, response) => {
    response.appendLine(
      await evaluateScript(pageScriptHost(call.page, {signal: call.signal}), call.params.script),
    );
  },
});

export const slimScreenshot = definePageTool({
  name: 'screenshot',
  description: 'Takes a screenshot',
  category: 'debugging',
  readOnly: false,
  slim: true,
  blockedByDialog: true,
  schema: {},
  handler: async (call, response) => {
    const capture = await captureScreenshot(call.page, {format: 'png'});
    response.appendLine(
      await call.files.writeTemporaryFile('screenshot.png', Buffer.from(capture.data, 'base64')),
    );
  },
});

export const slimTools = [slimNavigate, slimEvaluate, slimScreenshot];
