/**
 * The WebMCP part of the inspector protocol: a page's tools, invocations (by anyone), the doctor's
 * report and the authoring lint. protocol.ts re-exports them.
 */
import {z} from 'zod';
import {clientRefSchema} from './clients.js';

export const webmcpAnnotationsSchema = z
  .object({
    readOnly: z.boolean().optional(),
    untrustedContent: z.boolean().optional(),
    autosubmit: z.boolean().optional(),
    consequential: z.boolean().optional(),
    /** Meant for developer tooling (listed by list_3p_developer_tools, not list_webmcp_tools). */
    debugging: z.boolean().optional(),
  })
  // Newer browsers add annotations; they are kept (and shown) rather than dropped.
  .catchall(z.unknown());

export const webmcpToolSchema = z.object({
  pageId: z.number(),
  frameId: z.string(),
  frameUrl: z.string(),
  origin: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: webmcpAnnotationsSchema,
  declarative: z.boolean(),
  location: z.object({url: z.string(), line: z.number(), column: z.number()}).optional(),
  /** The tool's frame is the page's main frame. */
  mainFrame: z.boolean().optional(),
  /** Declarative tools: the <form> element (DOM backend node id in the tool's frame). */
  formBackendNodeId: z.number().optional(),
});
export type WebMcpToolInfo = z.infer<typeof webmcpToolSchema>;

/**
 * `Interrupted`: the page navigated, closed or lost the frame before the tool answered.
 * `TimedOut`: the page did not answer a cancel within the grace period.
 */
export const webmcpStatusSchema = z.enum([
  'running',
  'Completed',
  'Canceled',
  'Error',
  'TimedOut',
  'Interrupted',
]);
export type WebMcpStatus = z.infer<typeof webmcpStatusSchema>;

export const webmcpInvokerSchema = z.discriminatedUnion('kind', [
  z.object({kind: z.literal('inspector')}),
  z.object({kind: z.literal('mcp'), client: clientRefSchema}),
  z.object({kind: z.literal('page')}),
]);

export const webmcpInvocationSchema = z.object({
  invocationId: z.string(),
  pageId: z.number(),
  frameId: z.string(),
  toolName: z.string(),
  input: z.string(),
  invoker: webmcpInvokerSchema,
  status: webmcpStatusSchema,
  startedAt: z.number(),
  endedAt: z.number().optional(),
  /** Untrusted: produced by the page. JSON text of the tool's result. */
  output: z.string().optional(),
  /** The output was cut to keep the event stream bounded; MCP callers get all of it. */
  outputTruncated: z.boolean().optional(),
  errorText: z.string().optional(),
  /** The exception's description (message and stack) when the tool threw. */
  exception: z.string().optional(),
  /** A cancel was sent and the page has not answered it yet. */
  cancelRequested: z.boolean().optional(),
  timeoutMs: z.number().optional(),
});
export type WebMcpInvocation = z.infer<typeof webmcpInvocationSchema>;

export const webmcpProblemSchema = z.object({
  code: z.enum([
    'browser-not-running',
    'browser-too-old',
    'domain-missing',
    'feature-disabled',
    'insecure-context',
    'iframe-not-allowed',
    'iframe-insecure',
  ]),
  /** What is wrong, in one sentence. */
  message: z.string(),
  /** The exact next step. */
  fix: z.string(),
  frameId: z.string().optional(),
  frameUrl: z.string().optional(),
});
export type WebMcpProblem = z.infer<typeof webmcpProblemSchema>;

// WebMCP authoring lint: per tool, what makes it hard for an agent to use, and the fix.
export const webmcpLintFindingSchema = z.object({
  code: z.enum([
    'no-description',
    'param-no-description',
    'param-no-type',
    'schema-no-type',
    'schema-unknown-keyword',
    'schema-invalid',
    'required-not-property',
    'duplicate-name',
    'form-no-tooldescription',
  ]),
  toolName: z.string(),
  frameId: z.string(),
  /** Set when the tool is an iframe's. */
  frameUrl: z.string().optional(),
  message: z.string(),
  fix: z.string(),
});
export type WebMcpLintFinding = z.infer<typeof webmcpLintFindingSchema>;

export const webmcpDoctorReportSchema = z.object({
  available: z.boolean(),
  pageId: z.number().optional(),
  pageUrl: z.string().optional(),
  browserVersion: z.string().optional(),
  problems: z.array(webmcpProblemSchema),
  /** Facts that are not problems (tool count, frames checked). */
  notes: z.array(z.string()),
  /** Authoring lint of the page's tools and declarative forms (page doctor only). */
  lint: z.array(webmcpLintFindingSchema).optional(),
});
export type WebMcpDoctorReport = z.infer<typeof webmcpDoctorReportSchema>;
