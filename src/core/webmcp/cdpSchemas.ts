/**
 * The CDP WebMCP domain as this engine relies on it, validated with zod: puppeteer's bundled
 * protocol types lag behind (no invokeTool, no cancelInvocation, old status names), and the domain
 * is experimental, so every reply and event is checked instead of trusted.
 */
import {z} from 'zod';

export const WEBMCP_EVENTS = {
  toolsAdded: 'WebMCP.toolsAdded',
  toolsRemoved: 'WebMCP.toolsRemoved',
  toolInvoked: 'WebMCP.toolInvoked',
  toolResponded: 'WebMCP.toolResponded',
} as const;

const callFrameSchema = z.object({
  functionName: z.string().optional(),
  url: z.string(),
  lineNumber: z.number(),
  columnNumber: z.number(),
});

/** One tool as the browser reports it. Unknown annotation keys are kept (the domain grows). */
export const cdpToolSchema = z.object({
  name: z.string(),
  /** Not reported by Chromium 156; accepted for when it is. */
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  frameId: z.string(),
  backendNodeId: z.number().optional(),
  stackTrace: z.object({callFrames: z.array(callFrameSchema)}).optional(),
});
export type CdpTool = z.infer<typeof cdpToolSchema>;

/** Tools are parsed one by one so a single odd entry does not hide the others. */
export const toolsAddedSchema = z.object({tools: z.array(z.unknown())});

export const toolsRemovedSchema = z.object({
  tools: z.array(z.object({name: z.string(), frameId: z.string()})),
});

export const toolInvokedSchema = z.object({
  toolName: z.string(),
  frameId: z.string(),
  invocationId: z.string(),
  input: z.string(),
});
export type ToolInvokedEvent = z.infer<typeof toolInvokedSchema>;

const remoteObjectSchema = z.object({
  type: z.string(),
  subtype: z.string().optional(),
  className: z.string().optional(),
  description: z.string().optional(),
  value: z.unknown().optional(),
});

export const toolRespondedSchema = z.object({
  invocationId: z.string(),
  /** `Completed | Canceled | Error`; browsers before April 2026 said `Success`. */
  status: z.string(),
  output: z.unknown().optional(),
  errorText: z.string().optional(),
  exception: remoteObjectSchema.optional(),
});
export type ToolRespondedEvent = z.infer<typeof toolRespondedSchema>;

export const invokeToolResultSchema = z.object({invocationId: z.string()});
export const emptyResultSchema = z.looseObject({});

export const permissionsPolicyStateSchema = z.object({
  states: z.array(
    z.object({
      feature: z.string(),
      allowed: z.boolean(),
      locator: z.object({frameId: z.string(), blockReason: z.string()}).optional(),
    }),
  ),
});

export const boxModelSchema = z.object({
  model: z.object({border: z.array(z.number()), width: z.number(), height: z.number()}),
});

export type FinalStatus = 'Completed' | 'Canceled' | 'Error';

/** Maps the browser's status (old or new spelling) to ours; anything else is an error. */
export function normalizeStatus(status: string): FinalStatus | undefined {
  switch (status) {
    case 'Completed':
    case 'Success':
      return 'Completed';
    case 'Canceled':
    case 'Cancelled':
      return 'Canceled';
    case 'Error':
      return 'Error';
    default:
      return undefined;
  }
}
